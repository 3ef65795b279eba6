//! Backgammon text: moves, rolls, positions and the board drawing (the formats are in `docs/backgammon.md`).
//!
//! A move is written as the journeys of its checkers in the mover's own numbering (24 -> 1, `bar`, `off`): `24/18
//! 13/11`, a checker using both dice `24/13` (with the intermediate point only when it hits there: `24/18*/13`), hits
//! marked `*` (optional on input), identical journeys grouped `13/11(2)`, the highest first. The text of a move
//! depends only on the position it reaches, so the generated moves (one per distinct position) have distinct texts,
//! and any order or split of the same journeys on input (`24/18 18/13`, `13/11 13/11`) finds the same move.

use arrayvec::ArrayVec;

use super::board::{self, BAR, CHECKERS, Checkers, Pair, count, made, nibbles, one, pips};
use super::movegen::{self, BgMove, CHANCE, PASS, steps};
use super::{Backgammon, BgState, phase};
use crate::game::{BoardView, Cell, Game, GameError, Layout, MoveList, Tray, err};

/// A checker's path in one move: from, to (0 = off), the points it lands on in between, the points where it hits.
#[derive(Clone, Debug, Default, PartialEq)]
struct Journey {
    from: usize,
    to: usize,
    via: ArrayVec<usize, 4>,
    hits: ArrayVec<usize, 4>,
}

/// Merge a journey ending where another starts (the same checker, or an equivalent one: same position).
fn merge(mut js: Vec<Journey>) -> Vec<Journey> {
    'again: loop {
        for i in 0..js.len() {
            for j in 0..js.len() {
                if i != j && js[i].to != 0 && js[i].to == js[j].from {
                    let b = js.remove(j);
                    let a = &mut js[if j < i { i - 1 } else { i }];
                    a.via.push(a.to);
                    a.via.extend(b.via);
                    a.hits.extend(b.hits);
                    a.to = b.to;
                    continue 'again;
                }
            }
        }
        return js;
    }
}

/// The journeys of a player's move from `pair`.
fn journeys(pair: Pair, m: BgMove) -> Vec<Journey> {
    let mut p = pair;
    let mut js = Vec::new();
    for (from, die) in steps(m) {
        let to = from.saturating_sub(die);
        let hit = board::apply_step(&mut p, from, to);
        let mut j = Journey { from, to, ..Journey::default() };
        if hit {
            j.hits.push(to);
        }
        js.push(j);
    }
    merge(js)
}

fn point_name(p: usize) -> String {
    match p {
        BAR => "bar".into(),
        0 => "off".into(),
        _ => p.to_string(),
    }
}

fn journey_text(j: &Journey) -> String {
    let mut t = point_name(j.from);
    for &v in &j.via {
        if j.hits.contains(&v) {
            t += &format!("/{v}*");
        }
    }
    t += &format!("/{}", point_name(j.to));
    if j.to != 0 && j.hits.contains(&j.to) {
        t.push('*');
    }
    t
}

/// The canonical text of a player's move.
fn move_text(pair: Pair, m: BgMove) -> String {
    if m == PASS {
        return "pass".into();
    }
    let mut js = journeys(pair, m);
    js.sort_by_key(|j| std::cmp::Reverse((j.from, j.to)));
    let texts: Vec<String> = js.iter().map(journey_text).collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < texts.len() {
        let n = texts[i..].iter().take_while(|t| **t == texts[i]).count();
        out.push(if n > 1 { format!("{}({n})", texts[i]) } else { texts[i].clone() });
        i += n;
    }
    out.join(" ")
}

fn player_letter(p: u8) -> char {
    if p == 0 { 'x' } else { 'o' }
}

/// A roll's text: `3-1`, the opening's `x:3-1`.
fn roll_text(s: &BgState, m: BgMove) -> String {
    let (hi, lo, starter) = movegen::roll_parts(m);
    if s.phase == phase::OPENING { format!("{}:{hi}-{lo}", player_letter(starter)) } else { format!("{hi}-{lo}") }
}

