//! The defects of the adversarial run (issue 21), each answered by a one-line error or by the right behaviour: the
//! `plateau` binary end to end, as a hostile user would drive it.

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};

fn plateau(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_plateau")).args(args).output().expect("the binary runs")
}

fn plateau_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The command fails with exit code 1 and one `error:` line containing `needle`, no panic, no abort.
#[track_caller]
fn refused(args: &[&str], needle: &str) {
    let o = plateau(args);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{args:?} should fail with one error line; stderr: {e}");
    assert!(e.starts_with("error:") && e.trim_end().lines().count() == 1, "{args:?}: one error line, got: {e}");
    assert!(e.contains(needle), "{args:?}: the error should mention '{needle}': {e}");
}

fn temp_file(name: &str, content: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("plateau-hardening-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn oversized_tables_are_one_line_errors() {
    for args in [
        &["solve", "tic_tac_toe", "--tt", "900gb"][..],
        &["solve", "tic_tac_toe", "--method", "dfpn", "--tt", "900gb"],
        &["solve", "connect_four", "--tt", "900gb"],
        &["solve", "breakthrough(rows=5,columns=3)", "--tt", "900gb"],
        &["solve", "breakthrough(rows=5,columns=3)", "--check", "--check-memo", "900gb"],
        &["search", "tic_tac_toe", "--algo", "mtdf(tt=900gb)"],
        &["search", "breakthrough", "--algo", "engine(tt=900gb)"],
    ] {
        refused(args, "memory available");
    }
    refused(&["solve", "tic_tac_toe", "--tt", "2000000gb"], "too large");
}

#[test]
fn a_large_table_costs_what_is_used() {
    // 4 GiB asked for a game of 5,478 positions: the solve is immediate (the table is not filled first).
    let t = std::time::Instant::now();
    let o = plateau(&["solve", "tic_tac_toe", "--tt", "4gb", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(t.elapsed().as_secs_f64() < 1.5, "took {:?}", t.elapsed());
}

/// Run with stdout closed before the command writes anything.
fn closed_stdout(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    Output { status, stdout: Vec::new(), stderr: err.into_bytes() }
}

#[test]
fn a_closed_stdout_ends_the_command_quietly() {
    let batch = temp_file("c4.txt", b"4453\n44\n");
    for args in [
        &["games"][..],
        &["search", "breakthrough", "--algo", "alphabeta(depth=2)"],
        &["perft", "breakthrough", "--depth", "2", "--divide"],
        &["solve", "connect_four", "--batch", &batch, "--json"],
    ] {
        let o = closed_stdout(args);
        assert_eq!(o.status.code(), Some(141), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    }
}
