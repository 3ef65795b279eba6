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
//!
//! Every file plateau writes goes through [`write_atomic`] (or [`replace`], its form for bytes already in memory), and
//! every file it appends to or keeps up to date in place is opened by [`append`] or checked by [`check_output`] first:
//!
//! ```text
//! check_output(path, what)       an existing path must be a regular file: a symbolic link, a directory, a device, a
//!                                fifo or a socket is refused (one line), so is a path whose directory does not exist
//! write_atomic(path, what, f)    check_output (and NAME, when it exists, must be writable by this process); f writes
//!                                DIR/.NAME.PID.N.tmp, a new file (create_new: never an existing one) beside the
//!                                target; flush, fsync; check_output again; rename it over NAME (keeping NAME's
//!                                permissions); fsync DIR. Any error (or panic): the temporary file is removed and
//!                                NAME is as it was
//! append(path, what)             check_output, then open (created when missing) to append; a file that is not a
//!                                regular one once open is refused too
//! distinct_outputs(&[(flag, p)]) one job's outputs must be different files (by any spelling, or hard links)
//! ```
//!
//! So a write never replaces anything but a regular file, never touches a file of another name (no fixed `NAME.tmp`
//! beside the target), and a failure (a full disk) leaves the old file whole.
//!
//! [`value_table`]: one table of an endgame database on disk (header, checksum, values), the checkers and Oware
//! databases' file format.

pub(crate) mod value_table;

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The largest text file a game or player string may name (a tree, a parameters file), in bytes.
pub(crate) const MAX_TEXT: u64 = 16 << 20;
/// The largest opening book a player string may name (`engine(book=FILE)`), in bytes.
pub(crate) const MAX_BOOK: u64 = 256 << 20;
/// The largest record, checkpoint or training-data file (a match's games, self-play positions).
pub(crate) const MAX_DATA: u64 = 1 << 30;
/// The largest network weights file (`eval=nnue:FILE`; a network of this build is 16,788 bytes).
pub(crate) const MAX_NETWORK: u64 = 1 << 20;

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

/// [`read`], or `None` when there is no file at `path` (a job's record or checkpoint not written yet).
pub(crate) fn read_if_any(path: &Path, limit: u64, what: &str) -> Result<Option<Vec<u8>>, String> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        _ => read(path, limit, what).map(Some),
    }
}

/// [`read`] as UTF-8 text.
pub(crate) fn read_text(path: &Path, limit: u64, what: &str) -> Result<String, String> {
    String::from_utf8(read(path, limit, what)?)
        .map_err(|_| format!("{what} {}: not UTF-8 text", short(&path.display().to_string())))
}

/// What a file that is not a regular one is, for an error line.
fn kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_block_device() {
            return "a block device";
        } else if t.is_char_device() {
            return "a character device";
        } else if t.is_fifo() {
            return "a fifo";
        } else if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// The directory of `path` (`.` for a bare name) and its file name; an error for a path that names no file.
fn split(path: &Path, what: &str) -> Result<(PathBuf, std::ffi::OsString), String> {
    let name = short(&path.display().to_string());
    let file = path.file_name().ok_or_else(|| format!("{what} {name}: not a file name"))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((dir, file.to_os_string()))
}

/// Whether plateau may write `path` (`what` names it in the error): a missing file in an existing directory, or a
/// regular file. A symbolic link, a directory, a device, a fifo or a socket is refused with one line, and nothing is
/// touched; check long jobs' outputs with it before the work.
pub(crate) fn check_output(path: &Path, what: &str) -> Result<(), String> {
    let name = short(&path.display().to_string());
    if path.as_os_str().is_empty() {
        return Err(format!("{what}: an empty file name"));
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(m) if m.file_type().is_symlink() => Err(format!(
            "{what} {name}: a symbolic link: plateau writes no file through a link (give the path of the file itself)"
        )),
        Ok(m) => Err(format!(
            "{what} {name}: {}, not a regular file: plateau writes only regular files",
            kind(&m.file_type())
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let (dir, _) = split(path, what)?;
            let shown = short(&dir.display().to_string());
            match std::fs::metadata(&dir) {
                Ok(m) if m.is_dir() => Ok(()),
                Ok(_) => Err(format!("{what} {name}: {shown} is not a directory")),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    Err(format!("{what} {name}: the directory {shown} does not exist"))
                }
                Err(e) => Err(format!("{what} {name}: the directory {shown}: {e}")),
            }
        }
        Err(e) => Err(format!("{what} {name}: {e}")),
    }
}

