//! Oware (abapa, the tournament rules): `oware(houses=6,seeds=4)`.
//!
//! Rules (the same as OpenSpiel's `oware`, which the tests compare against):
//! - Each player owns a row of `houses` houses (default 6), each holding `seeds` seeds at the start (default 4), and a
//!   store. The first player (South) owns houses `A..F`, the second (North) `a..f`; sowing goes counter-clockwise:
//!   `A B .. F` then `a b .. f` then back to `A`.
//! - A move takes every seed of one of the mover's non-empty houses and sows them one by one into the following houses,
//!   skipping the starting house (a house of 12 seeds or more laps the board without refilling it).
//! - Capture: when the last seed lands on the opponent's side and makes that house hold 2 or 3 seeds, those seeds are
//!   captured, and so are the preceding houses going backwards (towards the opponent's first house) while they hold 2
//!   or 3. A move that would capture every seed the opponent has (a grand slam) is legal but captures nothing.
//! - Feeding: when the opponent has no seed, only moves that give it some are legal.
//! - End: when a player has more than half of all the seeds in its store (or both exactly half); when the player to
//!   move has no legal move (it cannot feed the opponent, or has no seed); when a position (board and side to move)
//!   repeats since the last capture. Then each player adds the seeds left on its own side to its store.
//! - Result: `Outcome::Value(d)`, `d` the final seed difference (store of the side to move minus the other store):
//!   positive is a win, 0 a draw. Searches maximise the margin; evaluations are in seeds too (see `eval.rs`).
//!
//! Repetition is detected with a bounded history carried in the state: the 32-bit fingerprints of the last
//! [`HISTORY`] positions since the last capture (a capture clears it: captured seeds never come back, so no earlier
//! position can repeat). A repetition more than [`HISTORY`] plies apart is not seen (the game then goes on until a
//! capture, a repetition within the window, or the other end rules); two positions with equal fingerprints count as a
//! repetition (a chance of about 2^-27 a move). A position read from text starts with an empty history.
//!
//! Notation: a move is the letter of the house it empties, as OpenSpiel writes it: `A`..`F` for the first player,
//! `a`..`f` for the second (the mover's letters only). Position text: the first player's houses `A..F`, `/`, the second
//! player's houses `a..f` (both in sowing order, numbers separated by commas), the two stores, and the side to move
//! (`1` first, `2` second): the start is `4,4,4,4,4,4/4,4,4,4,4,4 0 0 1`.
//!
//! State: the houses as bytes in sowing order (`A..F a..f`), the two stores, the side to move and the history. The
//! position key hashes the houses, stores and side (computed on demand: two multiplications per 8 houses); it ignores
//! the history, as transposition tables do.

pub mod db;
pub mod eval;
pub mod rank;
mod text;

use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{Game, GameError, MoveClass, MoveList, Outcome, Side, err};
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;

pub(crate) use eval::OwareEval;

/// Most houses per side.
pub(crate) const MAX_HOUSES: usize = 8;
/// Most seeds per house at the start.
pub(crate) const MAX_SEEDS: usize = 12;
/// Positions remembered since the last capture, for the repetition rule.
pub(crate) const HISTORY: usize = 128;

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    let p = |name, default, description| GameParam { name, default, description };
    GameInfo {
        name: "oware",
        aliases: &["awale", "awari", "abapa"],
        description: "Oware abapa (tournament rules): sow counter-clockwise, capture 2s and 3s on the opponent's side",
        parameters: vec![
            p("houses", "6", "houses per side, 1..=8"),
            p("seeds", "4", "seeds per house at the start, 1..=12"),
        ],
    }
}

/// The rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Oware {
    pub houses: usize,
    pub seeds: usize,
}

/// A position (see the module documentation). Equality and hashing see the board, stores and side to move, not the
/// history (as the key does): two states that differ only by their past are the same position.
#[derive(Copy, Clone, Debug)]
pub struct OwareState {
    /// Seeds per house in sowing order: the first player's `0..houses`, then the second's.
    pub pits: [u8; 2 * MAX_HOUSES],
    /// The first and the second player's stores.
    pub stores: [u8; 2],
    pub stm: Side,
    /// Positions seen since the last capture (the current one included), at most [`HISTORY`] kept.
    seen: u16,
    history: [u32; HISTORY],
}

