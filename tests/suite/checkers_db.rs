//! The checkers endgame databases (`plateau solve checkers --method retro`): the positions per piece count against
//! Schaeffer's table, published endgame results (Lasker), every value of the small tables against a plain search of
//! the game's own rules to the end, the files (resume, damage) and the command line.

use std::sync::OnceLock;

use plateau::game::{Game, MoveList};
use plateau::games::checkers::db::{PieceReport, Tables, Value, entry_state};
use plateau::games::checkers::rank::{Sig, signatures};
use plateau::games::checkers::{Checkers, CheckersState};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::common::{BIN, json, one_line_error, plateau, refused, tmpdir};

/// Positions with 1, 2, ... pieces, as Schaeffer et al. count them (the table of "Checkers Is Solved", Science 317,
/// 2007, and of Schaeffer and Lake, "Solving the game of checkers", Games of No Chance, 1996; OEIS A055213): every
/// placement of that many men and kings, without the side to move ("n=1: a red piece can go on any of 28 squares [...]
/// and a red king can be on any of 32 squares. Double that to include black, total of 120").
const SCHAEFFER: [u64; 6] = [120, 6_972, 261_224, 7_092_774, 148_688_232, 2_503_611_964];

/// The tables of up to 4 pieces, built once for the module (in memory).
fn tables() -> &'static (Tables, Vec<PieceReport>) {
    static T: OnceLock<(Tables, Vec<PieceReport>)> = OnceLock::new();
    T.get_or_init(|| Tables::build(4, None, false, None).expect("the build"))
}

fn pos(g: &Checkers, text: &str) -> CheckersState {
    g.parse_position(text).expect("a position")
}

#[test]
fn positions_per_piece_count_are_schaeffers() {
    let (_, reports) = tables();
    for r in reports {
        assert_eq!(r.positions, SCHAEFFER[r.pieces - 1], "{} pieces", r.pieces);
        assert_eq!(r.wins + r.draws + r.losses, r.positions);
    }
    assert_eq!(reports.len(), 4);
    // The index's count of the larger tables (not built here) agrees too.
    for n in 1..=6 {
        let total: u64 = signatures(n).into_iter().map(Sig::positions).sum();
        assert_eq!(total, SCHAEFFER[n - 1], "{n} pieces");
    }
}

/// Edward Lasker, "Chess and Checkers: the Way to Mastership" (1918), part II, "Elementary tactics", diagram 88:
/// White's king on 32 and Black's on 26; "White wins by playing 32-27 [...] If it had been Black's move in the
/// position of the diagram, he would have gained the opposition by 26-31 and White would have [...] to draw".
/// (The page names 32-27 as White's win; it says nothing of Black's other moves, so only 26-31 is checked.)
/// Diagram 89: White's kings on 19 and 23 against Black's on 32 in the double corner, White to play wins ("with one
/// King entrenched in the double corner it takes two Kings to force the win").
#[test]
fn lasker_king_endings() {
    let g = Checkers::default();
    let (t, _) = tables();
    let white = pos(&g, "W:WK32:BK26");
    assert!(matches!(t.probe(&white), Some(Value::Win(_))), "{:?}", t.probe(&white));
    let best: Vec<String> =
        Tables::best(&t.move_values(&g, &white)).iter().map(|&m| g.format_move(&white, m)).collect();
    assert_eq!(best, ["32-27"]);
    assert_eq!(t.probe(&pos(&g, "B:WK32:BK26")), Some(Value::Draw));
    let black_moves = t.move_values(&g, &pos(&g, "B:WK32:BK26"));
    let draws: Vec<String> = black_moves
        .iter()
        .filter(|(_, v)| *v == Value::Draw)
        .map(|&(m, _)| g.format_move(&pos(&g, "B:WK32:BK26"), m))
        .collect();
    assert!(draws.contains(&"26-31".to_string()), "the opposition draws: {draws:?}");
    // Diagram 89, Lasker's line: 19-24 32-28 23-19 28-32 24-28 32-27 28-32 27-31 19-15 31-26 15-18 26-31 18-22,
    // then Black's king moves and is taken: 15 plies, and 19-24 is the fastest win.
    let d89 = pos(&g, "W:WK19,K23:BK32");
    assert_eq!(t.probe(&d89), Some(Value::Win(15)));
    let best: Vec<String> = Tables::best(&t.move_values(&g, &d89)).iter().map(|&m| g.format_move(&d89, m)).collect();
    assert_eq!(best, ["19-24"]);
}

