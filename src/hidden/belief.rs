//! The belief tracker: the states a player cannot rule out, given every observation so far. Generic over games with
//! hidden information, through `Game` methods only (moves, `play`, `observation`).
//!
//! ```text
//! the referee tells the player its observation whenever it changes (and the game starts from a public position)
//! new game:           B = { start }
//! own move m:         B = { play(s, m) : s in B }            (m is legal in every s: same observation, same moves)
//! observation o:      B = { s in B : s reads o }              (the announcement of our own move, sent at once)
//!                       + { t : s in B reads the previous observation, s -> ... -> t by steps of the others
//!                           (opponent, chance) after which the observation stayed the previous one, then one step
//!                           after which it reads o }
//!                     (the steps that leave the observation unchanged are those the player is not told about,
//!                      such as a failed try of the opponent in phantom tic-tac-toe)
//! too many:           keep a uniform random subset of `cap` states (the tracker is then a sample, `exact` false)
//! none left:          (only after a cut) rebuild: replay the whole history from the start with a wider beam (4, 16,
//!                     64 times `cap` states, at most 20,000); still none: the set stays empty (the players then
//!                     play a random legal move)
//! ```
//! Uncut, the set is exactly the states consistent with the observations (the true state is always in it: tested in
//! `tests/suite/hidden.rs`).

use std::collections::HashSet;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use crate::game::{FullGame, MoveList, Side, Turn};

/// What the tracker remembers of the game, to rebuild the set.
#[derive(Clone, Debug)]
enum Event<M> {
    Seen(String),
    Played(M),
}

/// The widest beam of a rebuild.
const MAX_WIDTH: usize = 20_000;

/// The states a player cannot rule out.
pub struct Belief<G: FullGame> {
    me: Side,
    start: G::State,
    states: Vec<G::State>,
    cap: usize,
    /// The observations and own moves since the start (the start's observation first).
    history: Vec<Event<G::Move>>,
    last_seen: String,
    rng: SmallRng,
    /// True while no state was ever dropped: then `states` is exactly the consistent set.
    pub exact: bool,
    /// Times the set became empty and was rebuilt from the history.
    pub(crate) rebuilds: u32,
}

impl<G: FullGame> Belief<G> {
    /// A tracker for `me`, from a start position both players know; at most `cap` states are kept.
    pub fn new(game: &G, start: &G::State, me: Side, cap: usize, seed: u64) -> Self {
        let seen = game.observation(start, me);
        Belief {
            me,
            start: *start,
            states: vec![*start],
            cap: cap.max(1),
            history: vec![Event::Seen(seen.clone())],
            last_seen: seen,
            rng: SmallRng::seed_from_u64(seed),
            exact: true,
            rebuilds: 0,
        }
    }

    /// The player whose belief this is.
    pub fn player(&self) -> Side {
        self.me
    }

    /// The states kept (every consistent state while `exact`).
    pub fn states(&self) -> &[G::State] {
        &self.states
    }

    /// The last observation received.
    pub fn last_seen(&self) -> &str {
        &self.last_seen
    }

    /// Our own move `m` was played.
    pub fn played(&mut self, game: &G, m: G::Move) {
        for s in &mut self.states {
            game.play(s, m);
        }
        self.history.push(Event::Played(m));
    }

    /// The referee's new observation.
    pub fn observe(&mut self, game: &G, seen: &str) {
        if seen == self.last_seen {
            return;
        }
        let mut next: HashSet<G::State> = HashSet::new();
        let mut buf = String::new();
        for s in &self.states {
            successors(game, s, self.me, &self.last_seen, seen, &mut next, &mut buf);
        }
        self.states = next.into_iter().collect();
        // A set's order is not reproducible from run to run: sort by key so that a seeded player is.
        self.states.sort_by_key(|s| game.key(s));
        self.history.push(Event::Seen(seen.to_string()));
        self.last_seen = seen.to_string();
        if self.states.len() > self.cap {
            self.exact = false;
            self.states.shuffle(&mut self.rng);
            self.states.truncate(self.cap);
        }
        if self.states.is_empty() {
            self.rebuild(game);
        }
    }

    /// `k` states drawn uniformly (with replacement) from the set; none when it is empty.
    pub fn sample(&mut self, k: usize) -> Vec<G::State> {
        if self.states.is_empty() {
            return Vec::new();
        }
        (0..k).map(|_| self.states[self.rng.random_range(0..self.states.len())]).collect()
    }

    /// One state drawn uniformly.
    pub fn draw(&mut self) -> Option<G::State> {
        self.sample(1).pop()
    }

    /// Find states consistent with the whole history again (after a cut left none): replay the history from the start
    /// keeping at most `width` states, a wider beam each time (4, 16, then 64 times `cap`, at most `MAX_WIDTH`).
    fn rebuild(&mut self, game: &G) {
        self.rebuilds += 1;
        let mut width = (self.cap * 4).clamp(64, MAX_WIDTH);
        for _ in 0..3 {
            let mut set = vec![self.start];
            let mut before = String::new();
            for event in &self.history {
                match event {
                    Event::Played(m) => {
                        for s in &mut set {
                            game.play(s, *m);
                        }
                    }
                    Event::Seen(text) if before.is_empty() => before = text.clone(),
                    Event::Seen(text) => {
                        let mut next = HashSet::new();
                        let mut buf = String::new();
                        for s in &set {
                            successors(game, s, self.me, &before, text, &mut next, &mut buf);
                        }
                        set = next.into_iter().collect();
                        set.sort_by_key(|s| game.key(s));
                        if set.len() > width {
                            set.shuffle(&mut self.rng);
                            set.truncate(width);
                        }
                        before = text.clone();
                    }
                }
                if set.is_empty() {
                    break;
                }
            }
            if !set.is_empty() {
                set.shuffle(&mut self.rng);
                set.truncate(self.cap);
                set.sort_by_key(|s| game.key(s));
                self.states = set;
                return;
            }
            width = (width * 4).min(MAX_WIDTH);
        }
        self.states.clear();
    }
}

/// The states `s` may have become when `me` is told `seen` (its previous observation being `before`): `s` itself when
/// it already reads `seen` (the announcement of `me`'s own move, sent at once), else the states reached from `s` by
/// steps of the others after which the observation stays `before`, then one step after which it reads `seen`; none
/// when `s` reads something else. `buf` holds each observation in turn ([`Capabilities::write_observation`]: no allocation).
fn successors<G: FullGame>(
    game: &G,
    s: &G::State,
    me: Side,
    before: &str,
    seen: &str,
    out: &mut HashSet<G::State>,
    buf: &mut String,
) {
    game.write_observation(s, me, buf);
    if buf == seen {
        out.insert(*s);
        return;
    }
    if buf != before {
        return;
    }
    let mut stack = vec![*s];
    let mut visited: HashSet<G::State> = HashSet::new();
    let mut moves = MoveList::new();
    while let Some(u) = stack.pop() {
        if game.is_terminal(&u) || game.turn(&u) == Turn::Player(me) {
            continue;
        }
        game.generate_moves(&u, &mut moves);
        for &m in &moves {
            let mut t = u;
            game.play(&mut t, m);
            game.write_observation(&t, me, buf);
            if buf == seen {
                out.insert(t);
            } else if buf == before && visited.insert(t) {
                stack.push(t);
            }
        }
    }
}