impl PartialEq for OwareState {
    fn eq(&self, other: &Self) -> bool {
        self.pits == other.pits && self.stores == other.stores && self.stm == other.stm
    }
}

impl Eq for OwareState {}

impl std::hash::Hash for OwareState {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.pits.hash(state);
        self.stores.hash(state);
        self.stm.hash(state);
    }
}

impl Default for Oware {
    fn default() -> Self {
        Oware { houses: 6, seeds: 4 }
    }
}

/// A 64-bit mix (splitmix64's finaliser).
#[inline(always)]
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl Oware {
    /// A board of `houses` houses per side with `seeds` seeds in each (checked).
    pub fn new(houses: usize, seeds: usize) -> Result<Self, GameError> {
        if !(1..=MAX_HOUSES).contains(&houses) {
            return err(format!("oware: houses={houses}: 1..={MAX_HOUSES} houses per side"));
        }
        if !(1..=MAX_SEEDS).contains(&seeds) {
            return err(format!("oware: seeds={seeds}: 1..={MAX_SEEDS} seeds per house"));
        }
        Ok(Oware { houses, seeds })
    }

    /// Build from a parsed game string.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let houses = spec.int("houses", 6, 1, MAX_HOUSES as i64)? as usize;
        let seeds = spec.int("seeds", 4, 1, MAX_SEEDS as i64)? as usize;
        spec.finish()?;
        Oware::new(houses, seeds)
    }

    /// Every seed of the game.
    pub fn total(&self) -> usize {
        2 * self.houses * self.seeds
    }

    /// Index of the first house of `p`.
    #[inline(always)]
    pub fn base(&self, p: Side) -> usize {
        p.index() * self.houses
    }

    /// Seeds on `p`'s side.
    #[inline]
    pub(crate) fn side_seeds(&self, s: &OwareState, p: Side) -> u32 {
        let b = self.base(p);
        s.pits[b..b + self.houses].iter().map(|&x| x as u32).sum()
    }

    /// Seeds on the board.
    pub fn board_seeds(&self, s: &OwareState) -> u32 {
        s.pits[..2 * self.houses].iter().map(|&x| x as u32).sum()
    }

    /// The key of the board and the side to move (stores excluded), the history's fingerprint source.
    #[inline]
    fn board_key(&self, s: &OwareState) -> u64 {
        let lo = u64::from_le_bytes(s.pits[..8].try_into().unwrap_or([0; 8]));
        let hi = u64::from_le_bytes(s.pits[8..].try_into().unwrap_or([0; 8]));
        mix(mix(lo ^ 0x5EED_0A5E_0000_0001) ^ hi ^ ((s.stm.index() as u64) << 63))
    }

    /// Whether the mover has no legal move (no seed, or an opponent without seeds it cannot reach).
    fn stuck(&self, s: &OwareState) -> bool {
        let b = self.base(s.stm);
        let opp_empty = self.side_seeds(s, s.stm.other()) == 0;
        !(0..self.houses).any(|h| {
            let k = s.pits[b + h] as usize;
            k > 0 && (!opp_empty || k > self.houses - 1 - h)
        })
    }

    /// Whether the stores end the game: more than half, or both exactly half.
    #[inline]
    pub fn decided(&self, s: &OwareState) -> bool {
        let half = (self.total() / 2) as u8;
        s.stores[0] > half || s.stores[1] > half || (s.stores[0] == half && s.stores[1] == half)
    }

    /// The end of the game: each player adds the seeds on its side to its store.
    fn collect(&self, s: &mut OwareState) {
        for p in [Side::First, Side::Second] {
            let b = self.base(p);
            let side: u32 = s.pits[b..b + self.houses].iter().map(|&x| x as u32).sum();
            s.stores[p.index()] += side as u8;
            s.pits[b..b + self.houses].fill(0);
        }
    }

    /// Sow house `h` of the mover (relative index) on `pits`; returns the index of the last house sown.
    #[inline]
    pub(crate) fn sow(&self, pits: &mut [u8; 2 * MAX_HOUSES], from: usize) -> usize {
        let n = 2 * self.houses;
        let mut k = pits[from] as usize;
        pits[from] = 0;
        let laps = k / (n - 1).max(1);
        if n > 1 && laps > 0 {
            for (i, p) in pits[..n].iter_mut().enumerate() {
                if i != from {
                    *p += laps as u8;
                }
            }
            k -= laps * (n - 1);
            if k == 0 {
                // The last seed fell just before the starting house.
                return if from == 0 { n - 1 } else { from - 1 };
            }
        }
        let mut i = from;
        while k > 0 {
            i += 1;
            if i == n {
                i = 0;
            }
            if i != from {
                pits[i] += 1;
                k -= 1;
            }
        }
        i
    }

    /// The seeds a sowing that ended on `last` captures for `mover` (0 for a grand slam), taken off `pits`.
    #[inline]
    pub fn capture(&self, pits: &mut [u8; 2 * MAX_HOUSES], mover: Side, last: usize) -> u32 {
        let ob = self.base(mover.other());
        if last < ob || last >= ob + self.houses {
            return 0;
        }
        let mut i = last;
        let mut taken = 0u32;
        loop {
            let x = pits[i];
            if x != 2 && x != 3 {
                break;
            }
            taken += x as u32;
            if i == ob {
                break;
            }
            i -= 1;
        }
        if taken == 0 {
            return 0;
        }
        let side: u32 = pits[ob..ob + self.houses].iter().map(|&x| x as u32).sum();
        if taken == side {
            return 0; // grand slam: legal, captures nothing
        }
        let mut i = last;
        loop {
            let x = pits[i];
            if x != 2 && x != 3 {
                break;
            }
            pits[i] = 0;
            if i == ob {
                break;
            }
            i -= 1;
        }
        taken
    }

    /// The seeds move `h` captures in `s`, without playing it.
    pub(crate) fn captured_by(&self, s: &OwareState, h: u8) -> u32 {
        let mut pits = s.pits;
        let last = self.sow(&mut pits, self.base(s.stm) + h as usize);
        self.capture(&mut pits, s.stm, last)
    }

    /// The state with these houses, stores and side, an empty history, and the end rules applied (a position where
    /// the mover cannot move, or whose stores decide the game, has its seeds collected).
    pub fn make_state(&self, pits: [u8; 2 * MAX_HOUSES], stores: [u8; 2], stm: Side) -> OwareState {
        let mut s = OwareState { pits, stores, stm, seen: 1, history: [0; HISTORY] };
        if self.decided(&s) || self.stuck(&s) {
            self.collect(&mut s);
        }
        s.history[0] = self.board_key(&s) as u32;
        s
    }
}

