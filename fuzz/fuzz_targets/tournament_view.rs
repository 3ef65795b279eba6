//! A tournament seen from its files, as `plateau serve --tournament RESULTS,RECORD` shows it
//! (`tournament::watch::view`, `record_block`): the results file, its live sidecar `RESULTS.live` (the games in
//! progress) and the record file, the input's three sections cut at lines `====`, read at a fixed time (`NOW`).
//! Asserted: errors are one line; a view counts its results, each once and within the schedule, shows as playing
//! only games not finished and only while running, and is the same when read again; the record block of a finished
//! game, when there, is a block of that game of that tournament; a live file that parses writes back to the same.
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use plateau::arena::record::read_games;
use plateau::tournament::live::{LiveFile, live_path};
use plateau::tournament::watch::{record_block, view};

/// The time of every read (2027-01-15, milliseconds): seeds' live files are written just before it.
const NOW: u64 = 1_800_000_000_000;

fuzz_target!(|data: &[u8]| {
    let text = plateau_fuzz::text(data);
    let parts = plateau_fuzz::sections(&text, 3);
    let d = plateau_fuzz::scratch("tournament-view");
    let (results, record) = (d.join("results.jsonl"), d.join("games.pgn"));
    std::fs::write(&results, &parts[0]).expect("written");
    std::fs::write(live_path(&results), &parts[1]).expect("written");
    std::fs::write(&record, &parts[2]).expect("written");
    if let Ok(live) = serde_json::from_str::<LiveFile>(&parts[1]) {
        let back = serde_json::to_string(&live).expect("a live file serialises");
        assert_eq!(serde_json::from_str::<LiveFile>(&back).expect("written back, refused"), live);
    }
    let v = match view(&results, NOW) {
        Ok(v) => v,
        Err(e) => {
            assert!(!e.contains('\n'), "a multi-line error: {e}");
            return;
        }
    };
    assert_eq!(v.finished, v.results.len() as u64);
    let ids: HashSet<usize> = v.results.iter().map(|r| r.id).collect();
    assert_eq!(ids.len(), v.results.len(), "a game shown twice");
    assert!(v.results.iter().all(|r| r.id >= 1 && r.id as u64 <= v.games), "a game outside the schedule");
    assert!(v.running || v.playing.is_empty(), "games in progress in a tournament not running");
    assert!(v.playing.iter().all(|g| !ids.contains(&g.id)), "a finished game shown as in progress");
    // As JSON (what the server sends): a rating may be NaN, which no value equals.
    let shown = serde_json::to_string(&v).expect("a view serialises");
    let again = serde_json::to_string(&view(&results, NOW).expect("read again")).expect("a view serialises");
    assert_eq!(again, shown, "the same files read to another view");
    let Some(id) = &v.tournament else { return };
    for r in v.results.iter().take(4) {
        match record_block(&record, id, r.id) {
            Err(e) => assert!(!e.contains('\n'), "a multi-line error: {e}"),
            Ok(None) => {}
            Ok(Some(block)) => {
                let g = read_games(&block).expect("a block given reads").into_iter().next().expect("one game");
                assert_eq!(g.round, r.id, "the block of another game");
                assert_eq!(g.tag("Tournament"), Some(id.as_str()), "the block of another tournament");
            }
        }
    }
});
