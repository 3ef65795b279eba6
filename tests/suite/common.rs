//! The one helper module of the integration tests: running the `plateau` binary as a user would (arguments, input,
//! captured output), reading what it printed (JSON, one-line errors) and a fresh temporary folder per test.
//!
//! Every module of the suite reaches it as `crate::common` (most with `use crate::common::*;`). A helper a module
//! needs with different semantics stays in that module, under a name of its own or shadowing the glob import.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The `plateau` binary cargo built for this test run.
pub const BIN: &str = env!("CARGO_BIN_EXE_plateau");

/// Runs `plateau ARGS` with an empty standard input and returns what it printed and its exit status.
pub fn plateau(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("the binary runs")
}

/// Runs `plateau ARGS` with `input` on its standard input. A child that exits before reading it (bad arguments) is
/// not an error of the test: only a write error other than a closed pipe is.
pub fn plateau_stdin(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    match child.stdin.take().expect("stdin").write_all(input.as_ref()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("writing the input: {e}"),
        _ => {}
    }
    child.wait_with_output().expect("the binary finishes")
}

/// `plateau ARGS` as (success, stdout, stderr), both texts decoded lossily.
pub fn plateau_text(args: &[&str]) -> (bool, String, String) {
    let out = plateau(args);
    (out.status.success(), stdout(&out), stderr(&out))
}

/// What the command printed on its standard output.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What the command printed on its standard error.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The one JSON document a successful command printed (a failure shows its stderr).
pub fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "failed: {}", stderr(out));
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

/// The error of a command that failed: one line starting with `error: ` (never a panic), returned trimmed.
pub fn one_line_error(out: &Output) -> String {
    assert!(!out.status.success(), "should fail; stdout: {}", stdout(out));
    let err = stderr(out).trim().to_string();
    assert_eq!(err.lines().count(), 1, "one error line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// `plateau ARGS` is refused with exit code 1 and one error line that mentions `needle`.
pub fn refused(args: &[&str], needle: &str) {
    let out = plateau(args);
    let e = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{args:?} should fail with one error line; stderr: {e}");
    assert!(e.starts_with("error:") && e.trim_end().lines().count() == 1, "{args:?}: one error line, got: {e}");
    assert!(e.contains(needle), "{args:?}: the error should mention '{needle}': {e}");
}

/// A fresh, empty folder for one test: `$TMPDIR/plateau-tests-PID/MODULE-NAME`, MODULE being the calling test file,
/// so that two modules of this one test process never share a folder by choosing the same name.
#[track_caller]
pub fn tmpdir(name: &str) -> PathBuf {
    let caller = std::path::Path::new(std::panic::Location::caller().file());
    let module = caller.file_stem().and_then(|s| s.to_str()).unwrap_or("test");
    let d = std::env::temp_dir().join(format!("plateau-tests-{}", std::process::id())).join(format!("{module}-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary folder");
    d
}