impl Game for Oware {
    type State = OwareState;

    type Move = u8;

    fn spec(&self) -> String {
        let mut p = Vec::new();
        if self.houses != 6 {
            p.push(format!("houses={}", self.houses));
        }
        if self.seeds != 4 {
            p.push(format!("seeds={}", self.seeds));
        }
        if p.is_empty() { "oware".to_string() } else { format!("oware({})", p.join(",")) }
    }

    fn start(&self) -> OwareState {
        let mut pits = [0u8; 2 * MAX_HOUSES];
        pits[..2 * self.houses].fill(self.seeds as u8);
        self.make_state(pits, [0, 0], Side::First)
    }

    fn side_to_move(&self, s: &OwareState) -> Side {
        s.stm
    }

    fn generate_moves(&self, s: &OwareState, moves: &mut MoveList<u8>) {
        moves.clear();
        if self.decided(s) {
            return;
        }
        let b = self.base(s.stm);
        let opp_empty = self.side_seeds(s, s.stm.other()) == 0;
        for h in 0..self.houses {
            let k = s.pits[b + h] as usize;
            if k > 0 && (!opp_empty || k > self.houses - 1 - h) {
                moves.push(h as u8);
            }
        }
    }

    fn play(&self, s: &mut OwareState, h: u8) {
        let mover = s.stm;
        let last = self.sow(&mut s.pits, self.base(mover) + h as usize);
        let taken = self.capture(&mut s.pits, mover, last);
        s.stores[mover.index()] += taken as u8;
        s.stm = mover.other();
        let fp = self.board_key(s) as u32;
        if taken > 0 {
            s.seen = 1;
            s.history[0] = fp;
        } else {
            let n = (s.seen as usize).min(HISTORY);
            if s.history[..n].contains(&fp) {
                self.collect(s);
                return;
            }
            s.history[s.seen as usize % HISTORY] = fp;
            s.seen += 1;
            if s.seen as usize >= 2 * HISTORY {
                s.seen -= HISTORY as u16; // the ring stays full and its next slot the same
            }
        }
        if self.decided(s) || self.stuck(s) {
            self.collect(s);
        }
    }

