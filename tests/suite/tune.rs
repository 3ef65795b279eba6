//! `plateau tune --eval pst` reading match records (`--pgn`) and saved data (`--data`, repeatable).

use crate::common::plateau;

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("plateau-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn match_records_become_labelled_positions() {
    let pgn = tmp("games.pgn");
    let _ = std::fs::remove_file(&pgn);
    let p = pgn.to_str().unwrap();
    let out = plateau(&[
        "match",
        "breakthrough(rows=5,columns=5)",
        "--player",
        "engine(nodes=300)",
        "--player",
        "random",
        "--games",
        "6",
        "--seed",
        "3",
        "--record",
        p,
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let data = tmp("games.txt");
    let d = data.to_str().unwrap();
    let out = plateau(&[
        "tune",
        "breakthrough(rows=5,columns=5)",
        "--eval",
        "pst",
        "--data-eval",
        "pst",
        "--pgn",
        p,
        "--nodes",
        "200",
        "--epochs",
        "3",
        "--save-data",
        d,
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&data).unwrap();
    // The header line names the labelling (`# plateau tune data: ...`, resumable by the same command); data below.
    assert!(text.starts_with("# plateau tune data"), "{text:.200}");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() >= 12, "6 games give at least a dozen quiet positions, got {}", lines.len());
    // Six games, numbered 0..6; results are 0 or 1 (no draws in Breakthrough).
    let games: std::collections::BTreeSet<&str> = lines.iter().map(|l| l.split('\t').nth(3).unwrap()).collect();
    assert!(games.len() <= 6 && games.len() >= 4, "{games:?}");
    assert!(lines.iter().all(|l| matches!(l.split('\t').nth(1), Some("0") | Some("1"))));

    // Two data files: the game numbers of the second continue after the first's.
    let out = plateau(&[
        "tune",
        "breakthrough(rows=5,columns=5)",
        "--eval",
        "pst",
        "--data",
        d,
        "--data",
        d,
        "--epochs",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["positions"].as_u64().unwrap() as usize, 2 * lines.len());

    // A record of another board is refused with a clear error, not a panic.
    let out = plateau(&["tune", "breakthrough", "--eval", "pst", "--pgn", p, "--epochs", "1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not breakthrough") || err.contains("is breakthrough(rows=5"), "{err}");
    let out = plateau(&["tune", "breakthrough", "--eval", "pst", "--pgn", "/nonexistent.pgn"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}
