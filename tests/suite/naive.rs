//! The naive baselines (`naive`): on dark Breakthrough the search of the board last seen (`Capabilities::last_seen`), on
//! simultaneous Breakthrough the engine on the alternating view (`game/alternated.rs`, `engine/simultaneous.rs`).
//! - `last_seen` shows the player exactly its observation, keeps the enemy pieces it was not told about where they
//!   were, and puts one where the referee reveals one;
//! - the alternating view's value at one turn is the pure maximin, checked against a brute force over the pairs;
//! - under the referee both play legal moves only (a game ends normally) and replay identically with the same seeds.

use plateau::arena::openings::Opening;
use plateau::arena::play_game;
use plateau::arena::player;
use plateau::game::alternated::Alternated;
use plateau::game::{Capabilities, Knowledge};
use plateau::game::{Evaluator, FullGame, Game, MoveList, Side, outcome_score};
use plateau::games::AnyGame;
use plateau::games::breakthrough::BtMove;
use plateau::games::breakthrough::imperfect::{DarkBreakthrough, DarkState, News};
use plateau::games::breakthrough::simultaneous::SimBreakthrough;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

fn dark(text: &str) -> DarkBreakthrough {
    match AnyGame::parse(text) {
        Ok(AnyGame::DarkBreakthrough(g)) => g,
        other => panic!("{text}: {other:?}"),
    }
}

fn sim(text: &str) -> SimBreakthrough {
    match AnyGame::parse(text) {
        Ok(AnyGame::BreakthroughSimultaneous(g)) => g,
        other => panic!("{text}: {other:?}"),
    }
}

/// Follow random games of dark Breakthrough with both players' last-seen guesses, checking them at every step.
#[test]
fn the_last_seen_board_shows_the_observation_and_keeps_unseen_enemy_pieces_still() {
    let g = dark("breakthrough(information=imperfect,rows=6,columns=5)");
    for seed in 0..40u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut s = g.start();
        let mut guess: Vec<DarkState> = [Side::First, Side::Second]
            .iter()
            .map(|&p| g.last_seen(&s, p, &g.observation(&s, p)).expect("the start reads back"))
            .collect();
        assert_eq!(guess[0].board, s.board, "at the start the guess is the start");
        let mut told = [g.observation(&s, Side::First), g.observation(&s, Side::Second)];
        let mut moves = MoveList::new();
        while !g.is_terminal(&s) {
            g.generate_moves(&s, &mut moves);
            g.play(&mut s, moves[rng.random_range(0..moves.len())]);
            if g.is_terminal(&s) {
                break;
            }
            for p in [Side::First, Side::Second] {
                let text = g.observation(&s, p);
                if text == told[p.index()] {
                    continue;
                }
                let before = guess[p.index()];
                let next = g.last_seen(&before, p, &text).unwrap_or_else(|| panic!("seed {seed}: not read: {text}"));
                let own = DarkBreakthrough::pieces(&s, p);
                assert_eq!(DarkBreakthrough::pieces(&next, p), own, "seed {seed}: own pieces as told");
                if !g.is_terminal(&next) {
                    assert_eq!(g.observation(&next, p), text, "seed {seed}: the guess shows what was told");
                }
                let (was, now) =
                    (DarkBreakthrough::pieces(&before, p.other()), DarkBreakthrough::pieces(&next, p.other()));
                let mut revealed = if g.side_to_move(&s) == p { s.found } else { 0 };
                if let News::OpponentMoved(Some(sq)) = s.said[p.index()] {
                    revealed |= 1 << sq;
                }
                assert_eq!(now & revealed, revealed, "seed {seed}: a revealed enemy piece is in the guess");
                // Unrevealed enemy pieces stand still: the guess only loses pieces under its own pieces and moves
                // at most one piece per revealed square.
                let moved = (was & !now & !own).count_ones();
                assert!(
                    moved <= (revealed & !was).count_ones(),
                    "seed {seed}: {moved} guessed pieces moved unrevealed"
                );
                if revealed == 0 {
                    assert_eq!(now, was & !own, "seed {seed}: nothing revealed, nothing moved");
                }
                guess[p.index()] = next;
                told[p.index()] = text;
            }
        }
    }
}

#[test]
fn last_seen_moves_the_piece_behind_a_capture_onto_its_square() {
    let g = dark("breakthrough(information=imperfect,rows=6,columns=5)");
    // White's guess has a Black piece on d3; then Black captures on c2 (from d3, as it happens).
    let guess = g.parse_position("ppppp/ppp1p/5/3p1/PPPPP/PPPPP w - * +d4d3").expect("guess");
    let truth = g.parse_position("ppppp/ppp1p/5/5/PPpPP/PPPPP w - *c2 +d3c2").expect("truth");
    let next = g.last_seen(&guess, Side::First, &g.observation(&truth, Side::First)).expect("read back");
    let black = DarkBreakthrough::pieces(&next, Side::Second);
    let sq = |name: &str| {
        let b = name.as_bytes();
        1u64 << ((b[1] - b'1') as u32 * 5 + (b[0] - b'a') as u32)
    };
    assert!(black & sq("c2") != 0 && black & sq("d3") == 0, "{}", g.format_position(&next));
    assert_eq!(black.count_ones(), 10, "{}", g.format_position(&next));
    assert_eq!(DarkBreakthrough::pieces(&next, Side::First), DarkBreakthrough::pieces(&truth, Side::First));
    // Without a guessed piece behind c2, one is added.
    let start = g.start();
    let next = g.last_seen(&start, Side::First, &g.observation(&truth, Side::First)).expect("read back");
    assert_eq!(DarkBreakthrough::pieces(&next, Side::Second).count_ones(), 11, "{}", g.format_position(&next));
}

