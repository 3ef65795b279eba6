//! The belief tracker: the states a player cannot rule out, given every observation so far. Generic over games with
//! hidden information, through `Game` methods only (moves, `play`, `observation`).
//!
//! ```text
//! the referee tells the player its observation whenever it changes (and the game starts from a public position)
//! new game:           B = { start }
//! own move m:         B = { play(s, m) : s in B }            (m is legal in every s: same observation, same moves)
//! observation o:      B = { t : s in B, s -> ... -> t by steps of the others (opponent, chance) after which the
//!                           observation stayed the previous one, then one step after which it reads o }
//!                     (the steps that leave the observation unchanged are those the player is not told about,
//!                      such as a failed try of the opponent in phantom tic-tac-toe)
//! too many:           keep a uniform random subset of `cap` states (the tracker is then a sample, `exact` false)
//! none left:          (only after a cut) rebuild: depth-first dives through the whole history, in random order,
//!                     each finding one state consistent with every observation, within a budget of steps
//! ```
//! Uncut, the set is exactly the states consistent with the observations (the true state is always in it: tested in
//! `tests/hidden.rs`).

use std::collections::HashSet;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use crate::game::{Game, MoveList, Player, Turn};

/// What the tracker remembers of the game, to rebuild the set.
#[derive(Clone, Debug)]
enum Event<M> {
    Seen(String),
    Played(M),
}

/// How many steps a rebuild may play before it gives up.
const REBUILD_BUDGET: usize = 200_000;
/// How many states a rebuild looks for.
const REBUILD_STATES: usize = 64;

/// The states a player cannot rule out.
pub struct Belief<G: Game> {
    me: Player,
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
    pub rebuilds: u32,
}

impl<G: Game> Belief<G> {
    /// A tracker for `me`, from a start position both players know; at most `cap` states are kept.
    pub fn new(game: &G, start: &G::State, me: Player, cap: usize, seed: u64) -> Self {
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
    pub fn player(&self) -> Player {
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
        for s in &self.states {
            successors(game, s, self.me, &self.last_seen, seen, &mut next);
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

    /// Find states consistent with the whole history again (after a cut left none).
    fn rebuild(&mut self, game: &G) {
        self.rebuilds += 1;
        let mut found: HashSet<G::State> = HashSet::new();
        let mut budget = REBUILD_BUDGET;
        for _ in 0..REBUILD_STATES * 2 {
            if found.len() >= REBUILD_STATES || budget == 0 {
                break;
            }
            let mut seen_before = match &self.history[0] {
                Event::Seen(t) => t.clone(),
                Event::Played(_) => unreachable!("the history starts with the start's observation"),
            };
            seen_before.shrink_to_fit();
            if let Some(s) = self.dive(game, self.start, 1, &seen_before, &mut budget) {
                found.insert(s);
            }
        }
        self.states = found.into_iter().collect();
        self.states.sort_by_key(|s| game.key(s));
    }

    /// A depth-first search for one state consistent with `history[i..]`, from `s` (consistent with `history[..i]`).
    fn dive(&mut self, game: &G, s: G::State, i: usize, before: &str, budget: &mut usize) -> Option<G::State> {
        let Some(event) = self.history.get(i).cloned() else { return Some(s) };
        match event {
            Event::Played(m) => {
                let mut t = s;
                game.play(&mut t, m);
                self.dive(game, t, i + 1, before, budget)
            }
            Event::Seen(text) => {
                let mut next = HashSet::new();
                successors(game, &s, self.me, before, &text, &mut next);
                *budget = budget.saturating_sub(next.len() + 1);
                let mut list: Vec<G::State> = next.into_iter().collect();
                list.sort_by_key(|t| game.key(t));
                list.shuffle(&mut self.rng);
                for t in list {
                    if *budget == 0 {
                        return None;
                    }
                    if let Some(r) = self.dive(game, t, i + 1, &text, budget) {
                        return Some(r);
                    }
                }
                None
            }
        }
    }
}

/// The states reached from `s` by steps of the others after which `me`'s observation stays `before`, then one step
/// after which it reads `seen`.
fn successors<G: Game>(game: &G, s: &G::State, me: Player, before: &str, seen: &str, out: &mut HashSet<G::State>) {
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
            let o = game.observation(&t, me);
            if o == seen {
                out.insert(t);
            } else if o == before && visited.insert(t) {
                stack.push(t);
            }
        }
    }
}
