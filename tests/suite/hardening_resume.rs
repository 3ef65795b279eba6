//! An interrupted retrograde build (`plateau solve GAME --method retro --db FILE`) goes on where it stopped: the
//! enumeration is kept in `FILE.partial` (on Ctrl-C, and every `--save-every` seconds for a killed run), the next run
//! replays it and finishes, and the database is byte for byte the one built in one go. And a resumed job never
//! "repairs" a file that is not its own: `match --resume`, `tune --save-data`, `spsa --resume` refuse it untouched.

use crate::common::{BIN, refused, stderr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const GAME: &str = "connect_four(rows=5,columns=4)";

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("plateau-resume-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn build(db: &Path, extra: &[&str]) -> Output {
    Command::new(BIN)
        .args(["solve", GAME, "--method", "retro", "--db", db.to_str().unwrap()])
        .args(extra)
        .output()
        .expect("the binary runs")
}

fn spawn(db: &Path) -> Child {
    Command::new(BIN)
        .args(["solve", GAME, "--method", "retro", "--db", db.to_str().unwrap(), "--save-every", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

fn partial(db: &Path) -> PathBuf {
    PathBuf::from(format!("{}.partial", db.display()))
}

/// Wait until the running build has saved its first checkpoint (it is then in the middle of its work).
fn wait_for_checkpoint(child: &mut Child, db: &Path) {
    let start = Instant::now();
    while !partial(db).exists() {
        assert!(child.try_wait().unwrap().is_none(), "the build ended before its first checkpoint");
        assert!(start.elapsed() < Duration::from_secs(300), "no checkpoint written");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Resume the build of `db` and check that it equals the database built in one go.
fn resume_and_compare(db: &Path, reference: &[u8]) {
    let o = build(db, &[]);
    let e = stderr(&o);
    assert!(o.status.success(), "the resumed build finishes: {e}");
    assert!(e.contains("retro: resumed: "), "the resumed build says so: {e}");
    assert!(!partial(db).exists(), "the checkpoint is removed once the database is written");
    assert!(std::fs::read(db).unwrap() == reference, "the resumed database equals the one built in one go");
}

fn reference() -> Vec<u8> {
    let d = dir("reference");
    let db = d.join("whole.db");
    let o = build(&db, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("resumed"));
    std::fs::read(&db).unwrap()
}

#[test]
fn an_interrupted_retro_build_resumes_and_gives_the_same_database() {
    let reference = reference();

    // Ctrl-C or SIGTERM: the build saves its enumeration and ends with one error line saying how to go on, and the
    // shell's code for the signal (130, 143).
    for (sig, code) in [("-INT", 130), ("-TERM", 143)] {
        let d = dir(&format!("signal{code}"));
        let db = d.join("cut.db");
        let mut child = spawn(&db);
        wait_for_checkpoint(&mut child, &db);
        let kill = Command::new("kill").args([sig, &child.id().to_string()]).status().expect("kill runs");
        assert!(kill.success());
        let o = child.wait_with_output().unwrap();
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(code), "interrupted: {e}");
        let last = e.trim_end().lines().last().unwrap_or("");
        assert!(last.starts_with("error: interrupted after ") && last.contains("the same command goes on"), "{e}");
        assert!(partial(&db).exists() && !db.exists(), "the checkpoint is kept, no database yet");
        resume_and_compare(&db, &reference);
    }

    // Killed outright (SIGKILL): the last periodic checkpoint is what is kept.
    let d = dir("sigkill");
    let db = d.join("killed.db");
    let mut child = spawn(&db);
    wait_for_checkpoint(&mut child, &db);
    child.kill().unwrap();
    let _ = child.wait();
    assert!(partial(&db).exists() && !db.exists());
    resume_and_compare(&db, &reference);
}

#[test]
fn a_checkpoint_of_another_build_is_refused() {
    // A checkpoint of another game (or a damaged one) is a one-line error, never trusted.
    let d = dir("other");
    let db = d.join("other.db");
    let other = d.join("ttt.db");
    let mut child = Command::new(BIN)
        .args(["solve", "connect_four(rows=4,columns=4)", "--method", "retro", "--db", other.to_str().unwrap()])
        .args(["--save-every", "0"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_checkpoint(&mut child, &other);
    child.kill().unwrap();
    let _ = child.wait();
    std::fs::copy(partial(&other), partial(&db)).unwrap();
    let o = build(&db, &[]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("it is of the game connect_four(rows=4,columns=4)") && e.contains("delete it"), "{e}");
    assert_eq!(e.matches("error").count(), 1, "one error line: {e}");

    let mut bytes = std::fs::read(partial(&db)).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(partial(&db), &bytes).unwrap();
    let o = build(&db, &[]);
    assert!(stderr(&o).contains("checksum mismatch"), "{}", stderr(&o));
}

#[test]
fn a_solve_deeper_than_the_stack_is_an_error_not_an_abort() {
    // Found by scripts/cli_mutate.py: `plateau solve oware` (the generic alpha-beta solver on a game of long plays and
    // large states) overflowed the stack and aborted (exit 134). It now stops at the depth its stack allows.
    let o = Command::new(BIN).args(["solve", "oware"]).output().unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.starts_with("error:") && e.trim_end().lines().count() == 1, "{e}");
    assert!(e.contains("goes deeper than the") && e.contains("--method"), "{e}");
}

/// The command fails with one `error:` line containing `needle`.
#[track_caller]
#[test]
fn a_resumed_job_refuses_a_file_that_is_not_its_own_and_leaves_it_byte_for_byte() {
    let d = dir("foreign");
    let notes = d.join("notes.txt");
    let n = notes.to_str().unwrap();
    let ttt = ["match", "tic_tac_toe", "--player", "random", "--player", "random", "--seed", "1", "--record"];
    // A real record of this match, then the user's notes appended to it.
    let record = d.join("record.pgn");
    let r = record.to_str().unwrap();
    let o = Command::new(BIN).args(ttt).args([r, "--games", "2"]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let record_and_notes = [std::fs::read(&record).unwrap(), b"my notes on these games\n".to_vec()].concat();
    // `match --resume` used to answer "a game cut short at its end was removed" and truncate all of these.
    for text in [
        &b"shopping list\neggs\n[milk]\n"[..],
        b"one line without a line break",
        b"[Event \"plateau match\"]\n[Game \"breakthrough\"]\n",
        &record_and_notes,
    ] {
        std::fs::write(&notes, text).unwrap();
        refused(&[&ttt[..], &[n, "--games", "4", "--resume"]].concat(), "record file");
        assert_eq!(std::fs::read(&notes).unwrap(), text, "{}", String::from_utf8_lossy(text));
    }
    // The training data of `tune --save-data` (resumed when it exists): a file without a line break used to be
    // rewritten as an empty data file.
    let tune = ["tune", "breakthrough(rows=5,columns=5)", "--eval", "pst", "--games", "2", "--nodes", "100"];
    for text in [&b"notes without a line break"[..], b"notes\n"] {
        std::fs::write(&notes, text).unwrap();
        refused(&[&tune[..], &["--epochs", "1", "--save-data", n]].concat(), "not a data file");
        assert_eq!(std::fs::read(&notes).unwrap(), text);
    }
    // `spsa --resume` with a checkpoint file that is not one.
    let checkpoint = d.join("notes.txt.checkpoint");
    std::fs::write(&checkpoint, "my notes\n").unwrap();
    let spsa = ["spsa", "breakthrough(rows=6,columns=5)", "--engine", "engine(nodes=100)", "--params", "rfp_margin"];
    refused(&[&spsa[..], &["--iterations", "1", "--out", n, "--resume"]].concat(), "damaged");
    assert_eq!(std::fs::read(&checkpoint).unwrap(), b"my notes\n");
    std::fs::remove_dir_all(&d).unwrap();
}