/// Where `path` is, whatever its spelling: the canonical directory and the file name (the file itself may not exist
/// yet); `None` when the directory cannot be resolved (the write will say why).
fn location(path: &Path) -> Option<(PathBuf, std::ffi::OsString)> {
    let (dir, file) = split(path, "").ok()?;
    Some((dir.canonicalize().ok()?, file))
}

/// Whether two output paths name the same file: the same name in the same directory by any spelling (`a.txt`,
/// `./a.txt`, `dir/../a.txt`), or two names of one existing file (hard links).
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    if let (Some(x), Some(y)) = (location(a), location(b))
        && x == y
    {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    false
}

/// Refuse two outputs of one job that name the same file (`--results r --record r` would write both formats into
/// one file, which no reader takes back): `outputs` are (flag, path) pairs; the error is one line naming both flags.
pub(crate) fn distinct_outputs(outputs: &[(&str, &Path)]) -> Result<(), String> {
    for (i, (flag_a, a)) in outputs.iter().enumerate() {
        for (flag_b, b) in &outputs[i + 1..] {
            if same_file(a, b) {
                return Err(format!(
                    "{flag_a} and {flag_b} name the same file ({}): give each its own",
                    short(&b.display().to_string())
                ));
            }
        }
    }
    Ok(())
}

/// Numbers the temporary files of this process.
static TEMPORARY: AtomicU64 = AtomicU64::new(0);

/// Removes a temporary file when dropped, unless it was renamed.
struct Temporary(Option<PathBuf>);