/// Write a move (or a roll) in the canonical notation.
pub fn format_move(s: &BgState, m: BgMove) -> String {
    if m & CHANCE != 0 { roll_text(s, m) } else { move_text(s.pair(), m) }
}

const MOVE_FORMS: &str = "expected checker moves such as 24/18 13/11, bar/22, 6/off, 8/2* or 13/11(2)";

/// Parse `24/18*/13(2)` into journeys (the count repeats it). A count's hits are the first checker's: in OpenSpiel's
/// `8/3*(2)` the first checker hits on 3 and the second lands on the point the first now holds.
fn parse_token(tok: &str) -> Result<Vec<Journey>, GameError> {
    let bad = || GameError::new(format!("'{tok}': {MOVE_FORMS}"));
    let (body, n) = match tok.strip_suffix(')').and_then(|t| t.rsplit_once('(')) {
        Some((b, n)) => (b, n.parse::<usize>().ok().filter(|n| (1..=4).contains(n)).ok_or_else(bad)?),
        None => (tok, 1),
    };
    let segs: Vec<&str> = body.split('/').collect();
    if segs.len() < 2 {
        return Err(bad());
    }
    let mut points = Vec::new();
    let mut stars = Vec::new();
    for (i, seg) in segs.iter().enumerate() {
        let (name, star) = match seg.strip_suffix('*') {
            Some(n) => (n, true),
            None => (*seg, false),
        };
        let p = match name {
            "bar" | "b" | "25" if i == 0 => BAR,
            "off" | "o" | "0" if i + 1 == segs.len() && i > 0 => 0,
            _ => name.parse::<usize>().ok().filter(|p| (1..=24).contains(p)).ok_or_else(bad)?,
        };
        if points.last().is_some_and(|&last| p >= last) {
            return err(format!("'{tok}': a checker moves from a higher point to a lower one (24 -> 1 -> off)"));
        }
        if star && (i == 0 || p == 0) {
            return err(format!("'{tok}': a hit '*' marks the point a checker lands on"));
        }
        if star {
            stars.push(p);
        }
        points.push(p);
    }
    let j = Journey {
        from: points[0],
        to: *points.last().unwrap_or(&0),
        via: points[1..points.len() - 1].iter().copied().collect(),
        hits: stars.into_iter().collect(),
    };
    let rest = Journey { hits: Default::default(), ..j.clone() };
    Ok(std::iter::once(j).chain(std::iter::repeat_n(rest, n - 1)).collect())
}

/// Whether the move's journeys `js` can be what the text's journeys `ts` say (same ends, the points named and the hits
/// marked on the way); `via` false ignores the points named on the way (another route to the same position).
fn fits(ts: &[Journey], js: &[Journey], via: bool) -> bool {
    if ts.len() != js.len() {
        return false;
    }
    let one = |t: &Journey, j: &Journey| {
        t.from == j.from
            && t.to == j.to
            && (!via || t.via.iter().all(|v| j.via.contains(v)))
            && t.hits.iter().all(|h| j.hits.contains(h))
    };
    match ts.len() {
        0 => true,
        1 => one(&ts[0], &js[0]),
        _ => (one(&ts[0], &js[0]) && one(&ts[1], &js[1])) || (one(&ts[0], &js[1]) && one(&ts[1], &js[0])),
    }
}

fn dice_text(s: &BgState) -> String {
    if s.phase == phase::HALF { format!("{}-{} ({} more)", s.hi, s.lo, s.left) } else { format!("{}-{}", s.hi, s.lo) }
}

fn legal_list(s: &BgState, moves: &MoveList<BgMove>) -> String {
    let texts: Vec<String> = moves.iter().take(8).map(|&m| move_text(s.pair(), m)).collect();
    let more = if moves.len() > 8 { format!(", ... {} in all", moves.len()) } else { String::new() };
    format!("{}{more}", texts.join(", "))
}

