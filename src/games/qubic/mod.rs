//! Qubic: tic-tac-toe in a 4 x 4 x 4 cube (and the 3 x 3 x 3 cube for tests), on one `u64` per side.
//!
//! ```text
//!  cell index = layer * n*n + rank * n + file       a move is written layer, file, rank: 2b3 = layer 2, file b, rank 3
//!
//!      layer 1            layer 2            layer 3            layer 4
//!   4  12 13 14 15     4  28 29 30 31     4  44 45 46 47     4  60 61 62 63
//!   3   8  9 10 11     3  24 ...
//!   2   4  5  6  7     2  20 ...
//!   1   0  1  2  3     1  16 17 18 19     ...
//!       a  b  c  d
//! ```
//!
//! X and O fill empty cells in turn; n in a row along any of the 76 lines (rows, columns and pillars, the diagonals of
//! the 12 axis planes, the 4 space diagonals: `geometry.rs`) wins; a full cube is a draw. Patashnik (1980) and Allis (1994,
//! with proof-number search and threat-space search) proved it a first-player win. Only the side that just moved can
//! have completed a line, so [`Game::outcome`] tests that side only.
//!
//! Files: this one holds the rules and the game knowledge the engine and solvers use (wins in one, forced blocks,
//! threats, one key per orbit of the symmetries); `geometry.rs` the lines and the cube's 192 symmetries; `text.rs` the notations; `eval.rs` the evaluation.
//!
//! Position text: the layers from layer 1 up, separated by `|`, each as tic-tac-toe writes a board (ranks from the top
//! down, separated by `/`, `X`, `O`, digits for runs of empty cells), then the side to move, `x` or `o`. The start is
//! `4/4/4/4|4/4/4/4|4/4/4/4|4/4/4/4 x`.

mod children;
mod eval;
pub mod geometry;
mod text;

pub(crate) use eval::QubicEval;

use arrayvec::ArrayVec;

use crate::game::{
    BoardView, Forced, Game, GameError, Layout, MAX_MOVES, MoveClass, MoveList, Outcome, Side, Tactics, playout, view,
    zobrist,
};
use crate::game::{Capabilities, Interop, Knowledge};
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    GameInfo {
        name: "qubic",
        aliases: &["3d_tic_tac_toe", "tic_tac_toe_3d"],
        description: "Qubic: 3D tic-tac-toe in a 4x4x4 cube; X and O fill cells (layer, file, rank: 2b3) in turn, four in a row along any of the 76 lines wins",
        parameters: vec![GameParam {
            name: "size",
            default: "4",
            description: "edge of the cube: 3 or 4 (3x3x3: 49 lines, a quick first-player win)",
        }],
    }
}

/// The rules: the cube's size and its lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Qubic {
    /// The edge of the cube (3 or 4).
    pub n: u32,
    /// Every winning line as a mask of cells.
    lines: Vec<u64>,
    /// For each cell, the lines through it.
    through: Vec<Vec<u64>>,
    /// The same lines by direction, as shifts of bitboards (`geometry::directions`): whole lines and threats of a
    /// side are found with a few shifts and ANDs per direction, with no loop over the 76 lines.
    directions: Vec<(u32, u64)>,
    /// Every cell.
    full: u64,
    /// The cube's symmetries (`geometry::symmetries`: 192 on 4 x 4 x 4, 48 on 3 x 3 x 3), the identity first.
    symmetries: Vec<Vec<u8>>,
    /// The same, by cell: `images[cell * symmetries.len() + k]` is the bit of `cell`'s image under symmetry `k`, so
    /// that a set's images under all the symmetries are the OR of its cells' rows ([`Knowledge::symmetry_key`]).
    images: Vec<u64>,
}

/// A position: one bitboard per side, the side to move and the incremental Zobrist key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct QubicState {
    /// X's cells (the first player).
    pub x: u64,
    /// O's cells (the second player).
    pub o: u64,
    pub stm: Side,
    pub key: u64,
}

/// Positions with up to this many stones share one [`Game::symmetry_key`] per orbit of the cube's symmetries.
pub(crate) const SYMMETRY_STONES: u32 = 10;

