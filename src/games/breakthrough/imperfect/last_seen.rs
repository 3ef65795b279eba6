//! The naive baseline's board ([`Capabilities::last_seen`], the player `naive`): the player's own pieces as its observation
//! shows them, the enemy pieces where it last saw them.
//!
//! ```text
//! read the observation: own pieces, found squares (enemy pieces shown), the referee's message, whose turn
//! enemy = the previous guess's enemy pieces
//!     minus the squares that now hold own pieces      a diagonal move onto a guessed piece captured it, or the guess
//!                                                     was wrong and that piece had left: either way it is not there
//!     for each square where an enemy piece is known now (a found square; the square where it just captured):
//!         if the guess has none there, the guessed enemy piece one step behind that square (straight behind
//!         first, then the diagonals) moves onto it; with none there, one enemy piece is added
//! the side to move, the found squares and the message to the player: as told
//! ```
//! An enemy move the player is not told about leaves the guess unchanged: the guess has the pieces where they were
//! last seen (at the start: the start position). The guess is not a reachable state in general (the opponent has
//! moved, the guess does not know which piece), and it may hold more enemy pieces than the opponent has (the player
//! is never told its own captures). The message to the opponent, which the player cannot know, is the previous
//! guess's.

use super::{DarkBreakthrough, DarkState, News, text};
use crate::game::Capabilities;
use crate::game::{Game, Side};

/// What an observation says (not at the end of the game).
struct Told {
    own: u64,
    found: u64,
    news: News,
    to_move: bool,
}

/// Read an observation written by [`text::observation`] for `p`; `None` at the end or for a text it did not write.
fn read(g: &DarkBreakthrough, observation: &str, p: Side) -> Option<Told> {
    let (me, them) = if p == Side::First { ('P', 'p') } else { ('p', 'P') };
    let (mut own, mut found) = (0u64, 0u64);
    let mut news = None;
    let mut to_move = None;
    for line in observation.lines() {
        let t = line.trim_start();
        if t.starts_with(|c: char| c.is_ascii_digit()) {
            let mut words = t.split_whitespace();
            let row: u32 = words.next()?.parse().ok()?;
            for (col, cell) in words.enumerate() {
                let bit = 1u64 << ((row.checked_sub(1)?) * g.bt.columns + col as u32);
                match cell.chars().next()? {
                    c if c == me => own |= bit,
                    c if c == them => found |= bit,
                    _ => {}
                }
            }
        } else if let Some((_, said)) = t.split_once("referee: ") {
            news = Some(read_news(g, said)?);
        } else if t.starts_with("your move (") {
            to_move = Some(true);
        } else if t.ends_with(" to move") {
            to_move = Some(false);
        }
    }
    Some(Told { own, found, news: news?, to_move: to_move? })
}

/// The message of [`text::observation`]'s `referee:` line.
fn read_news(g: &DarkBreakthrough, said: &str) -> Option<News> {
    let word = |i: usize| said.split_whitespace().nth(i);
    let mv = |w: &str| text::read_move(g, w).ok();
    Some(if said == "the game starts" {
        News::Start
    } else if said.starts_with("your move ") && said.contains(" was played") {
        News::Played(mv(word(2)?)?)
    } else if said.starts_with("your move ") && said.contains(" was cancelled") {
        News::Cancelled(mv(word(2)?)?)
    } else if let Some(sq) = said.strip_prefix("the opponent moved and captured your piece on ") {
        News::OpponentMoved(Some(text::read_square(g, sq.trim())?))
    } else if said == "the opponent moved" {
        News::OpponentMoved(None)
    } else if let Some(rest) = said.strip_prefix("a move of the opponent was cancelled (") {
        News::OpponentCancelled(rest.split_whitespace().next()?.parse().ok()?)
    } else {
        return None;
    })
}

/// The squares from which an enemy piece (of `q`) reaches `sq` in one step: straight behind first, then diagonals.
fn behind(g: &DarkBreakthrough, sq: u8, q: Side) -> Vec<u8> {
    let c = g.bt.columns as i32;
    let (row, col) = (sq as i32 / c, sq as i32 % c);
    let from_row = if q == Side::First { row - 1 } else { row + 1 };
    if from_row < 0 || from_row >= g.bt.rows as i32 {
        return Vec::new();
    }
    [col, col - 1, col + 1].into_iter().filter(|&x| (0..c).contains(&x)).map(|x| (from_row * c + x) as u8).collect()
}

/// [`Capabilities::last_seen`] for dark Breakthrough.
pub fn last_seen(g: &DarkBreakthrough, guess: &DarkState, p: Side, observation: &str) -> Option<DarkState> {
    let told = read(g, observation, p)?;
    let q = p.other();
    let mut enemy = DarkBreakthrough::pieces(guess, q) & !told.own;
    let mut known = told.found;
    if let News::OpponentMoved(Some(sq)) = told.news {
        known |= 1u64 << sq;
    }
    let mut b = known & !enemy;
    while b != 0 {
        let sq = b.trailing_zeros() as u8;
        b &= b - 1;
        if let Some(from) = behind(g, sq, q).into_iter().find(|&f| enemy & !known & (1u64 << f) != 0) {
            enemy &= !(1u64 << from);
        }
        enemy |= 1u64 << sq;
    }
    let mut s = *guess;
    let (white, black) = if p == Side::First { (told.own, enemy) } else { (enemy, told.own) };
    s.board.white = white;
    s.board.black = black;
    s.board.stm = if told.to_move { p } else { q };
    s.board.key = g.bt.compute_key(&s.board);
    s.found = if told.to_move { told.found } else { 0 };
    s.said[p.index()] = told.news;
    g.set_extras(&mut s);
    // The guess shows the player exactly what it was told (unless the guess's game is over: it may have captured
    // every enemy piece it guessed).
    if !g.is_terminal(&s) && g.observation(&s, p) != observation {
        return None;
    }
    Some(s)
}
