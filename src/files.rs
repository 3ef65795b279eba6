//! The files a user names in a game or player string: who may name them ([`FileAccess`]) and how they are read
//! ([`read`], bounded).
//!
//! ```text
//! "engine(book=my.book)"  Spec::parse_with(text, access)       the string keeps the access of the surface it came from
//!   spec.path("book")     access.check("book", "my.book")       Any: the command line, the protocols, Python
//!                                                               Only(list): plateau serve (--allow-file PATH)
//!   files::read(path, MAX_BOOK, "book")                         a regular file of at most MAX_BOOK bytes
//! ```
//!
//! Every parameter that names a file is read through [`crate::spec::Spec::path`] (or [`crate::spec::Spec::eval`] for
//! `eval=nnue:FILE`), so a surface that must not reach the disk (the web server: a request is anyone's) gives its
//! strings an access that lists the only files they may name. A refused name gets the same answer whether the file
//! exists or not, and errors never quote a file's contents.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The largest text file a game or player string may name (a tree, a parameters file), in bytes.
pub const MAX_TEXT: u64 = 16 << 20;
/// The largest opening book a player string may name (`engine(book=FILE)`), in bytes.
pub const MAX_BOOK: u64 = 256 << 20;
/// The largest network weights file (`eval=nnue:FILE`; a network of this build is 16,788 bytes).
pub const MAX_NETWORK: u64 = 1 << 20;

/// Which files the parameters of a string may name.
#[derive(Clone, Debug, Default)]
pub enum FileAccess {
    /// Any file the process can read: the user's own surfaces (command line, protocols, Python).
    #[default]
    Any,
    /// Only these files (canonical paths): a server's requests, with the files its operator allowed.
    Only(Arc<[PathBuf]>),
}

impl FileAccess {
    /// No file at all.
    pub fn none() -> FileAccess {
        FileAccess::Only(Arc::from(Vec::new()))
    }

    /// Only the files `paths` (each must exist: it is resolved to its canonical path now).
    pub fn only(paths: &[PathBuf]) -> Result<FileAccess, String> {
        let canonical = paths
            .iter()
            .map(|p| p.canonicalize().map_err(|e| format!("--allow-file {}: {e}", p.display())))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(FileAccess::Only(Arc::from(canonical)))
    }

    /// Whether `path` (as written in parameter `key`) may be read; the answer does not depend on whether it exists.
    pub fn check(&self, key: &str, path: &str) -> Result<(), String> {
        match self {
            FileAccess::Any => Ok(()),
            FileAccess::Only(list) => {
                let allowed = Path::new(path).canonicalize().map(|c| list.contains(&c)).unwrap_or(false);
                if allowed {
                    Ok(())
                } else {
                    Err(format!(
                        "{key}={}: files are not allowed here (the server's operator allows a file with plateau serve \
--allow-file PATH)",
                        short(path)
                    ))
                }
            }
        }
    }
}

/// At most 80 characters of a name the user gave, for an error line.
fn short(text: &str) -> String {
    if text.chars().count() <= 80 {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(80).collect::<String>())
    }
}

/// The bytes of `path`, a regular file of at most `limit` bytes; `what` names the file in the one-line error
/// (devices, pipes and directories are refused before anything is read, and a file that grows past `limit` while it
/// is read is refused too).
pub fn read(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>, String> {
    let name = short(&path.display().to_string());
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {what} {name}: {e}"))?;
    let meta = file.metadata().map_err(|e| format!("cannot read {what} {name}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{what} {name}: not a regular file"));
    }
    if meta.len() > limit {
        return Err(format!("{what} {name}: {} bytes, more than the {} allowed", meta.len(), limit));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read {what} {name}: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!("{what} {name}: more than the {limit} bytes allowed"));
    }
    Ok(bytes)
}

/// [`read`] as UTF-8 text.
pub fn read_text(path: &Path, limit: u64, what: &str) -> Result<String, String> {
    String::from_utf8(read(path, limit, what)?)
        .map_err(|_| format!("{what} {}: not UTF-8 text", short(&path.display().to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_listed_files_and_the_same_answer_whether_a_file_exists_or_not() {
        let dir = std::env::temp_dir().join(format!("plateau-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ok = dir.join("ok.txt");
        let other = dir.join("other.txt");
        std::fs::write(&ok, "x").unwrap();
        std::fs::write(&other, "secret").unwrap();
        let access = FileAccess::only(std::slice::from_ref(&ok)).unwrap();
        assert!(access.check("file", ok.to_str().unwrap()).is_ok());
        // The same file by another spelling of its path.
        let dotted = format!("{}/./ok.txt", dir.display());
        assert!(access.check("file", &dotted).is_ok());
        let refused = access.check("file", other.to_str().unwrap()).unwrap_err();
        let missing = access.check("file", dir.join("missing.txt").to_str().unwrap()).unwrap_err();
        assert!(refused.contains("not allowed") && missing.contains("not allowed"), "{refused} / {missing}");
        assert!(!refused.contains("secret"));
        assert!(FileAccess::none().check("file", ok.to_str().unwrap()).is_err());
        assert!(FileAccess::Any.check("file", "/nonexistent").is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reads_are_bounded_and_refuse_special_files() {
        let dir = std::env::temp_dir().join(format!("plateau-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("ten.txt");
        std::fs::write(&f, "0123456789").unwrap();
        assert_eq!(read(&f, 10, "test").unwrap().len(), 10);
        let e = read(&f, 9, "test").unwrap_err();
        assert!(e.contains("more than the 9"), "{e}");
        let e = read(&dir, 100, "test").unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        if Path::new("/dev/zero").exists() {
            let e = read(Path::new("/dev/zero"), 100, "test").unwrap_err();
            assert!(e.contains("not a regular file"), "{e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
