//! The sidecar of a split check's results file ([`super::check_split`]): `FILE.choices` beside `--results FILE`, the
//! work kept while the plan is not complete, so that a stopped or killed run (the command's or the Ray driver's)
//! loses none of it.
//!
//! ```text
//! line 1     {"check_choices": {"game": ..., "position": ..., "claim": ..., "split_depth": ...}}   whose plan
//! a choice   {"line": "a2a3 b5b4", "move": "c2c3"}       the winner's move after the line ("move": null: none found)
//! a job      {"job": "a2a3 b5b4 c2c3 a5a4", "verified": true, ...}   a job line (as in the results file) finished
//!            before the plan was complete
//! ```
//!
//! Each line is appended and flushed as it is made. Read back, a last line cut short is dropped (the file cut
//! there); a sidecar of another game, position, claim or depth, or a line that is neither, is refused untouched.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::solve::breakthrough::{CheckJob, Choice};

/// Whose plan a sidecar holds.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Root {
    pub game: String,
    pub position: String,
    pub claim: String,
    pub split_depth: u32,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Header {
    check_choices: Root,
}

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Line {
    Choice(Choice),
    Job(CheckJob),
}

/// A JSON-lines file read to its last whole line (missing: empty): the text, and `Some(length kept)` when a last line
/// cut short (a process killed while writing it) was left out.
pub(crate) fn read_whole_lines(path: &Path) -> std::io::Result<(String, Option<usize>)> {
    let mut text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e),
    };
    let mut cut = None;
    if !text.is_empty() && !text.ends_with('\n') {
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        cut = Some(keep);
        text.truncate(keep);
    }
    Ok((text, cut))
}

/// The sidecar's path: the results file's with `.choices` added.
pub fn path_of(results: &str) -> PathBuf {
    PathBuf::from(format!("{results}.choices"))
}

/// A sidecar opened for appending (created with its first line at the first append).
pub struct Sidecar {
    path: PathBuf,
    root: Root,
    file: Option<File>,
}

impl Sidecar {
    /// Read the sidecar of `root` at `path` (missing: nothing yet): its choices and its jobs, in the file's order.
    pub fn open(path: &Path, root: Root) -> Result<(Sidecar, Vec<Choice>, Vec<CheckJob>), String> {
        let f = path.display();
        let (text, cut) = read_whole_lines(path).map_err(|e| format!("{f}: {e}"))?;
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
        let (mut choices, mut jobs) = (Vec::new(), Vec::new());
        if let Some((_, first)) = lines.next() {
            let h: Header = serde_json::from_str(first).map_err(|_| {
                format!("{f}: its first line is not the header of a --check-split choices file (left untouched)")
            })?;
            let r = &h.check_choices;
            if r != &root {
                return Err(format!(
                    "{f}: the choices of another plan ({} {} claim {} depth {}; this run: {} {} claim {} depth {}) \
                     (left untouched)",
                    r.game, r.position, r.claim, r.split_depth, root.game, root.position, root.claim, root.split_depth
                ));
            }
            for (i, l) in lines {
                match serde_json::from_str(l) {
                    Ok(Line::Choice(c)) => choices.push(c),
                    Ok(Line::Job(j)) => jobs.push(j),
                    Err(_) => {
                        return Err(format!("{f}: line {} is neither a choice nor a job (left untouched)", i + 1));
                    }
                }
            }
        }
        if let Some(keep) = cut {
            let file = std::fs::OpenOptions::new().write(true).open(path).map_err(|e| format!("{f}: {e}"))?;
            file.set_len(keep as u64).map_err(|e| format!("{f}: could not drop its cut last line: {e}"))?;
        }
        Ok((Sidecar { path: path.to_path_buf(), root, file: None }, choices, jobs))
    }

    /// Append a choice or a job line (flushed; the header first when the file is new or empty).
    pub fn append<T: serde::Serialize>(&mut self, value: &T) -> Result<(), String> {
        let f = self.path.display().to_string();
        if self.file.is_none() {
            let mut file = crate::files::append(&self.path, "--results' choices file")?;
            let empty = file.metadata().map(|m| m.len() == 0).unwrap_or(false);
            if empty {
                let header =
                    serde_json::to_string(&Header { check_choices: self.root.clone() }).map_err(|e| e.to_string())?;
                file.write_all(format!("{header}\n").as_bytes()).map_err(|e| format!("{f}: {e}"))?;
            }
            self.file = Some(file);
        }
        let line = serde_json::to_string(value).map_err(|e| e.to_string())? + "\n";
        let file = self.file.as_mut().ok_or("the choices file is not open")?;
        file.write_all(line.as_bytes()).and_then(|_| file.flush()).map_err(|e| format!("{f}: could not append: {e}"))
    }
}
