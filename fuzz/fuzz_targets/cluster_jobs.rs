//! What the Ray cluster's driver gives the library (`python/src/tournament.rs` over `tournament::jobs`): the
//! tournament's words (line 1, split at white space, as `plateau tournament` takes them after its name) and game
//! results as JSON (the other lines), checked against the tournament and summed up as `plateau tournament` does.
//! Left out: words naming files or other programs (`/`, `--players`, `--engines`, `--results`, `--record`,
//! `--openings`, `uci`, `ugi`, `cmd`) and schedules of more than 99 rounds (a plan's size is the schedule's).
//! Asserted: errors are one line; the plan's tasks hold every game of the schedule once; a result made from each
//! planned game passes the check and one with another round does not; a result that parses writes back to the same;
//! the summary counts the results checked.
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use plateau::tournament::GameResult;
use plateau::tournament::spec::load;

const LEFT_OUT: &[&str] = &["/", "--players", "--engines", "--results", "--record", "--openings", "uci", "ugi", "cmd"];

fuzz_target!(|data: &[u8]| {
    let text = plateau_fuzz::text(data);
    let mut lines = text.lines();
    let words: Vec<String> = lines.next().unwrap_or("").split_whitespace().take(24).map(str::to_string).collect();
    if words.iter().any(|w| LEFT_OUT.iter().any(|x| w.contains(x)) || (w.len() > 2 && w.parse::<u64>().is_ok())) {
        return;
    }
    let loaded = match load(&words) {
        Ok(l) => l,
        Err(e) => {
            assert!(!e.contains('\n'), "a multi-line error: {e}");
            return;
        }
    };
    let jobs = &loaded.jobs;
    let plan = jobs.plan();
    assert_eq!(plan.tournament, jobs.id());
    let mut in_tasks: Vec<usize> = plan.tasks.iter().flat_map(|t| t.games.iter().copied()).collect();
    in_tasks.sort();
    assert_eq!(in_tasks, (1..=plan.games.len()).collect::<Vec<_>>(), "the tasks hold every game once");
    for g in plan.games.iter().take(8) {
        let mut r = GameResult {
            id: g.id,
            round: g.round,
            white: g.white.clone(),
            black: g.black.clone(),
            result: "1/2-1/2".into(),
            termination: "normal".into(),
            plies: 9,
        };
        jobs.check(&r).unwrap_or_else(|e| panic!("a planned game refused: {e}"));
        r.round += 1;
        assert!(jobs.check(&r).is_err(), "a game of another round passes the check");
    }
    let mut checked = Vec::new();
    let mut ids = HashSet::new();
    for line in lines.take(32) {
        let Ok(r) = serde_json::from_str::<GameResult>(line) else { continue };
        let back = serde_json::to_string(&r).expect("a result serialises");
        assert_eq!(serde_json::from_str::<GameResult>(&back).expect("written back, refused"), r);
        match jobs.check(&r) {
            Ok(()) if ids.insert(r.id) => checked.push(r),
            Ok(()) => {}
            Err(e) => assert!(!e.contains('\n'), "a multi-line error: {e}"),
        }
    }
    let n = checked.len() as u64;
    let summary = jobs.summary(checked, n, 0.0);
    assert_eq!((summary.finished, summary.resumed_games), (n, n), "the summary counts the results given");
    serde_json::to_string(&summary).expect("a summary serialises");
});