/// Two kings against one: a win for the two kings (Lasker, above: two kings force the win even against the double
/// corner) from every position where the lone king cannot capture at once, but for a few exceptions the tables find
/// (under 1%), all draws where the lone king keeps both kings shut in a single corner: `B:WK11:BK3,K4` (3-7 is
/// taken, 4-8 is exchanged, and after 3-8 the lone king shuttles 11-7, 7-11), `B:WK4,K8:BK2` (the lone king to
/// move). Checked on both signatures (either side to move).
#[test]
fn two_kings_beat_one_unless_it_captures_at_once() {
    let g = Checkers::default();
    let (t, _) = tables();
    let can_capture = |s: &CheckersState| {
        let mut m = MoveList::new();
        g.generate_moves(s, &mut m);
        m.iter().any(|m| m.captured != 0)
    };
    let (mut won, mut capture, mut cornered) = (0, 0, 0);
    for sig in [Sig::new(0, 2, 0, 1), Sig::new(0, 1, 0, 2)] {
        for i in 0..sig.size() {
            let s = entry_state(&g, sig, i).expect("kings only: no holes");
            let v = t.probe(&s).expect("in the tables");
            let lone_to_move = sig.own_kings == 1;
            if lone_to_move && can_capture(&s) {
                capture += 1;
                continue;
            }
            let expected = if lone_to_move { "loss" } else { "win" };
            if v.word() == expected {
                won += 1;
                continue;
            }
            // The exception: a draw (the two kings shut in a single corner).
            assert_eq!(v, Value::Draw, "{}", g.format_position(&s));
            cornered += 1;
        }
    }
    assert_eq!(won + capture + cornered, 2 * 496 * 30);
    assert!(capture > 100 && cornered > 0 && 100 * cornered < won, "{won} {capture} {cornered}");
    assert_eq!(t.probe(&pos(&g, "B:WK11:BK3,K4")), Some(Value::Draw));
    assert_eq!(t.probe(&pos(&g, "B:WK4,K8:BK2")), Some(Value::Draw));
}

/// Whether the side to move can force the end of the game within `d` plies (a win: its opponent without a move),
/// by the game's own rules: a plain AND-OR search, independent of the tables' code.
fn wins_within(g: &Checkers, s: &CheckersState, d: u32) -> bool {
    if d == 0 {
        return false;
    }
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    moves.iter().any(|&m| {
        let mut c = *s;
        g.play(&mut c, m);
        loses_within(g, &c, d - 1)
    })
}

/// Whether the opponent of the side to move can force a win within `d` plies.
fn loses_within(g: &Checkers, s: &CheckersState, d: u32) -> bool {
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    if moves.is_empty() {
        return true;
    }
    d > 0
        && moves.iter().all(|&m| {
            let mut c = *s;
            g.play(&mut c, m);
            wins_within(g, &c, d - 1)
        })
}

