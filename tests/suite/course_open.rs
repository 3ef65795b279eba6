//! The course's two last items (docs/course.md): the longest shortest path over grid layouts, checked against a brute
//! force over every layout; an exact Breakthrough opening book built from the solver, checked move by move against
//! df-pn and used by the engine.

use std::collections::VecDeque;

use crate::common::{json, plateau};
use plateau::game::Game;
use plateau::games::breakthrough::Breakthrough;
use plateau::puzzle::grid::Grid;
use plateau::puzzle::longest::longest;
use plateau::puzzle::{self, Algorithm, Outcome};
use plateau::solve::dfpn::Dfpn;

/// Every layout of free squares of an n x n grid, every start: the largest BFS distance to a reachable square.
fn brute_force(n: usize) -> u32 {
    let cells = n * n;
    let mut best = 0;
    for free in 0u32..(1 << cells) {
        for s in (0..cells).filter(|&s| free >> s & 1 == 1) {
            let mut dist = vec![u32::MAX; cells];
            dist[s] = 0;
            let mut queue = VecDeque::from([s]);
            while let Some(c) = queue.pop_front() {
                let (r, col) = (c / n, c % n);
                let mut next = Vec::new();
                if r > 0 {
                    next.push(c - n);
                }
                if r + 1 < n {
                    next.push(c + n);
                }
                if col > 0 {
                    next.push(c - 1);
                }
                if col + 1 < n {
                    next.push(c + 1);
                }
                for d in next {
                    if free >> d & 1 == 1 && dist[d] == u32::MAX {
                        dist[d] = dist[c] + 1;
                        best = best.max(dist[d]);
                        queue.push_back(d);
                    }
                }
            }
        }
    }
    best
}

#[test]
fn longest_shortest_path_agrees_with_every_layout() {
    for n in 1..=4u32 {
        let l = longest(n).unwrap();
        assert_eq!(l.length, brute_force(n as usize), "{n}x{n}");
        // The layout found is a maze whose shortest path (BFS) is that long.
        if n > 1 {
            let grid = Grid::parse(&l.layout()).unwrap();
            match puzzle::solve(&grid, Algorithm::Bfs, Default::default()).outcome {
                Outcome::Found { path, .. } => assert_eq!(path.len() as u32, l.length, "{n}x{n}"),
                other => panic!("{n}x{n}: {other:?}"),
            }
        }
    }
    assert!(longest(9).is_err() && longest(0).is_err());
}

#[test]
fn longest_from_the_command_line() {
    let v = json(&plateau(&["puzzle", "grid", "--longest", "4", "--json"]));
    assert_eq!(v["length"].as_u64().unwrap() as u32, brute_force(4));
    assert_eq!(v["solution"].as_str().unwrap().len() as u64, v["length"].as_u64().unwrap());
    let layout = v["layout"].as_str().unwrap();
    assert_eq!(layout.lines().count(), 4);
    let out = plateau(&["puzzle", "grid", "--longest", "12"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// An exact book of the 5x4 board with one row of pieces: at every position of the book, the kept moves are the
/// moves df-pn proves winning (or every move when the position is lost), and the engine plays them.
#[test]
fn exact_breakthrough_book_moves_are_solver_optimal() {
    let spec = "breakthrough(rows=5,columns=4,piece_rows=1)";
    let dir = std::env::temp_dir().join(format!("plateau-bt-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bt.book");
    let f = file.to_str().unwrap();
    let args = ["book", "build", spec, "--exact", "--out", f, "--depth", "3", "--margin", "0", "--max-moves", "99"];
    let v = json(&plateau(&[&args[..], &["--tt", "16mb", "--json"]].concat()));
    assert!(v["positions"].as_u64().unwrap() > 6);
    let g: Breakthrough = plateau::spec::Spec::parse(spec).and_then(|s| Breakthrough::from_spec(&s)).unwrap();
    let book = plateau::book::Book::load(&file).unwrap();
    // Positions of the book up to 2 plies: the start and every position after one or two kept moves.
    let mut positions = vec![g.start()];
    let mut frontier = vec![g.start()];
    for _ in 0..2 {
        let mut next = Vec::new();
        for s in &frontier {
            for (m, _) in book.moves(&g, s) {
                let mut c = *s;
                g.play(&mut c, m);
                if !g.is_terminal(&c) {
                    next.push(c);
                }
            }
        }
        positions.extend(next.iter().cloned());
        frontier = next;
    }
    assert!(positions.len() > 3);
    let mut dfpn = Dfpn::<Breakthrough>::new(16, None);
    for s in &positions {
        let kept = book.moves(&g, s);
        assert!(!kept.is_empty(), "{}", g.format_position(s));
        assert!(kept.iter().all(|(_, e)| e.exact()));
        let wins = dfpn.solve(&g, s).outcome == Some(plateau::game::Outcome::Win);
        for (m, e) in &kept {
            let mut child = *s;
            g.play(&mut child, *m);
            let child_lost =
                g.is_terminal(&child) || dfpn.solve(&g, &child).outcome == Some(plateau::game::Outcome::Loss);
            assert_eq!(child_lost, wins, "{} {}", g.format_position(s), g.format_move(s, *m));
            assert_eq!(e.score > 0, wins);
        }
    }
    // The engine plays a book move at the start without searching.
    let algo = format!("engine(book={f},book_seed=3)");
    let v = json(&plateau(&["search", spec, "--algo", &algo, "--json"]));
    assert_eq!(v["nodes"], 1);
    let best = v["best_move"].as_str().unwrap();
    let start = g.start();
    assert!(book.moves(&g, &start).iter().any(|(m, _)| g.format_move(&start, *m) == best));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The committed exact book of 6x5 with one row of pieces (`books/breakthrough-6x5-1row-exact.book`, docs/course.md
/// 8c): all 13 first moves, each a win in 25 plies (the solved value of that board, docs/solving-breakthrough.md), and
/// every reply to each of them; each first move's value is its best reply's one ply further, so the two plies of
/// proofs and distances, solved one by one, agree with each other.
#[test]
fn committed_6x5_exact_book_is_consistent() {
    use plateau::book::build::parent_score;
    use plateau::game::{MoveList, WIN_SCORE};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/books/breakthrough-6x5-1row-exact.book");
    let book = plateau::book::Book::load(std::path::Path::new(path)).unwrap();
    let spec = "breakthrough(rows=6,columns=5,piece_rows=1)";
    let g: Breakthrough = plateau::spec::Spec::parse(spec).and_then(|s| Breakthrough::from_spec(&s)).unwrap();
    assert_eq!(book.game, g.spec());
    assert!(book.entries().iter().all(|e| e.exact()));
    let start = g.start();
    let first = book.moves(&g, &start);
    assert_eq!(first.len(), 13);
    for (m, e) in &first {
        assert_eq!(e.score, WIN_SCORE - 25, "{}", g.format_move(&start, *m));
        let mut child = start;
        g.play(&mut child, *m);
        let replies = book.moves(&g, &child);
        let mut legal = MoveList::new();
        g.generate_moves(&child, &mut legal);
        assert_eq!(replies.len(), legal.len());
        let best = replies.iter().map(|(_, r)| r.score).max().unwrap();
        assert_eq!(parent_score(best), e.score, "after {}", g.format_move(&start, *m));
        assert!(replies.iter().all(|(_, r)| r.score < 0), "every reply loses");
    }
}