impl QubicState {
    /// The cells of the side to move, then of the opponent.
    #[inline(always)]
    pub fn own_opp(&self) -> (u64, u64) {
        match self.stm {
            Side::First => (self.x, self.o),
            Side::Second => (self.o, self.x),
        }
    }
}

impl Default for Qubic {
    fn default() -> Self {
        Qubic::new(4)
    }
}

impl Qubic {
    /// The n x n x n game (n is 3 or 4).
    pub fn new(n: u32) -> Qubic {
        assert!((3..=4).contains(&n), "Qubic is played on 3x3x3 or 4x4x4");
        let lines = geometry::lines(n);
        let cells = n * n * n;
        let through = (0..cells).map(|c| lines.iter().copied().filter(|l| l >> c & 1 == 1).collect()).collect();
        let full = if cells == 64 { u64::MAX } else { (1u64 << cells) - 1 };
        let symmetries = geometry::symmetries(n);
        let images = (0..cells as usize).flat_map(|c| symmetries.iter().map(move |map| 1u64 << map[c])).collect();
        Qubic { n, lines, through, directions: geometry::directions(n), full, symmetries, images }
    }

    /// Build from a parsed game string (`size=3` or `size=4`).
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let n = spec.int("size", 4, 3, 4)? as u32;
        spec.finish()?;
        Ok(Qubic::new(n))
    }

    /// Every winning line.
    pub fn lines(&self) -> &[u64] {
        &self.lines
    }

    /// Every cell of the board.
    pub fn full(&self) -> u64 {
        self.full
    }

    fn zkey(side: Side, cell: u32) -> u64 {
        zobrist::key(side.index() * 64 + cell as usize)
    }

    /// Whether `bits` holds a whole line.
    pub(crate) fn has_line(&self, bits: u64) -> bool {
        match self.n {
            3 => self.has_line_n::<3>(bits),
            _ => self.has_line_n::<4>(bits),
        }
    }

    /// [`Qubic::has_line`] on the N x N x N board: a start cell whose N cells along a direction are all in `bits`.
    #[inline(always)]
    fn has_line_n<const N: u32>(&self, bits: u64) -> bool {
        self.directions.iter().any(|&(shift, starts)| {
            let mut t = bits & starts;
            for k in 1..N {
                t &= bits >> (k * shift);
            }
            t != 0
        })
    }

    /// Whether the stone just put on `cell` completes a line of `bits` (which holds it).
    #[inline]
    pub fn completes(&self, bits: u64, cell: u32) -> bool {
        Self::any_full(&self.through[cell as usize], bits)
    }

    /// Whether one of `lines` is wholly inside `bits`.
    #[inline(always)]
    fn any_full(lines: &[u64], bits: u64) -> bool {
        for &l in lines {
            if bits & l == l {
                return true;
            }
        }
        false
    }

    /// The empty cells where `own` would complete a line (no stone of `opp` on it): its threats.
    #[inline]
    pub fn winning_cells(&self, own: u64, opp: u64) -> u64 {
        match self.n {
            3 => self.winning_cells_n::<3>(own, opp),
            _ => self.winning_cells_n::<4>(own, opp),
        }
    }

    /// [`Qubic::winning_cells`] on the N x N x N board. For each direction and each place `j` of the missing cell in
    /// a line: the starts whose cell `j` is empty and whose N - 1 other cells are `own`, shifted back to cell `j`.
    #[inline(always)]
    fn winning_cells_n<const N: u32>(&self, own: u64, opp: u64) -> u64 {
        let free = self.full & !(own | opp);
        let mut out = 0;
        for &(shift, starts) in &self.directions {
            // own_at[k]: the starts whose k-th cell is own (bit c set when c + k*shift is).
            let mut own_at = [0u64; 4];
            for (k, o) in own_at.iter_mut().enumerate().take(N as usize) {
                *o = own >> (k as u32 * shift);
            }
            for j in 0..N {
                let mut t = starts & free >> (j * shift);
                for (k, &o) in own_at.iter().enumerate().take(N as usize) {
                    if k as u32 != j {
                        t &= o;
                    }
                }
                out |= t << (j * shift);
            }
        }
        out
    }

    /// The empty cells where a stone of `own` makes a line free of `opp` hold N - 1 stones of `own` with its last cell
    /// empty (a threat; the wins among them are not taken out).
    #[inline]
    pub fn threat_cells(&self, own: u64, opp: u64) -> u64 {
        match self.n {
            3 => self.threat_cells_n::<3>(own, opp),
            _ => self.threat_cells_n::<4>(own, opp),
        }
    }

    /// [`Qubic::threat_cells`] on the N x N x N board: for each direction and each two places `i`, `j` of a line,
    /// the starts whose cells `i` and `j` are empty and whose N - 2 others are `own`, shifted back to both cells.
    #[inline(always)]
    fn threat_cells_n<const N: u32>(&self, own: u64, opp: u64) -> u64 {
        let free = self.full & !(own | opp);
        let mut out = 0;
        for &(shift, starts) in &self.directions {
            let (mut own_at, mut free_at) = ([0u64; 4], [0u64; 4]);
            for k in 0..N as usize {
                own_at[k] = own >> (k as u32 * shift);
                free_at[k] = free >> (k as u32 * shift);
            }
            for i in 0..N as usize {
                for j in i + 1..N as usize {
                    let mut t = starts & free_at[i] & free_at[j];
                    for (k, &o) in own_at.iter().enumerate().take(N as usize) {
                        if k != i && k != j {
                            t &= o;
                        }
                    }
                    out |= t << (i as u32 * shift) | t << (j as u32 * shift);
                }
            }
        }
        out
    }

    fn empty(&self, s: &QubicState) -> u64 {
        self.full & !(s.x | s.o)
    }
}