/// The tables' value of a position equals the plain search's: a win in `d` plies is one within `d` and not within
/// `d - 2`, a loss likewise, a draw neither within a few plies. Every position of 1 and 2 pieces, and random ones of
/// 3 pieces at short distances (the search is exponential).
#[test]
fn values_equal_a_plain_search_to_the_end() {
    let g = Checkers::default();
    let (t, _) = tables();
    let check = |s: &CheckersState, v: Value, draw_depth: u32| match v {
        Value::Win(d) => {
            assert!(wins_within(&g, s, d) && (d < 2 || !wins_within(&g, s, d - 2)), "{} {v:?}", g.format_position(s))
        }
        Value::Loss(d) => {
            assert!(loses_within(&g, s, d) && (d < 2 || !loses_within(&g, s, d - 2)), "{} {v:?}", g.format_position(s))
        }
        Value::Draw => assert!(
            !wins_within(&g, s, draw_depth) && !loses_within(&g, s, draw_depth),
            "{} {v:?}",
            g.format_position(s)
        ),
    };
    let mut checked = 0;
    for n in 1..=2 {
        for sig in signatures(n) {
            for i in 0..sig.size() {
                if let Some(s) = entry_state(&g, sig, i) {
                    check(&s, t.probe(&s).expect("held"), 6);
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 120 + 6972);
    let mut rng = SmallRng::seed_from_u64(7);
    let sigs = signatures(3);
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    while wins + losses + draws < 600 {
        let sig = sigs[rng.random_range(0..sigs.len())];
        let Some(s) = entry_state(&g, sig, rng.random_range(0..sig.size())) else { continue };
        let v = t.probe(&s).expect("held");
        match v {
            Value::Win(d) if d <= 9 && wins < 250 => wins += 1,
            Value::Loss(d) if d <= 8 && losses < 250 => losses += 1,
            Value::Draw if draws < 100 => draws += 1,
            _ => continue,
        }
        check(&s, v, 5);
    }
}

/// The probe turns a White-to-move position into the Black-to-move table: the same position turned half a turn with
/// the colours swapped has the same value.
#[test]
fn colour_symmetry() {
    let g = Checkers::default();
    let (t, _) = tables();
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..2000 {
        let sigs = signatures(rng.random_range(1..=4));
        let sig = sigs[rng.random_range(0..sigs.len())];
        let Some(s) = entry_state(&g, sig, rng.random_range(0..sig.size())) else { continue };
        let mut w = s;
        (w.black, w.white, w.kings) = (s.white.reverse_bits(), s.black.reverse_bits(), s.kings.reverse_bits());
        w.stm = s.stm.other();
        w.key = 0;
        assert_eq!(t.probe(&s), t.probe(&w), "{} / {}", g.format_position(&s), g.format_position(&w));
    }
}

#[test]
fn files_resume_and_match_memory() {
    let dir = tmpdir("files");
    let (mem, _) = tables();
    let (t, first) = Tables::build(3, Some(&dir), false, None).expect("build");
    assert!(first.iter().all(|r| r.built));
    // Read back: nothing built, the same values.
    let (again, second) = Tables::build(3, Some(&dir), false, None).expect("read");
    assert!(second.iter().all(|r| !r.built));
    let g = Checkers::default();
    let mut rng = SmallRng::seed_from_u64(5);
    for _ in 0..3000 {
        let sigs = signatures(rng.random_range(1..=3));
        let sig = sigs[rng.random_range(0..sigs.len())];
        let Some(s) = entry_state(&g, sig, rng.random_range(0..sig.size())) else { continue };
        assert_eq!(t.probe(&s), mem.probe(&s));
        assert_eq!(again.probe(&s), mem.probe(&s));
    }
    // A missing table (an interrupted build) is built again, and only its piece count.
    std::fs::remove_file(dir.join("checkers-0-2-0-1.db")).expect("remove");
    let (_, third) = Tables::build(3, Some(&dir), false, None).expect("resume");
    assert_eq!(third.iter().map(|r| r.built).collect::<Vec<_>>(), [false, false, true]);
    assert_eq!(third[2].positions, SCHAEFFER[2]);
    // A damaged or truncated table is a one-line error naming the file.
    let file = dir.join("checkers-0-1-0-1.db");
    let mut bytes = std::fs::read(&file).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&file, &bytes).expect("write");
    let e = Tables::build(2, Some(&dir), false, None).err().expect("refused");
    assert!(e.contains("checksum") && e.contains("checkers-0-1-0-1.db") && !e.contains('\n'), "{e}");
    std::fs::write(&file, &bytes[..100]).expect("write");
    let e = Tables::build(2, Some(&dir), false, None).err().expect("refused");
    assert!(e.contains("truncated") && e.contains("checkers-0-1-0-1.db"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn command_line_builds_reads_and_refuses() {
    let dir = tmpdir("cli");
    let d = dir.to_str().expect("utf-8");
    let args = ["solve", "checkers", "--method", "retro", "--db", d, "--db-pieces", "2", "--json"];
    let built = json(&plateau(&[&args[..], &["--position", "W:WK32:BK26"]].concat()));
    let pieces: Vec<u64> =
        built["pieces"].as_array().expect("pieces").iter().map(|p| p["positions"].as_u64().expect("n")).collect();
    assert_eq!(pieces, [120, 6972]);
    assert_eq!(built["result"], "win");
    assert_eq!(built["best_moves"], serde_json::json!(["32-27"]));
    // Read with --db alone: up to the pieces complete in DIR.
    let read = json(&plateau(&["solve", "checkers", "--db", d, "--position", "B:WK32:BK26", "--json"]));
    assert_eq!(read["db_pieces"], 2);
    assert_eq!(read["result"], "draw");
    assert_eq!(read["built_positions"], 0);
    let text = plateau(&["solve", "checkers", "--db", d, "--position", "W:WK32:BK26"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("value      win in"), "{text:?}");
    // Bad input: one line each.
    let e = one_line_error(&plateau(&["solve", "checkers", "--method", "retro", "--db-pieces", "9"]));
    assert!(e.contains("at most 6"), "{e}");
    let e = one_line_error(&plateau(&["solve", "checkers", "--method", "retro"]));
    assert!(e.contains("24 pieces"), "{e}");
    let e = one_line_error(&plateau(&["solve", "checkers", "--db", d, "--db-pieces", "4"]));
    assert!(e.contains("not all there"), "{e}");
    refused(&["solve", "oware", "--method", "retro", "--db-pieces", "2"], "--db-pieces");
    // The engine probes the tables in $PLATEAU_CHECKERS_DB: at depth 1 it sees the win of Lasker's 32-27 (the
    // tables' value of the child), which its own search at that depth cannot prove.
    let search = |db: Option<&str>| {
        let mut c = std::process::Command::new(BIN);
        c.args(["search", "checkers", "--position", "W:WK32:BK26", "--algo", "engine(depth=1)", "--json"]);
        c.env_remove("PLATEAU_CHECKERS_DB");
        if let Some(d) = db {
            c.env("PLATEAU_CHECKERS_DB", d);
        }
        json(&c.output().expect("runs"))
    };
    let with = search(Some(d));
    assert_eq!(with["best_move"], "32-27", "{with}");
    assert_eq!(with["proven"], true, "{with}");
    let without = search(None);
    assert_eq!(without["proven"], false, "{without}");
    let _ = std::fs::remove_dir_all(&dir);
}