/// Parse a move (or a roll at a chance node) legal in `s`.
pub fn parse_move(g: &Backgammon, s: &BgState, text: &str) -> Result<BgMove, GameError> {
    let t = text.trim().to_ascii_lowercase();
    if g.is_terminal(s) {
        return err("the game is over: no move is legal");
    }
    if s.phase <= phase::ROLL {
        return parse_roll(s, &t);
    }
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    let illegal = |why: &str| {
        GameError::new(format!("'{}' {why} with {} (legal: {})", text.trim(), dice_text(s), legal_list(s, &moves)))
    };
    if t == "pass" {
        return if moves[..] == [PASS] { Ok(PASS) } else { Err(illegal("is not legal: a die can be played")) };
    }
    if t.is_empty() || t.starts_with(|c: char| c.is_ascii_digit()) && !t.contains('/') {
        return if t.is_empty() || parse_roll(s, &t).is_err() {
            err(format!("'{}': {MOVE_FORMS}", text.trim()))
        } else {
            err(format!("'{}': the dice are rolled already ({}); play them", text.trim(), dice_text(s)))
        };
    }
    let mut ts = Vec::new();
    for tok in t.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()) {
        ts.extend(parse_token(tok)?);
    }
    let ts = merge(ts);
    let pick = |via: bool| -> Vec<BgMove> {
        moves.iter().copied().filter(|&m| fits(&ts, &journeys(s.pair(), m), via)).collect()
    };
    let mut candidates = pick(true);
    if candidates.is_empty() {
        candidates = pick(false);
    }
    let marked: Vec<usize> = ts.iter().flat_map(|j| j.hits.iter().copied()).collect();
    let exact: Vec<BgMove> = candidates
        .iter()
        .copied()
        .filter(|&m| {
            let hits: Vec<usize> = journeys(s.pair(), m).iter().flat_map(|j| j.hits.iter().copied()).collect();
            hits.len() == marked.len()
        })
        .collect();
    match (candidates.len(), exact.len()) {
        (0, _) => Err(illegal("is not a legal move")),
        (1, _) => Ok(candidates[0]),
        (_, 1) => Ok(exact[0]),
        _ => {
            let texts: Vec<String> = candidates.iter().map(|&m| move_text(s.pair(), m)).collect();
            err(format!("'{}' is ambiguous: {}", text.trim(), texts.join(" or ")))
        }
    }
}

/// Parse a roll: `3-1`, `31`, `1-3`; at the opening `x:3-1` or `o31` (who starts).
fn parse_roll(s: &BgState, t: &str) -> Result<BgMove, GameError> {
    let (who, dice) = match t.split_once(':') {
        Some((w, d)) => (Some(w), d),
        None if t.starts_with(['x', 'o']) => (Some(&t[..1]), &t[1..]),
        None => (None, t),
    };
    let digits: Vec<char> = dice.chars().filter(|c| *c != '-').collect();
    let shape = dice.chars().all(|c| c.is_ascii_digit() || c == '-') && digits.len() == 2;
    let expected = if s.phase == phase::OPENING {
        "the opening roll such as x:3-1 (x starts with 3-1)"
    } else {
        "a roll such as 3-1"
    };
    if !shape || t.contains('/') {
        return err(format!("'{t}': the dice are rolled here: expected {expected}"));
    }
    let a = digits[0].to_digit(10).unwrap_or(0) as u8;
    let b = digits[1].to_digit(10).unwrap_or(0) as u8;
    if !(1..=6).contains(&a) || !(1..=6).contains(&b) {
        return err(format!("'{t}': impossible dice: each die shows 1 to 6"));
    }
    let (hi, lo) = (a.max(b), a.min(b));
    let starter = match who {
        Some("x") => Some(0),
        Some("o") => Some(1),
        Some(w) => return err(format!("'{t}': '{w}' is not a player (x or o)")),
        None => None,
    };
    if s.phase == phase::OPENING {
        let Some(starter) = starter else {
            return err(format!("'{t}': the opening roll says who starts: x:{hi}-{lo} or o:{hi}-{lo}"));
        };
        if hi == lo {
            return err(format!("'{t}': the opening roll is never a double (each player rolls one die, ties again)"));
        }
        return Ok(movegen::roll(hi, lo, starter));
    }
    if starter.is_some() {
        return err(format!(
            "'{t}': only the opening roll names who starts: {} rolls {hi}-{lo}",
            player_letter(s.mover)
        ));
    }
    Ok(movegen::roll(hi, lo, 0))
}

