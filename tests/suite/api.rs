//! One way in: the typed library functions under the commands give the very documents the command line prints
//! (`plateau match --json` is `arena::spec::run_match_spec`'s report), the Python bindings build the same specs, and
//! neither `python/src` nor `src/server` reaches into `cli`.

use std::path::Path;

use plateau::arena::record::GameRecord;
use plateau::arena::spec::{MatchProgress, MatchSpec, run_match_spec};
use serde_json::{Value, json};

use crate::common::*;

/// A report without its wall-clock fields (they differ between two runs of the same games).
fn untimed(mut v: Value) -> Value {
    let obj = v.as_object_mut().expect("a report is an object");
    for timed in ["seconds", "max_move_ms", "mean_move_ms"] {
        assert!(obj.remove(timed).is_some(), "the report has `{timed}`");
    }
    v
}

#[test]
fn the_library_match_report_is_the_cli_json() {
    let printed = json(&plateau(&[
        "match",
        "tic_tac_toe",
        "--player",
        "alphabeta(depth=2)",
        "--player",
        "random",
        "--games",
        "6",
        "--seed",
        "5",
        "--random-plies",
        "1",
        "--json",
    ]));
    let spec = MatchSpec::from_json(json!({
        "game": "tic_tac_toe",
        "players": ["alphabeta(depth=2)", "random"],
        "games": 6,
        "seed": 5,
        "random_plies": 1,
    }))
    .expect("a valid spec");
    let mut seen = 0;
    let mut count = |_: &GameRecord| seen += 1;
    let report = run_match_spec(&spec, MatchProgress { progress_bar: false, on_game: &mut count }).expect("plays");
    assert_eq!(seen, 6, "every finished game is shown");
    let from_library = serde_json::to_value(&report).expect("serializes");
    // The same keys in the same order, and the same values but for the clock's.
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&from_library), keys(&printed));
    assert_eq!(untimed(from_library), untimed(printed.clone()));
    assert_eq!(printed["games"], 6);
    assert_eq!(printed["openings"], "1 random plies (seed 5)");
}

#[test]
fn a_match_spec_refuses_unknown_and_bad_options_in_one_line() {
    let e = MatchSpec::from_json(json!({"players": ["random", "random"], "movtime": "1s"})).unwrap_err();
    assert!(e.contains("unknown match option 'movtime'") && e.contains("movetime"), "{e}");
    assert!(!e.contains('\n'));
    let quiet = |spec: &MatchSpec| run_match_spec(spec, MatchProgress::quiet(&mut |_: &GameRecord| {}));
    let spec = |v: Value| MatchSpec::from_json(v).expect("parses");
    let e = quiet(&spec(json!({"players": ["random"]}))).unwrap_err();
    assert!(e.contains("exactly two players"), "{e}");
    let e = quiet(&spec(json!({"players": ["random", "random"], "games": 0}))).unwrap_err();
    assert!(e.contains("games: 0 is out of range"), "{e}");
    let e = quiet(&spec(json!({"players": ["random", "random"], "movetime": 1, "tc": "1s"}))).unwrap_err();
    assert!(e.contains("--movetime or --tc"), "{e}");
    let e = quiet(&spec(json!({"players": ["random", "random"], "resume": true}))).unwrap_err();
    assert!(e.contains("--resume needs --record"), "{e}");
    // `pgn` is `record`'s other name, as on the command line.
    assert_eq!(spec(json!({"pgn": "x.pgn"})).play.record.as_deref(), Some(Path::new("x.pgn")));
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn python_and_the_server_import_nothing_from_cli() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["python/src", "src/server"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() >= 10, "found only {} files", files.len());
    let offenders: Vec<String> = files
        .iter()
        .filter(|p| std::fs::read_to_string(p).expect("readable").contains("cli::"))
        .map(|p| p.display().to_string())
        .collect();
    assert!(offenders.is_empty(), "these reach into the command line: {offenders:?}");
}
