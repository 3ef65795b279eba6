//! The files `plateau tournament` reads: a players file (`--players FILE`; byte 0 even: TOML, odd: JSON) when
//! byte 0 % 3 is 0 or 1, otherwise the results file and the record file that `--resume` reads back (the input's
//! two sections, cut at a line `====`), for a fixed tournament (`SETTINGS` below; `scripts/fuzz_seeds.py` writes
//! seeds from a real run of it).
//! Asserted: errors are one line; a players file that reads writes back (as JSON) to a file that reads to the same
//! entries; a resume that is refused leaves both files byte for byte as they were; one that is accepted gives games
//! of the schedule, each once, that pass the tournament's own check, and leaves files that a second resume reads to
//! the same games without changing a byte (the repair is a fixpoint).
#![no_main]

use std::collections::HashSet;
use std::path::Path;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use plateau::tournament::entries::read_players_file;
use plateau::tournament::spec::{LoadedTournament, load};

/// The tournament whose files are fuzzed (with `--results`, `--record` and `--resume` added).
const SETTINGS: &[&str] = &[
    "tic_tac_toe",
    "--player",
    "a=random",
    "--player",
    "b=random",
    "--player",
    "c=random(seed=2)",
    "--rounds",
    "2",
    "--movetime",
    "10ms",
    "--seed",
    "1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let text = plateau_fuzz::text(rest);
    let d = plateau_fuzz::scratch("tournament-files");
    match mode % 3 {
        0 | 1 => players(&d, &text, mode % 2 == 1),
        _ => resume(&d, &text),
    }
});

fn players(d: &Path, text: &str, json: bool) {
    let path = d.join(if json { "players.json" } else { "players.toml" });
    std::fs::write(&path, text).expect("written");
    match read_players_file(&path) {
        Err(e) => assert!(!e.contains('\n'), "a multi-line error: {e}"),
        Ok(entries) => {
            assert!(!entries.is_empty(), "a players file without players read");
            let back = d.join("back.json");
            std::fs::write(&back, serde_json::to_string(&entries).expect("entries serialise")).expect("written");
            let again = read_players_file(&back).unwrap_or_else(|e| panic!("written back, refused: {e}"));
            assert_eq!(again, entries, "written back, read to other entries");
        }
    }
}

fn resume(d: &Path, text: &str) {
    let parts = plateau_fuzz::sections(text, 2);
    let (results, record) = (d.join("results.jsonl"), d.join("games.pgn"));
    std::fs::write(&results, &parts[0]).expect("written");
    std::fs::write(&record, &parts[1]).expect("written");
    // Loaded once a process (its players built, its schedule made): the files' paths are the process's own.
    static LOADED: OnceLock<LoadedTournament> = OnceLock::new();
    let loaded = LOADED.get_or_init(|| {
        let mut words: Vec<String> = SETTINGS.iter().map(|w| w.to_string()).collect();
        for (flag, path) in [("--results", &results), ("--record", &record)] {
            words.push(flag.into());
            words.push(path.to_str().expect("a UTF-8 path").into());
        }
        words.push("--resume".into());
        load(&words).expect("the fixed tournament loads")
    });
    let read = |p: &Path| std::fs::read(p).expect("read");
    match loaded.jobs.open_files(true) {
        Err(e) => {
            assert!(!e.contains('\n'), "a multi-line error: {e}");
            assert!(read(&results) == parts[0].as_bytes(), "refused ({e}), but the results file was changed");
            assert!(read(&record) == parts[1].as_bytes(), "refused ({e}), but the record file was changed");
        }
        Ok(files) => {
            let games = loaded.jobs.plan().games.len();
            let mut ids = HashSet::new();
            for r in &files.done {
                assert!((1..=games).contains(&r.id) && ids.insert(r.id), "game {} read back twice or unknown", r.id);
                loaded.jobs.check(r).unwrap_or_else(|e| panic!("read back, but not the tournament's: {e}"));
            }
            let done = files.done.clone();
            drop(files);
            let (r1, p1) = (read(&results), read(&record));
            let again = loaded.jobs.open_files(true).unwrap_or_else(|e| panic!("resumed once, refused next: {e}"));
            assert_eq!(again.done, done, "a second resume reads other games");
            drop(again);
            assert!(read(&results) == r1 && read(&record) == p1, "a second resume changed the files");
        }
    }
}