/// What the opponent's threats `threats` (the cells where it completes a line) force: none, one block, or lost.
#[inline]
fn forced_by(threats: u64) -> Forced {
    // No population count: the x86-64 baseline has no instruction for it.
    if threats == 0 {
        Forced::Free
    } else if threats & (threats - 1) == 0 {
        Forced::Defend(threats.trailing_zeros())
    } else {
        Forced::Lost
    }
}

impl Game for Qubic {
    type State = QubicState;

    type Move = u8;

    fn spec(&self) -> String {
        if self.n == 4 { "qubic".to_string() } else { format!("qubic(size={})", self.n) }
    }

    fn start(&self) -> QubicState {
        QubicState { x: 0, o: 0, stm: Side::First, key: 0 }
    }

    fn side_to_move(&self, s: &QubicState) -> Side {
        s.stm
    }

    fn generate_moves(&self, s: &QubicState, moves: &mut MoveList<u8>) {
        moves.clear();
        if self.outcome(s).is_some() {
            return;
        }
        let mut b = self.empty(s);
        while b != 0 {
            moves.push(b.trailing_zeros() as u8);
            b &= b - 1;
        }
    }

    #[inline]
    fn play(&self, s: &mut QubicState, m: u8) {
        let bit = 1u64 << m;
        match s.stm {
            Side::First => s.x |= bit,
            Side::Second => s.o |= bit,
        }
        s.key ^= Self::zkey(s.stm, m as u32) ^ zobrist::key(zobrist::SIDE);
        s.stm = s.stm.other();
    }

