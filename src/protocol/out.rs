//! The protocols' output: lines shared between the command loop and the search thread, error lines clipped.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Output shared between the loop and the search thread; every line is flushed at once.
#[derive(Clone)]
pub struct Out {
    w: Arc<Mutex<Box<dyn Write + Send>>>,
    /// A write or flush failed (the reader went away): the loop ends at its next turn ([`Out::is_closed`]).
    closed: Arc<AtomicBool>,
}

impl Out {
    /// The protocol's output on `w`.
    pub fn new(w: Box<dyn Write + Send>) -> Self {
        Out { w: Arc::new(Mutex::new(w)), closed: Arc::new(AtomicBool::new(false)) }
    }
    /// Write one line and flush. A failure (a closed pipe, a closed descriptor) marks the output closed: nobody
    /// reads the answers any more, so the loop stops instead of thinking for no one.
    pub fn line(&self, text: &str) {
        if let Ok(mut w) = self.w.lock()
            && (writeln!(w, "{text}").is_err() || w.flush().is_err())
        {
            self.closed.store(true, Ordering::Relaxed);
        }
    }
    /// Whether a write has failed.
    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }
    /// One `info string error` line, cut at [`MAX_ERROR_CHARS`] characters (an error may quote the input, and an
    /// input line may be megabytes long).
    pub fn error(&self, text: &str) {
        self.line(&format!("info string error {}", clip(text, MAX_ERROR_CHARS)));
    }
}

/// The longest error line the protocols print, in characters (the rest is replaced by a count).
pub(crate) const MAX_ERROR_CHARS: usize = 300;

/// `text` cut at `max` characters, with the length of what was left out; line breaks become spaces.
pub(crate) fn clip(text: &str, max: usize) -> String {
    let one_line = |s: &str| s.replace(['\n', '\r'], " ");
    match text.char_indices().nth(max) {
        None => one_line(text),
        Some((cut, _)) => format!("{}... ({} more bytes)", one_line(&text[..cut]), text.len() - cut),
    }
}
