//! An interrupted retrograde build (`plateau solve GAME --method retro --db FILE`) goes on where it stopped: the
//! enumeration is kept in `FILE.partial` (on Ctrl-C, and every `--save-every` seconds for a killed run), the next run
//! replays it and finishes, and the database is byte for byte the one built in one go.

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
    Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(["solve", GAME, "--method", "retro", "--db", db.to_str().unwrap()])
        .args(extra)
        .output()
        .expect("the binary runs")
}

fn spawn(db: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_plateau"))
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

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
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

    // Ctrl-C: the build saves its enumeration and ends with one error line saying how to go on.
    let d = dir("sigint");
    let db = d.join("cut.db");
    let mut child = spawn(&db);
    wait_for_checkpoint(&mut child, &db);
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "interrupted: {e}");
    let last = e.trim_end().lines().last().unwrap_or("");
    assert!(last.starts_with("error: interrupted after ") && last.contains("the same command goes on"), "{e}");
    assert!(partial(&db).exists() && !db.exists(), "the checkpoint is kept, no database yet");
    resume_and_compare(&db, &reference);

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
    let mut child = Command::new(env!("CARGO_BIN_EXE_plateau"))
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
    let o = Command::new(env!("CARGO_BIN_EXE_plateau")).args(["solve", "oware"]).output().unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.starts_with("error:") && e.trim_end().lines().count() == 1, "{e}");
    assert!(e.contains("goes deeper than the") && e.contains("--method"), "{e}");
}