    fn outcome(&self, s: &OwareState) -> Option<Outcome> {
        if !self.decided(s) {
            return None;
        }
        let me = s.stores[s.stm.index()] as i32 + self.side_seeds(s, s.stm) as i32;
        let other = s.stores[s.stm.other().index()] as i32 + self.side_seeds(s, s.stm.other()) as i32;
        Some(Outcome::Value(me - other))
    }

    fn key(&self, s: &OwareState) -> u64 {
        self.compute_key(s)
    }

    fn compute_key(&self, s: &OwareState) -> u64 {
        mix(self.board_key(s) ^ ((s.stores[0] as u64) << 8 | s.stores[1] as u64))
    }

    fn parse_move(&self, s: &OwareState, text: &str) -> Result<u8, GameError> {
        self.parse_move_text(s, text)
    }

    fn format_move(&self, s: &OwareState, h: u8) -> String {
        let a = if s.stm == Side::First { b'A' } else { b'a' };
        ((a + h) as char).to_string()
    }

    fn parse_position(&self, text: &str) -> Result<OwareState, GameError> {
        self.parse_position_text(text)
    }

    fn format_position(&self, s: &OwareState) -> String {
        self.format_position_text(s)
    }

    fn display(&self, s: &OwareState) -> String {
        self.display_text(s)
    }
}

impl Capabilities for Oware {}

impl Knowledge for Oware {
    type Eval = OwareEval;

    const EVALUATIONS: &'static [&'static str] = &["counting", "simple"];

    // Evaluation-cut playouts with the seed count, a smaller exploration constant (docs/mcts.md, "Othello's and
    // Oware's settings").
    const MCTS_DEFAULTS: &'static str = "cut=8,eval=counting,scale=5,c=0.5";

    fn evaluation(&self, name: &str) -> Result<OwareEval, GameError> {
        OwareEval::named(name).ok_or_else(|| {
            GameError::new(format!("{}: no evaluation '{name}' (known: {})", self.spec(), Self::EVALUATIONS.join(", ")))
        })
    }

    fn has_tactics(&self) -> bool {
        true
    }

    fn move_class(&self, s: &OwareState, h: u8) -> MoveClass {
        if self.captured_by(s, h) > 0 { MoveClass::Capture } else { MoveClass::Quiet }
    }

    fn move_key(&self, h: u8) -> usize {
        h as usize
    }

    fn prepare_endgame(&self) {
        db::prepare(self);
    }

    fn endgame(&self, s: &OwareState) -> Option<(Outcome, u32)> {
        db::probe_final(self, s).map(|v| (Outcome::Value(v), 0))
    }
}

impl Interop for Oware {
    /// OpenSpiel's `returns()`: the sign of the final margin (a win 1, a loss -1, a draw 0).
    fn returns_value(&self, o: Outcome) -> f64 {
        match o {
            Outcome::Value(v) => v.signum() as f64,
            Outcome::Win => 1.0,
            Outcome::Loss => -1.0,
            Outcome::Draw => 0.0,
        }
    }

    /// OpenSpiel's numbering: the house's index among the mover's houses (`A`/`a` is 0).
    fn num_distinct_actions(&self) -> Option<u32> {
        Some(self.houses as u32)
    }

    fn action_id(&self, _s: &OwareState, h: u8) -> Option<u32> {
        Some(h as u32)
    }

    /// `[2 * houses + 2]`: the seeds of every house in sowing order (`A..F a..f`) then the two stores, each divided by
    /// the seeds in play (OpenSpiel's layout).
    fn observation_shape(&self) -> Vec<usize> {
        vec![2 * self.houses + 2]
    }

    fn observation_tensor(&self, s: &OwareState, _player: Side, out: &mut [f32]) {
        let total = self.total() as f32;
        let n = 2 * self.houses;
        for (o, &seeds) in out.iter_mut().zip(s.pits[..n].iter().chain(s.stores.iter())) {
            *o = seeds as f32 / total;
        }
    }

    fn board_view(&self, s: &OwareState) -> Option<crate::game::BoardView> {
        Some(self.view(s))
    }

    /// The sides as docs/oware.md names them: South (the first player, houses `A..F`) and North (`a..f`).
    fn player_name(&self, player: Side) -> Option<&'static str> {
        Some(if player == Side::First { "South" } else { "North" })
    }
}
