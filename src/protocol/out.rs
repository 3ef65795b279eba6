//! The protocols' output: lines shared between the command loop and the search thread, error lines clipped.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// Output shared between the loop and the search thread; every line is flushed at once.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    pub fn new(w: Box<dyn Write + Send>) -> Self {
        Out(Arc::new(Mutex::new(w)))
    }
    /// Write one line and flush (errors on a closed pipe are ignored: the loop ends on its input).
    pub fn line(&self, text: &str) {
        if let Ok(mut w) = self.0.lock() {
            let _ = writeln!(w, "{text}");
            let _ = w.flush();
        }
    }
    /// One `info string error` line, cut at [`MAX_ERROR_CHARS`] characters (an error may quote the input, and an
    /// input line may be megabytes long).
    pub fn error(&self, text: &str) {
        self.line(&format!("info string error {}", clip(text, MAX_ERROR_CHARS)));
    }
}

/// The longest error line the protocols print, in characters (the rest is replaced by a count).
pub const MAX_ERROR_CHARS: usize = 300;

/// `text` cut at `max` characters, with the length of what was left out; line breaks become spaces.
pub fn clip(text: &str, max: usize) -> String {
    let one_line = |s: &str| s.replace(['\n', '\r'], " ");
    match text.char_indices().nth(max) {
        None => one_line(text),
        Some((cut, _)) => format!("{}... ({} more bytes)", one_line(&text[..cut]), text.len() - cut),
    }
}