/// Group move words: a roll alone, the checker moves of one decision together (`24/18 13/11`).
pub fn split_moves(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut in_move = false;
    for w in text.split_whitespace() {
        let checker = w.contains('/');
        match out.last_mut() {
            Some(last) if checker && in_move => {
                last.push(' ');
                last.push_str(w);
            }
            _ => out.push(w.to_string()),
        }
        in_move = checker;
    }
    out
}

/// Play a move list: rolls, and the checker moves of each decision (a double's two halves may follow each other
/// without a separator: each decision takes the longest run of checker moves that is legal).
pub fn play_moves(g: &Backgammon, state: &BgState, text: &str) -> Result<BgState, GameError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut s = *state;
    let (mut i, mut n) = (0, 0);
    while i < words.len() {
        n += 1;
        let at = |k: usize, e: GameError| GameError::new(format!("move {n} '{}': {e}", words[i..k].join(" ")));
        if g.is_terminal(&s) {
            return Err(at(i + 1, GameError::new("the game is already over")));
        }
        let run = if s.phase >= phase::MOVE { words[i..].iter().take_while(|w| w.contains('/')).count() } else { 0 };
        if run == 0 {
            let m = g.parse_move(&s, words[i]).map_err(|e| at(i + 1, e))?;
            g.play(&mut s, m);
            i += 1;
            continue;
        }
        let mut done = None;
        for k in (1..=run).rev() {
            if let Ok(m) = g.parse_move(&s, &words[i..i + k].join(" ")) {
                done = Some((m, k));
                break;
            }
        }
        let Some((m, k)) = done else {
            let e = g.parse_move(&s, &words[i..i + run].join(" ")).err().unwrap_or(GameError::new("illegal"));
            return Err(at(i + run, e));
        };
        g.play(&mut s, m);
        i += k;
    }
    Ok(s)
}

// ---- Positions ----

fn side_text(side: Checkers) -> String {
    let mut parts = Vec::new();
    for p in (1..=BAR).rev() {
        let n = count(side, p);
        if n > 0 {
            parts.push(format!("{}:{n}", point_name(p)));
        }
    }
    if parts.is_empty() { "-".into() } else { parts.join(",") }
}

/// `x=24:2,13:5,8:3,6:5 o=24:2,13:5,8:3,6:5 opening`; the last word: `opening`, `x` (x to roll), `x31` (x to play
/// 3-1), `x44.2` (x to play the last two steps of 4-4).
pub fn format_position(s: &BgState) -> String {
    let who = player_letter(s.mover);
    let turn = match s.phase {
        phase::OPENING => "opening".to_string(),
        phase::ROLL => who.to_string(),
        phase::MOVE => format!("{who}{}{}", s.hi, s.lo),
        _ => format!("{who}{}{}.{}", s.hi, s.lo, s.left),
    };
    format!("x={} o={} {turn}", side_text(s.sides[0]), side_text(s.sides[1]))
}

