//! The one time control as searchers see it: node budgets are exact, a stop flag ends any search, and every searcher
//! plans a clock for the side to move without running past it.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use plateau::game::Capabilities;
use plateau::game::{Game, MoveList};
use plateau::games::Breakthrough;
use plateau::players::searcher as from_spec;
use plateau::search::{Limits, Searcher, TimeControl};

const SEARCHERS: &[&str] = &["alphabeta", "pvs", "mtdf", "sss", "negacstar", "engine"];

fn searcher(spec: &str) -> Box<dyn Searcher<Breakthrough>> {
    from_spec::<Breakthrough>(spec).unwrap()
}

#[test]
fn node_budgets_are_exact() {
    let g = Breakthrough::default();
    let s = g.play_moves(&g.start(), "a2a3 h7h6").unwrap();
    for name in SEARCHERS {
        for n in [300u64, 1000, 4321] {
            let r = searcher(&format!("{name}(nodes={n})")).search(&g, &s);
            assert_eq!(r.stats.nodes, n, "{name}(nodes={n})");
            assert!(r.best_move.is_some());
            // The same budget given through set_limits.
            let mut x = searcher(name);
            x.set_limits(Limits { nodes: Some(n), ..Limits::default() });
            assert_eq!(x.search(&g, &s).stats.nodes, n, "{name} with set_limits(nodes={n})");
        }
    }
}

#[test]
fn a_stop_flag_ends_any_search() {
    let g = Breakthrough::default();
    let s = g.start();
    for name in SEARCHERS {
        // Until stopped (`go infinite`), with the flag already set: the search returns at once with a legal move.
        let mut x = searcher(name);
        x.set_limits(Limits { time: Some(TimeControl::Infinite), ..Limits::default() });
        let flag = Arc::new(AtomicBool::new(true));
        x.set_stop(flag);
        let t = Instant::now();
        let r = x.search(&g, &s);
        assert!(t.elapsed() < Duration::from_secs(20), "{name} did not stop: {:?}", t.elapsed());
        let m = r.best_move.expect("a move");
        let mut legal = MoveList::new();
        g.generate_moves(&s, &mut legal);
        assert!(legal.contains(&m), "{name}");
    }
}

#[test]
fn clocks_are_planned_for_the_side_to_move() {
    let g = Breakthrough::default();
    let s = g.play_moves(&g.start(), "a2a3").unwrap();
    // Black to move: 400 ms left for Black (an hour for White). The plan never takes more than half of it; allow a
    // generous overhead for a loaded machine.
    let ms = Duration::from_millis;
    let tc = TimeControl::Clock { time: [ms(3_600_000), ms(400)], inc: [ms(0); 2], moves_to_go: None };
    for name in SEARCHERS {
        let mut x = searcher(name);
        x.set_limits(Limits { time: Some(tc), ..Limits::default() });
        let t = Instant::now();
        let r = x.search(&g, &s);
        let took = t.elapsed();
        assert!(r.best_move.is_some(), "{name}");
        assert!(took < ms(200 + 1000), "{name} took {took:?} on a 400 ms clock");
    }
}