/// The pure maximin of one turn of the simultaneous game for `me`, by brute force over the pairs, scoring each
/// resulting board with `eval` (for `me`).
fn maximin(
    g: &SimBreakthrough,
    s: &<SimBreakthrough as Game>::State,
    me: Side,
    eval: &impl Evaluator<SimBreakthrough>,
) -> (i32, Vec<BtMove>) {
    let (mut mine, mut theirs) = (MoveList::new(), MoveList::new());
    g.player_moves(s, me, &mut mine);
    g.player_moves(s, me.other(), &mut theirs);
    let score = |c: &<SimBreakthrough as Game>::State| match g.outcome_for(c, me) {
        Some(o) => outcome_score(o, 2),
        None => {
            let v = eval.evaluate(g, c);
            if me == Side::First { v } else { -v }
        }
    };
    let mut best = (i32::MIN, Vec::new());
    for &a in &mine {
        let worst = theirs
            .iter()
            .map(|&b| {
                let mut c = *s;
                let (w, bl) = if me == Side::First { (a, b) } else { (b, a) };
                g.play_joint(&mut c, w, bl);
                score(&c)
            })
            .min()
            .expect("a reply");
        if worst > best.0 {
            best = (worst, vec![a]);
        } else if worst == best.0 {
            best.1.push(a);
        }
    }
    best
}

#[test]
fn the_alternating_view_at_one_turn_is_the_pure_maximin() {
    let g = sim("breakthrough(rows=5,columns=4,moves=simultaneous)");
    let eval = g.evaluation("simple").expect("simple");
    let mut rng = SmallRng::seed_from_u64(7);
    let mut checked = 0;
    for _ in 0..30 {
        let mut s = g.start();
        // A random position a few turns in.
        for _ in 0..rng.random_range(0..6) {
            let (mut a, mut b) = (MoveList::new(), MoveList::new());
            g.player_moves(&s, Side::First, &mut a);
            g.player_moves(&s, Side::Second, &mut b);
            if g.is_terminal(&s) {
                break;
            }
            g.play_joint(&mut s, a[rng.random_range(0..a.len())], b[rng.random_range(0..b.len())]);
        }
        if g.is_terminal(&s) {
            continue;
        }
        for me in [Side::First, Side::Second] {
            let (value, halves) = maximin(&g, &s, me, &eval);
            let mut naive = plateau::players::searcher::<SimBreakthrough>("naive(depth=2,eval=simple)").expect("naive");
            let r = naive.search_as(&g, &s, me);
            let m = r.best_move.expect("a move");
            assert!(halves.contains(&m), "{}: {me:?} chose {m:?}, maximin halves {halves:?}", g.format_position(&s));
            // The view's value agrees unless a side reached the far row (the engine scores wins by its own ply).
            if value.abs() < 10_000 {
                assert_eq!(r.value, value, "{}", g.format_position(&s));
            }
            let view = Alternated::new(g.clone(), me);
            assert_eq!(view.side_to_move(&view.root(&s)), me);
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked}");
}

/// Play `games` games of `a` against `b` on `g`; every game must end normally (an illegal move or a failure would
/// say so in the termination). Returns the records' moves and winners.
fn records<G: FullGame>(g: &G, a: &str, b: &str, games: usize) -> Vec<(Vec<String>, Option<Side>)> {
    let mut pa = player::build::<G>(a).expect("player a");
    let mut pb = player::build::<G>(b).expect("player b");
    let mut out = Vec::new();
    for i in 0..games {
        let opening = Opening { start: g.start(), fen: None, moves: Vec::new(), move_text: Vec::new() };
        let a_first = i % 2 == 0;
        let seats: [&mut dyn plateau::players::Player<G>; 2] =
            if a_first { [pa.as_mut(), pb.as_mut()] } else { [pb.as_mut(), pa.as_mut()] };
        let rec = play_game(
            g,
            &opening,
            seats,
            None,
            std::time::Duration::from_secs(30),
            false,
            1000,
            i,
            a_first,
            1,
            &mut |_| {},
        );
        assert_eq!(rec.termination, "normal", "{a} vs {b}: {:?}", rec.moves);
        out.push((rec.moves, rec.winner));
    }
    out
}

#[test]
fn both_naive_players_play_legal_moves_and_replay_with_their_seeds() {
    let g = dark("breakthrough(information=imperfect,rows=6,columns=5)");
    let one = records(&g, "naive(depth=2)", "random(seed=5)", 4);
    assert_eq!(one, records(&g, "naive(depth=2)", "random(seed=5)", 4), "dark: the same games again");
    let g = sim("breakthrough(rows=5,columns=5,moves=simultaneous)");
    let one = records(&g, "naive(depth=2)", "random(seed=6)", 4);
    assert_eq!(one, records(&g, "naive(depth=2)", "random(seed=6)", 4), "simultaneous: the same games again");
    let wins = one
        .iter()
        .enumerate()
        .filter(|(i, (_, w))| *w == Some(if i % 2 == 0 { Side::First } else { Side::Second }))
        .count();
    assert!(wins >= 3, "the simultaneous naive won {wins} of 4 against random");
}

#[test]
fn naive_refuses_games_it_cannot_play_in_one_line() {
    let e = plateau::players::searcher::<plateau::games::TicTacToe>("naive").err().expect("refused").to_string();
    assert!(e.contains("simultaneous moves") && !e.contains('\n'), "{e}");
    assert!(
        plateau::players::searcher::<SimBreakthrough>("naive(seed=3)").is_err(),
        "no seed: the engine is deterministic"
    );
}