fn parse_side(word: &str, letter: char) -> Result<Checkers, GameError> {
    let Some(list) = word.strip_prefix(&format!("{letter}=")) else {
        return err(format!("'{word}': expected {letter}= and its checkers, such as {letter}=24:2,13:5,8:3,6:5"));
    };
    let mut side: Checkers = 0;
    if list != "-" {
        for item in list.split(',') {
            let bad = || GameError::new(format!("'{item}' in {letter}=...: expected POINT:COUNT (POINT 1..24 or bar)"));
            let (p, n) = item.split_once(':').ok_or_else(bad)?;
            let p = if p == "bar" {
                BAR
            } else {
                p.parse::<usize>().ok().filter(|p| (1..=24).contains(p)).ok_or_else(bad)?
            };
            let n = n.parse::<u32>().ok().filter(|n| (1..=CHECKERS).contains(n)).ok_or_else(bad)?;
            if count(side, p) != 0 {
                return err(format!("{letter}: point {} is listed twice", point_name(p)));
            }
            side += n as u128 * one(p);
        }
    }
    let on_board: u32 = (1..=BAR).map(|p| count(side, p)).sum();
    if on_board > CHECKERS {
        return err(format!("{letter} has {on_board} checkers: at most {CHECKERS} (the rest are borne off)"));
    }
    Ok(side + (CHECKERS - on_board) as u128 * one(0))
}

/// Parse a position written by [`format_position`].
pub fn parse_position(g: &Backgammon, text: &str) -> Result<BgState, GameError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() != 3 {
        return err(format!(
            "position '{}': expected three words, such as x=24:2,13:5,8:3,6:5 o=24:2,13:5,8:3,6:5 opening",
            text.trim()
        ));
    }
    let (x, o) = (parse_side(words[0], 'x')?, parse_side(words[1], 'o')?);
    for p in 1..=24 {
        if count(x, p) > 0 && count(o, 25 - p) > 0 {
            return err(format!("x's point {p} (o's point {}) holds checkers of both players", 25 - p));
        }
    }
    let t = words[2].to_ascii_lowercase();
    let bad = || {
        GameError::new(format!(
            "'{}': expected opening, x or o (to roll), x31 (x to play 3-1) or x44.2 (the last two steps of 4-4)",
            words[2]
        ))
    };
    let (mover, ph, hi, lo, left) = if t == "opening" {
        (0, phase::OPENING, 0, 0, 0)
    } else {
        let mover = match t.chars().next() {
            Some('x') => 0,
            Some('o') => 1,
            _ => return Err(bad()),
        };
        let rest = &t[1..];
        if rest.is_empty() {
            (mover, phase::ROLL, 0, 0, 0)
        } else {
            let (dice, left) = match rest.split_once('.') {
                Some((d, l)) => (d, Some(l.parse::<u8>().map_err(|_| bad())?)),
                None => (rest, None),
            };
            let d: Vec<u8> = dice.chars().map(|c| c.to_digit(10).unwrap_or(0) as u8).collect();
            if d.len() != 2 {
                return Err(bad());
            }
            if d.iter().any(|v| !(1..=6).contains(v)) {
                return err(format!("'{}': impossible dice: each die shows 1 to 6", words[2]));
            }
            let (hi, lo) = (d[0].max(d[1]), d[0].min(d[1]));
            match left {
                None => (mover, phase::MOVE, hi, lo, 0),
                Some(l) if hi == lo && (1..=2).contains(&l) => (mover, phase::HALF, hi, lo, l),
                Some(_) => {
                    return err(format!("'{}': only a double has a second half, with 1 or 2 dice left", words[2]));
                }
            }
        }
    };
    if count(x, 0) == CHECKERS && count(o, 0) == CHECKERS {
        return err("both players have borne off all their checkers");
    }
    let closed = |side: Checkers| made(side) & nibbles(1, 6) == nibbles(1, 6) & board::LOW_BITS;
    if count(x, BAR) > 0 && count(o, BAR) > 0 && closed(x) && closed(o) {
        return err("both players are on the bar against closed boards: nobody could ever move");
    }
    Ok(g.make_state([x, o], mover, ph, hi, lo, left))
}

// ---- The board drawing ----