    /// Only the side that just moved can have made a line: a position where the side to move has one is not a
    /// position of the game (a game ends at its first line; the parser refuses it, `text.rs`), so that side is not
    /// tested (the solvers ask this of every child they value).
    #[inline]
    fn outcome(&self, s: &QubicState) -> Option<Outcome> {
        let (_, opp) = s.own_opp();
        if self.has_line(opp) {
            Some(Outcome::Loss)
        } else if s.x | s.o == self.full {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn key(&self, s: &QubicState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &QubicState) -> u64 {
        let mut k = 0;
        for (side, mut b) in [(Side::First, s.x), (Side::Second, s.o)] {
            while b != 0 {
                k ^= Self::zkey(side, b.trailing_zeros());
                b &= b - 1;
            }
        }
        if s.stm == Side::Second {
            k ^= zobrist::key(zobrist::SIDE);
        }
        k
    }

    fn count_moves(&self, s: &QubicState) -> u64 {
        if self.outcome(s).is_some() { 0 } else { self.empty(s).count_ones() as u64 }
    }

    fn parse_move(&self, s: &QubicState, t: &str) -> Result<u8, GameError> {
        text::parse_move(self, s, t)
    }

    fn format_move(&self, _s: &QubicState, m: u8) -> String {
        text::cell_name(self.n, m as u32)
    }

    fn parse_position(&self, t: &str) -> Result<QubicState, GameError> {
        text::parse_position(self, t)
    }

    fn format_position(&self, s: &QubicState) -> String {
        text::format_position(self, s)
    }

    fn display(&self, s: &QubicState) -> String {
        text::display(self, s)
    }
}

impl Capabilities for Qubic {}

impl Knowledge for Qubic {
    type Eval = QubicEval;

    // ---- Knowledge: wins in one and forced blocks ----

    fn has_tactics(&self) -> bool {
        false
    }

    fn move_class(&self, s: &QubicState, m: u8) -> MoveClass {
        let (own, opp) = s.own_opp();
        let after = own | 1 << m;
        if self.completes(after, m as u32) {
            MoveClass::Win
        } else if children::new_threats(self, after, opp, m) != 0 {
            MoveClass::Threat
        } else {
            MoveClass::Quiet
        }
    }

    fn has_winning_move(&self, s: &QubicState) -> bool {
        if self.outcome(s).is_some() {
            return false;
        }
        let (own, opp) = s.own_opp();
        self.winning_cells(own, opp) != 0
    }

    /// One cell where the opponent completes a line next move: only a stone there stops it; two or more: lost.
    fn forced(&self, s: &QubicState) -> Forced {
        let (own, opp) = s.own_opp();
        forced_by(self.winning_cells(opp, own))
    }

    /// [`Game::outcome`], [`Knowledge::has_winning_move`] and [`Knowledge::forced`] with each test done once.
    fn tactics(&self, s: &QubicState) -> Tactics {
        let (own, opp) = s.own_opp();
        if self.has_line(opp) {
            Tactics::Over(Outcome::Loss)
        } else if own | opp == self.full {
            Tactics::Over(Outcome::Draw)
        } else if self.winning_cells(own, opp) != 0 {
            Tactics::WinInOne
        } else {
            Tactics::Forced(forced_by(self.winning_cells(opp, own)))
        }
    }

    /// From the parent's threats, updated by each move (`children::tactics`): no full test per child.
    fn child_tactics(&self, s: &QubicState, moves: &[u8], out: &mut ArrayVec<Tactics, MAX_MOVES>) {
        children::tactics(self, s, moves, out);
    }

    fn defends(&self, m: u8, target: u32) -> bool {
        m as u32 == target
    }

    fn decisive_random_move<R: rand::Rng + ?Sized>(&self, s: &QubicState, rng: &mut R) -> Option<u8> {
        if self.outcome(s).is_some() {
            return None;
        }
        let (own, opp) = s.own_opp();
        let empty = self.empty(s);
        let win = self.winning_cells(own, opp) & empty;
        let block = self.winning_cells(opp, own) & empty;
        let pick = if win != 0 {
            win
        } else if block != 0 {
            block
        } else {
            empty
        };
        Some(playout::random_bit(pick, rng) as u8)
    }

    fn move_key(&self, m: u8) -> usize {
        m as usize
    }

    /// The cube's symmetries ([`geometry::symmetries`]: 192 on 4 x 4 x 4, 48 on 3 x 3 x 3), the identity first.
    fn symmetry_count(&self) -> usize {
        self.symmetries.len()
    }

    fn symmetric(&self, s: &QubicState, k: usize) -> QubicState {
        let map = &self.symmetries[k];
        let mut image = QubicState { x: geometry::apply(map, s.x), o: geometry::apply(map, s.o), stm: s.stm, key: 0 };
        image.key = self.compute_key(&image);
        image
    }

    fn symmetric_move(&self, _s: &QubicState, m: u8, k: usize) -> u8 {
        self.symmetries[k][m as usize]
    }

    /// Up to [`SYMMETRY_STONES`] stones: a hash of the least image of the position under the cube's symmetries (the
    /// images of X's and O's cells, compared as one 128-bit number), so that all the positions of one orbit share it;
    /// with more stones, the Zobrist key (192 images cost more than the transpositions they find deep in the game).
    fn symmetry_key(&self, s: &QubicState) -> u64 {
        if (s.x | s.o).count_ones() > SYMMETRY_STONES {
            return s.key;
        }
        children::orbit_key(self, s)
    }

    /// A stone on the one cell to block.
    fn defences(&self, s: &QubicState, target: u32, moves: &mut MoveList<u8>) {
        moves.clear();
        if target < 64 && self.empty(s) >> target & 1 == 1 && self.outcome(s).is_none() {
            moves.push(target as u8);
        }
    }

    /// The moves that make a threat, from bitboards (`threat_cells`), not a move at a time.
    fn retain_threats(&self, s: &QubicState, moves: &mut MoveList<u8>) {
        let (own, opp) = s.own_opp();
        let threats = self.threat_cells(own, opp) & !self.winning_cells(own, opp);
        moves.retain(|m| threats >> *m & 1 == 1);
    }

    /// From the parent's images under the symmetries, each child's stone added (`children::symmetry_keys`).
    fn child_symmetry_keys(&self, s: &QubicState, moves: &[u8], out: &mut ArrayVec<u64, MAX_MOVES>) {
        children::symmetry_keys(self, s, moves, out);
    }
}

impl Interop for Qubic {
    fn player_name(&self, player: Side) -> Option<&'static str> {
        Some(if player == Side::First { "X" } else { "O" })
    }

    /// The layers side by side, layer 1 on the left, one empty column between them.
    fn board_view(&self, s: &QubicState) -> Option<BoardView> {
        let n = self.n;
        let mut v = BoardView::from_fn(Layout::Grid, n, n * n + n - 1, ["royalblue", "crimson"], |rank, column| {
            let (layer, file) = (column / (n + 1), column % (n + 1));
            if file == n {
                return view::cell(String::new(), "", None);
            }
            let cell = layer * n * n + rank * n + file;
            let name = text::cell_name(n, cell);
            if s.x >> cell & 1 == 1 {
                view::cell(name, "X", Some(Side::First))
            } else if s.o >> cell & 1 == 1 {
                view::cell(name, "O", Some(Side::Second))
            } else {
                view::cell(name, "", None)
            }
        });
        // The cell names start with the layer, so the page cannot read coordinates from them: files under each
        // layer, ranks beside the rows, the layer's number above its first file.
        let columns = 0..n * n + n - 1;
        let file =
            |c: u32| if c % (n + 1) == n { String::new() } else { ((b'a' + (c % (n + 1)) as u8) as char).to_string() };
        v.coords.bottom = columns.clone().map(file).collect();
        v.coords.top = columns
            .map(|c| if c % (n + 1) == 0 { format!("layer {}", c / (n + 1) + 1) } else { String::new() })
            .collect();
        v.coords.left = (1..=n).rev().map(|r| r.to_string()).collect();
        Some(v)
    }

    fn max_game_length(&self) -> Option<u32> {
        Some(self.n * self.n * self.n)
    }

    /// One action per cell, its index (`layer * n*n + rank * n + file`).
    fn num_distinct_actions(&self) -> Option<u32> {
        Some(self.n * self.n * self.n)
    }

    fn action_id(&self, _s: &QubicState, m: u8) -> Option<u32> {
        Some(m as u32)
    }

    /// `[3, n, n, n]`: X's cells, O's, the empty cells; then layer, rank, file.
    fn observation_shape(&self) -> Vec<usize> {
        let n = self.n as usize;
        vec![3, n, n, n]
    }

    fn observation_tensor(&self, s: &QubicState, _player: Side, out: &mut [f32]) {
        let cells = (self.n * self.n * self.n) as usize;
        for c in 0..cells {
            let plane = if s.x >> c & 1 == 1 {
                0
            } else if s.o >> c & 1 == 1 {
                1
            } else {
                2
            };
            out[plane * cells + c] = 1.0;
        }
    }
}