impl Drop for Temporary {
    fn drop(&mut self) {
        if let Some(p) = self.0.take() {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// A new file `DIR/.NAME.PID.N.tmp` (created, never opened: an existing file of that name is left alone).
fn create_temporary(dir: &Path, file: &std::ffi::OsStr) -> std::io::Result<(PathBuf, File)> {
    let stem: String = file.to_string_lossy().chars().take(100).collect();
    let mut tries = 0;
    loop {
        let n = TEMPORARY.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!(".{stem}.{}.{n}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(f) => return Ok((path, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < 100 => tries += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Write `path` atomically (see the module documentation): `write` fills a new temporary file beside it, which then
/// replaces `path` only when whole and synced, and only if `path` is missing or a regular file. Returns what `write`
/// returns; an error is one line naming `what` and `path`, and leaves `path` as it was and no temporary file.
pub(crate) fn write_atomic<T>(
    path: &Path,
    what: &str,
    write: impl FnOnce(&mut File) -> std::io::Result<T>,
) -> Result<T, String> {
    check_output(path, what)?;
    let name = short(&path.display().to_string());
    let err = |e: std::io::Error| format!("cannot write {what} {name}: {e}");
    let (dir, file_name) = split(path, what)?;
    let old = std::fs::symlink_metadata(path).ok().filter(|m| m.is_file());
    if old.is_some() {
        // A file this process may not write (read-only) is not replaced either (opened, not truncated: unchanged).
        OpenOptions::new().write(true).open(path).map_err(err)?;
    }
    let (tmp, mut file) = create_temporary(&dir, &file_name).map_err(err)?;
    let mut guard = Temporary(Some(tmp.clone()));
    if let Some(m) = old {
        // The new file keeps the permissions of the one it replaces.
        let _ = file.set_permissions(m.permissions());
    }
    let value = write(&mut file).map_err(err)?;
    file.flush().and_then(|_| file.sync_all()).map_err(err)?;
    drop(file);
    // The target may have become something else while the file was written.
    check_output(path, what)?;
    std::fs::rename(&tmp, path).map_err(err)?;
    guard.0 = None;
    if let Ok(d) = File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(value)
}

/// [`write_atomic`] of `bytes`.
pub fn replace(path: &Path, bytes: &[u8], what: &str) -> Result<(), String> {
    write_atomic(path, what, |f| f.write_all(bytes))
}

/// `path` opened to append to (and read), created when missing: for files that grow as a job goes (match records,
/// training data). Refused like [`check_output`], and again if what was opened is not a regular file.
pub(crate) fn append(path: &Path, what: &str) -> Result<File, String> {
    check_output(path, what)?;
    let name = short(&path.display().to_string());
    let file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot write {what} {name}: {e}"))?;
    match file.metadata() {
        Ok(m) if m.is_file() => Ok(file),
        Ok(m) => Err(format!("{what} {name}: {}, not a regular file", kind(&m.file_type()))),
        Err(e) => Err(format!("cannot write {what} {name}: {e}")),
    }
}

/// The temporary files of `path` in its directory (`.NAME.*.tmp`): those of writes under way, or left by a process
/// killed while it wrote (no run reads them; they may be deleted).
pub fn temporaries_of(path: &Path) -> Vec<PathBuf> {
    let Ok((dir, file)) = split(path, "") else { return Vec::new() };
    let stem: String = file.to_string_lossy().chars().take(100).collect();
    let prefix = format!(".{stem}.");
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            let middle = n.strip_prefix(&prefix).and_then(|m| m.strip_suffix(".tmp"));
            middle.is_some_and(|m| m.split('.').all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())))
        })
        .map(|e| e.path())
        .collect();
    found.sort();
    found
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

    #[test]
    fn writes_replace_only_regular_files_and_touch_no_other_name() {
        let dir = std::env::temp_dir().join(format!("plateau-write-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("out.bin");
        // A file of the old fixed temporary name is someone else's: it survives.
        std::fs::write(dir.join("out.bin.tmp"), "not mine").unwrap();
        replace(&out, b"one", "test").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"one");
        replace(&out, b"two", "test").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"two");
        assert_eq!(std::fs::read(dir.join("out.bin.tmp")).unwrap(), b"not mine");
        std::fs::write(dir.join(".out.bin.tmp"), "not mine either").unwrap();
        assert!(temporaries_of(&out).is_empty());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
            replace(&out, b"three", "test").unwrap();
            assert_eq!(std::fs::metadata(&out).unwrap().permissions().mode() & 0o777, 0o640);
        }
        // A writer that fails midway (a full disk): the old file whole, no temporary file left.
        let e = write_atomic(&out, "test", |f| {
            f.write_all(b"half")?;
            Err::<(), _>(std::io::Error::other("simulated: no space left"))
        })
        .unwrap_err();
        assert!(e.contains("cannot write test") && e.contains("no space left") && !e.contains('\n'), "{e}");
        assert_eq!(std::fs::read(&out).unwrap(), b"three");
        assert!(temporaries_of(&out).is_empty());
        // A symbolic link, a directory, a device: refused, untouched.
        #[cfg(unix)]
        {
            let link = dir.join("link.bin");
            std::os::unix::fs::symlink(&out, &link).unwrap();
            let e = replace(&link, b"x", "test").unwrap_err();
            assert!(e.contains("symbolic link"), "{e}");
            assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
            assert_eq!(std::fs::read(&out).unwrap(), b"three");
            assert!(append(&link, "test").unwrap_err().contains("symbolic link"));
            use std::os::unix::fs::FileTypeExt;
            let e = replace(Path::new("/dev/null"), b"x", "test").unwrap_err();
            assert!(e.contains("character device"), "{e}");
            assert!(std::fs::symlink_metadata("/dev/null").unwrap().file_type().is_char_device());
        }
        assert!(replace(&dir, b"x", "test").unwrap_err().contains("a directory"));
        let e = replace(&dir.join("missing/out.bin"), b"x", "test").unwrap_err();
        assert!(e.contains("does not exist"), "{e}");
        // Appending: created, then appended to.
        let log = dir.join("log.txt");
        append(&log, "test").unwrap().write_all(b"a").unwrap();
        append(&log, "test").unwrap().write_all(b"b").unwrap();
        assert_eq!(std::fs::read(&log).unwrap(), b"ab");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