/// [`Interop::board_view`](crate::game::Interop::board_view) in X's numbering: points 13..24 on top, 12..1 below, each
/// with its checker count; the bar, the checkers borne off and the dice in the notes.
pub fn view(s: &BgState) -> BoardView {
    let mut v = BoardView::from_fn(Layout::Points, 2, 12, ["ivory", "black"], |row, c| {
        let p = if row == 1 { 13 + c as usize } else { 12 - c as usize };
        let (x, o) = (count(s.sides[0], p), count(s.sides[1], 25 - p));
        let name = String::new();
        match (x, o) {
            (0, 0) => Cell { name, piece: String::new(), owner: None },
            (0, o) => Cell { name, piece: o.to_string(), owner: Some(1) },
            (x, _) => Cell { name, piece: x.to_string(), owner: Some(0) },
        }
    });
    let (sx, so) = (s.sides[0], s.sides[1]);
    let dice = match (s.hi, s.phase) {
        (0, _) => Vec::new(),
        (d, phase::HALF) => vec![d; s.left as usize],
        (d, _) if d == s.lo => vec![d; 4],
        (hi, _) => vec![hi, s.lo],
    };
    v.tray = Some(Tray {
        bar: [count(sx, BAR), count(so, BAR)],
        off: [count(sx, 0), count(so, 0)],
        dice,
        rolled: if s.hi > 0 { vec![s.hi, s.lo] } else { Vec::new() },
        mover: s.mover,
    });
    v.notes.push(format!("bar: X {} O {}; off: X {} O {}", count(sx, BAR), count(so, BAR), count(sx, 0), count(so, 0)));
    v.notes.push(format!("pips: X {} O {}", pips(sx), pips(so)));
    if s.hi > 0 {
        v.notes.push(format!("dice: {}", dice_text(s)));
    }
    v
}

/// The board in X's numbering: the top row points 13..24, the bottom row 12..1; `X5` = five of X's checkers.
pub fn display(g: &Backgammon, s: &BgState) -> String {
    let cell = |p: usize| {
        let (x, o) = (count(s.sides[0], p), count(s.sides[1], 25 - p));
        if x > 0 {
            format!("{:>4}", format!("X{x}"))
        } else if o > 0 {
            format!("{:>4}", format!("O{o}"))
        } else {
            "   .".to_string()
        }
    };
    let row = |points: &[usize], f: &dyn Fn(usize) -> String| {
        let (a, b) = points.split_at(6);
        let half = |ps: &[usize]| ps.iter().map(|&p| f(p)).collect::<String>();
        format!("{}  |{}", half(a), half(b))
    };
    let top: Vec<usize> = (13..=24).collect();
    let bottom: Vec<usize> = (1..=12).rev().collect();
    let number = |p: usize| format!("{p:>4}");
    let (sx, so) = (s.sides[0], s.sides[1]);
    let mut out =
        format!("{}   X moves 24 -> 1; O moves 1 -> 24 and writes its moves in its own numbering (25 - n)\n", g.spec());
    out +=
        &format!("{}\n{}\n{}\n{}\n", row(&top, &number), row(&top, &cell), row(&bottom, &cell), row(&bottom, &number));
    out += &format!(
        "bar: X {} O {}   off: X {} O {}   pips: X {} O {}\n",
        count(sx, BAR),
        count(so, BAR),
        count(sx, 0),
        count(so, 0),
        pips(sx),
        pips(so)
    );
    let who = if s.mover == 0 { "X" } else { "O" };
    out += &match (s.winner(), s.phase) {
        (Some(w), _) => format!("{} wins", if w == 0 { "X" } else { "O" }),
        (_, phase::OPENING) => "the opening roll: the higher die starts and plays both dice".into(),
        (_, phase::ROLL) => format!("{who} to roll"),
        _ => format!("{who} to play {}", dice_text(s)),
    };
    out + &format!("\nposition {}", format_position(s))
}
