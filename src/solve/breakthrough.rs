//! A dedicated Breakthrough solver: depth-first proof-number search (df-pn) on the bitboards, with Breakthrough
//! knowledge at every node, a bounded transposition table, optional race endgame tables as a leaf oracle, and an
//! exact distance-to-the-end pass by alpha-beta.
//!
//! Breakthrough has no draws and no cycles (every move advances a piece), so a weak solution is a win/loss proof.
//!
//! # Knowledge (normal rules; switched off for misère and forced captures, which are solved without it)
//! Side to move S, opponent O; "pre-goal row" = the row next to a side's goal. Checked in this order:
//! 1. the game is over: win or loss in 0 plies;
//! 2. S has a piece on its pre-goal row: **win in 1** (such a piece always has a move onto the goal row: its diagonal
//!    there never holds an own piece);
//! 3. O has pieces on its pre-goal row ("threats"): two or more, or one that no S piece attacks: **loss in 2**; exactly
//!    one that S attacks: S **must capture it**, only those captures are searched (any other move loses in 2, and a
//!    capture never loses faster);
//! 4. S can move a piece onto its pre-goal row to a square no O piece attacks: **win in 3** (O cannot capture it and
//!    has no threat of its own). For the exact distance the solver first checks the rarer wins in 1 (capturing the last
//!    piece, leaving O without a move);
//! 5. **defended runner** (weak solving only): S has a piece on its pre-pre-goal row that can step to a square `x` of its
//!    pre-goal row attacked by `a >= 1` O pieces and defended by `d >= a` other S pieces. O cannot win before S's
//!    third move (no O piece on its pre-goal row, and every O move that does not capture on `x` lets S's piece reach
//!    the goal at once), so O must capture on `x`, S recaptures, and so on; the attackers of `x` stand on S's goal row,
//!    where O never returns, so after `a` exchanges nothing attacks `x` and S wins (in at most `2a + 3` plies; not
//!    necessarily the fastest win, hence weak only). Needs at least 4 rows (the two pre-goal rows differ);
//! 6. **threat sequences** (weak solving only, [`Options::threat_depth`] runner moves, 3 by default): S wins if some
//!    move of a piece from its pre-pre-goal row to a square `x` of its pre-goal row leaves `x` unattacked (or O without
//!    pieces), or if after each O capture on `x` (O's only moves that do not lose at once) S again has such a winning
//!    sequence one move shorter. O's captures land on its own second row, never on its pre-goal row, so O never gets a
//!    threat of its own along the way. Depth 3 contains rule 5 (a recapture is such a runner move);
//! 7. race tables ([`super::race`]), weak solving only.
//!
//! # df-pn (Nagai 2002, negamax form, with the 1+ε trick of Pawlewicz and Lew)
//! ```text
//! (pn, dn) of a node, from its side to move: pn = cost to prove a win, dn = cost to prove a loss.
//! pn = min over children of child.dn        dn = sum over children of child.pn
//! mid(n, thpn, thdn):
//!     expand n (children initialised from the table, or by the knowledge above, else from h = 8m + 4r,
//!               m = the child's own minus opponent pieces, r = own minus opponent pieces on their pre-pre-goal
//!               rows: (max(1, 16 - h), max(1, 16 + h)); or (1, 1) when Options::material_init is off)
//!     loop:
//!         compute pn, dn; if pn >= thpn or dn >= thdn: break
//!         c1 = child with the smallest dn, dn2 = the second smallest
//!         mid(c1, thdn - dn + c1.pn, min(thpn, dn2 * (1 + ε) + 1))
//!     store (pn, dn) in the table
//! root: mid(root, ∞, ∞)
//! ```
//! The table has buckets of four entries; a new position replaces the entry of the smallest subtree (work), so its
//! memory is fixed by [`Options::tt_mib`] whatever the run length.
//!
//! # Exact distance
//! Fail-soft alpha-beta on scores `WIN - plies` (a win in `p` plies from the root) with its own table of bounds
//! (stored relative to the node), ordering moves by the table move and then by the df-pn table (proven wins first).
//! It gives the distance to the end under best play (the fastest win, the slowest loss) and the best move.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::proof_check::{self, ProofCheck};
use super::table_file::{self, Header, Record};
use crate::game::{Game, MoveList, Outcome, Player};
use crate::games::breakthrough::{Breakthrough, BtMove, BtState};

use crate::games::breakthrough::race::{Race, RaceTable};

/// Proof and disproof numbers at or above this are infinite.
pub const INF: u32 = 1 << 30;
/// Expansions allowed per df-pn run when the proof checker asks for a winning move the table no longer holds.
pub const HINT_BUDGET: u64 = 10_000_000;
const WIN: i32 = 1_000_000;

/// What to solve and with how much memory.
#[derive(Clone, Debug)]
pub struct Options {
    /// Memory of the df-pn table in MiB.
    pub tt_mib: usize,
    /// Rows of the race endgame table used as an oracle (0 = none; 2 or 3 are useful).
    pub race_rows: u32,
    /// Also compute the exact distance to the end (alpha-beta after the proof).
    pub distance: bool,
    /// Memory of the distance table in MiB.
    pub distance_tt_mib: usize,
    /// Prove every root move, to list all winning first moves.
    pub all_winning_moves: bool,
    /// Stop (unsolved) after this many df-pn expansions.
    pub max_nodes: Option<u64>,
    /// Stop (unsolved) after this many seconds of wall time (checked every 65,536 expansions).
    pub max_seconds: Option<f64>,
    /// Progress lines on stderr every `progress_seconds` (0 = silent).
    pub progress_seconds: u64,
    /// Initialise new nodes' (pn, dn) from the material and runner balance instead of (1, 1).
    pub material_init: bool,
    /// Use knowledge rule 5 (the defended runner) in the proof search.
    pub runner_rule: bool,
    /// Share one df-pn table entry between a position and its left-right mirror image.
    pub symmetry: bool,
    /// Knowledge rule 6: search forcing sequences of up to this many runner moves onto the pre-goal row (0 or 1 = off).
    pub threat_depth: u32,
    /// Read the df-pn table from this file when it exists, and save it there when the solve ends (also when it stops
    /// unsolved), so that a long solve goes on across runs ([`super::table_file`]).
    pub table_file: Option<PathBuf>,
    /// Split solve with a `table_file`: also save the table between jobs, at most this often (seconds).
    pub save_every_seconds: Option<f64>,
    /// After a solve that decides the position, check the proof with [`super::proof_check`] (the rules alone walk
    /// the proof tree to the end of the game; this solver only proposes the winning moves).
    pub check_proof: bool,
    /// Memory of the proof check's memo of checked positions (MiB; [`proof_check`]).
    pub check_memo_mib: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tt_mib: 256,
            race_rows: 0,
            distance: false,
            distance_tt_mib: 256,
            all_winning_moves: true,
            max_nodes: None,
            max_seconds: None,
            progress_seconds: 0,
            material_init: true,
            runner_rule: true,
            symmetry: true,
            threat_depth: 3,
            table_file: None,
            save_every_seconds: None,
            check_proof: false,
            check_memo_mib: proof_check::DEFAULT_MEMO_MIB,
        }
    }
}

/// The answer.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Solution {
    /// Win or loss for the side to move; `None` when the node budget ran out first.
    pub result: Option<String>,
    /// Plies to the end under best play (fastest win, slowest loss), when the distance was asked for.
    pub plies: Option<u32>,
    /// Every winning first move (all of them when `all_winning_moves`, otherwise the one the proof found); possibly
    /// incomplete when the node budget ran out during those proofs.
    pub winning_moves: Vec<String>,
    /// The fastest win or slowest loss when the distance was computed, otherwise a winning move.
    pub best_move: Option<String>,
    /// df-pn node expansions (the root's proof and the winning-move proofs).
    pub nodes: u64,
    /// Alpha-beta nodes of the distance pass.
    pub distance_nodes: u64,
    pub seconds: f64,
    /// Seconds spent building the race table (included in `seconds`).
    pub race_table_seconds: f64,
    /// The root's proof and disproof numbers at the end (0 / ∞ when solved).
    pub root_pn: u32,
    pub root_dn: u32,
    /// Split solve ([`Solver::split`]): the root moves left undecided when it stopped (empty otherwise).
    pub undecided_moves: Vec<String>,
    /// Expansions of the earlier runs behind a table read from [`Options::table_file`] (not in `nodes`).
    pub earlier_nodes: u64,
    /// With [`Options::check_proof`] and a decided position: the independent check of the proof.
    pub proof_check: Option<ProofCheck>,
}

/// One job of a split solve ([`Solver::split`]): a root move (with the moves that lead to the same position up to
/// mirror symmetry) after one df-pn run on the position it leads to.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Job {
    /// The root: game string and position text (`breakthrough(rows=6,columns=5) ppppp/ppppp/5/5/PPPPP/PPPPP w`).
    pub root: String,
    /// Round of the schedule (the budget doubles every round), 0-based; `None` when the result came from elsewhere.
    pub round: Option<u32>,
    #[serde(rename = "move")]
    pub mv: String,
    /// Other root moves reaching the mirror image of the same position (they share the result).
    pub mirrors: Vec<String>,
    /// `"win"` or `"loss"` for the side to move at the root when it plays this move; `None` while open.
    pub result: Option<String>,
    /// Expansions of this job and of all jobs on this move so far.
    pub job_nodes: u64,
    pub move_nodes: u64,
    /// The position after the move: its (pn, dn) from the opponent's point of view (the side to move there).
    pub pn: u32,
    pub dn: u32,
    /// All expansions of the solver so far and the seconds since it started.
    pub total_nodes: u64,
    pub seconds: f64,
}

/// The decided root moves recorded in a file of [`Job`] lines (JSON, one per line, as [`Solver::split`]'s callers
/// write them): every move named by a decided job on `root` (as its move or a mirror) with the result for the root's
/// side to move (`true` = win). Lines that are not decided jobs on `root` ([`Job::root`]) are skipped.
pub fn decided_moves(text: &str, root: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for job in text.lines().filter_map(|l| serde_json::from_str::<Job>(l).ok()).filter(|j| j.root == root) {
        let win = match job.result.as_deref() {
            Some("win") => true,
            Some("loss") => false,
            _ => continue,
        };
        for m in std::iter::once(job.mv).chain(job.mirrors) {
            out.push((m, win));
        }
    }
    out
}

/// Quick verdicts of the knowledge rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Quick {
    Win(u32),
    Loss(u32),
    /// Only captures onto this square (a bitboard) need searching.
    Defend(u64),
    /// Proven win or loss by the race table (weak: no distance).
    RaceWin,
    RaceLoss,
    /// A runner protected at least as often as attacked on the pre-goal row (weak: no distance).
    RunnerWin,
    /// A forcing sequence of runner moves wins (weak: no distance).
    ThreatWin,
    Open,
}

#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
    work: u32,
}

#[derive(Copy, Clone, Default)]
struct AbEntry {
    key: u64,
    value: i32,
    bound: u8,
    from: u8,
    to: u8,
}
const LOWER: u8 = 1;
const UPPER: u8 = 2;
const EXACT: u8 = 3;

/// Solve `state` of `game`. Errors only on a bad option (a race table too large for the board) or a table file that
/// cannot be read or saved.
pub fn solve(game: &Breakthrough, state: &BtState, options: &Options) -> Result<Solution, String> {
    with_solver(game, options, |solver| {
        let mut sol = solver.run(state);
        if options.check_proof
            && let Some(r) = sol.result.as_deref()
        {
            let start = Instant::now();
            let every = options.progress_seconds as f64;
            let mut last = 0.0;
            if every > 0.0 {
                eprintln!("proof check: memo of {} MiB", options.check_memo_mib);
            }
            let mut progress = |c: &ProofCheck| {
                let t = start.elapsed().as_secs_f64();
                if every > 0.0 && t - last >= every {
                    last = t;
                    eprintln!(
                        "proof check: {t:.0} s, {} + {} positions, {} ends of the game, {} remembered",
                        c.or_positions, c.and_positions, c.terminal_positions, c.memo_stored
                    );
                }
            };
            let mut oracle = |s: &BtState| solver.winning_moves_hint(s);
            sol.proof_check = Some(proof_check::check_with_progress(
                game,
                state,
                r == "win",
                options.check_memo_mib,
                &mut oracle,
                &mut progress,
            ));
        }
        sol
    })
}

/// [`solve`] job by job: [`Solver::split`] with the race table of `options`. The distance is not computed.
pub fn solve_split(
    game: &Breakthrough,
    state: &BtState,
    options: &Options,
    first: &[String],
    budget: u64,
    known: &mut dyn FnMut(&str) -> Option<bool>,
    report: &mut dyn FnMut(&Job),
) -> Result<Solution, String> {
    with_solver(game, options, |solver| solver.split(state, first, budget, known, report))
}

/// A solver with the race table of `options`, given to `run`; the answer's times include the table's build.
fn with_solver(
    game: &Breakthrough,
    options: &Options,
    run: impl FnOnce(&mut Solver) -> Solution,
) -> Result<Solution, String> {
    let start = Instant::now();
    let race = race_table(game, options)?;
    let race_seconds = race.as_ref().map_or(0.0, |r| r.build_seconds);
    let mut solver = Solver::new(game, options, race);
    if let Some(path) = options.table_file.as_deref().filter(|p| p.exists()) {
        solver.load_table(path)?;
    }
    let mut sol = run(&mut solver);
    if let Some(path) = &options.table_file {
        solver.save_table(path).map_err(|e| {
            format!(
                "could not save the df-pn table to {}: {e} (the solve itself ended: result {}, {} expansions)",
                path.display(),
                sol.result.as_deref().unwrap_or("open"),
                sol.nodes
            )
        })?;
    }
    sol.earlier_nodes = solver.earlier_nodes;
    sol.race_table_seconds = race_seconds;
    sol.seconds = start.elapsed().as_secs_f64();
    Ok(sol)
}

/// The race table `options` ask for, if the game's rules allow one.
fn race_table(game: &Breakthrough, options: &Options) -> Result<Option<RaceTable>, String> {
    if options.race_rows == 0 || !game_knowledge(game) {
        return Ok(None);
    }
    if options.race_rows >= game.rows {
        return Err(format!("race table of {} rows on a board of {} rows", options.race_rows, game.rows));
    }
    Ok(Some(RaceTable::build(game.columns, options.race_rows)?))
}

/// Whether the knowledge rules apply (normal rules only).
fn game_knowledge(g: &Breakthrough) -> bool {
    !g.misere && !g.forced_captures
}

/// The df-pn solver and its tables. Reusable: [`Solver::prove`] and [`Solver::split`] keep the tables between calls.
pub struct Solver<'a> {
    g: &'a Breakthrough,
    knowledge: bool,
    c: u32,
    board: u64,
    not_first: u64,
    not_last: u64,
    /// Pre-goal and pre-pre-goal rows by side index.
    pre: [u64; 2],
    prepre: [u64; 2],
    race: Option<RaceTable>,
    /// Buckets of four entries; a key's bucket is the high half of `key * tt.len()` (any length, not only powers of two).
    tt: Vec<[Entry; 4]>,
    ab: Vec<[AbEntry; 2]>,
    ab_mask: usize,
    nodes: u64,
    ab_nodes: u64,
    max_nodes: u64,
    aborted: bool,
    options: Options,
    start: Instant,
    last_report: f64,
    runner_rule: bool,
    threat_rule: bool,
    /// Column reversal of one row's bits (empty: no symmetry).
    mirror: Vec<u64>,
    /// Root key and its children's (pn, dn) refreshed at every root iteration, for the progress lines.
    root_key: u64,
    root_kids: (usize, usize, usize),
    root_pn_dn: (u32, u32),
    /// Expansions behind a table read from a file; seconds (since `start`) of the last save.
    earlier_nodes: u64,
    last_save: f64,
}

fn table_len(mib: usize, entry_bytes: usize) -> usize {
    let want = (mib.max(1) * 1024 * 1024) / entry_bytes;
    if want <= 1 { 1 } else { 1usize << (usize::BITS - 1 - want.leading_zeros()) }
}

/// The df-pn table: as many buckets as `mib` holds (no rounding to a power of two, so that e.g. 10 GiB means 10 GiB),
/// marked for transparent huge pages before its pages are first written.
fn df_table(mib: usize) -> Vec<[Entry; 4]> {
    let n = ((mib.max(1) * 1024 * 1024) / std::mem::size_of::<[Entry; 4]>()).max(1);
    let mut tt = Vec::with_capacity(n);
    super::advise_huge_pages(tt.spare_capacity_mut());
    tt.resize(n, [Entry::default(); 4]);
    tt
}

impl<'a> Solver<'a> {
    pub fn new(g: &'a Breakthrough, options: &Options, race: Option<RaceTable>) -> Self {
        let c = g.columns;
        let board = g.board_mask();
        let m =
            if options.distance { table_len(options.distance_tt_mib, std::mem::size_of::<[AbEntry; 2]>()) } else { 1 };
        Solver {
            g,
            knowledge: game_knowledge(g),
            c,
            board,
            not_first: board & !g.file_mask(0),
            not_last: board & !g.file_mask(c - 1),
            pre: [g.row_mask(g.rows - 2), g.row_mask(1)],
            prepre: [g.row_mask(g.rows - 3), g.row_mask(2)],
            race,
            tt: df_table(options.tt_mib),
            ab: vec![[AbEntry::default(); 2]; m],
            ab_mask: m - 1,
            nodes: 0,
            ab_nodes: 0,
            max_nodes: options.max_nodes.unwrap_or(u64::MAX),
            aborted: false,
            options: options.clone(),
            start: Instant::now(),
            last_report: 0.0,
            runner_rule: g.rows >= 4 && options.runner_rule,
            threat_rule: g.rows >= 4 && options.threat_depth >= 2,
            mirror: if options.symmetry {
                (0..1u64 << c)
                    .map(|bits| (0..c).filter(|&k| bits >> k & 1 != 0).map(|k| 1u64 << (c - 1 - k)).sum())
                    .collect()
            } else {
                Vec::new()
            },
            root_key: 0,
            root_kids: (0, 0, 0),
            root_pn_dn: (0, 0),
            earlier_nodes: 0,
            last_save: 0.0,
        }
    }

    /// Squares attacked (diagonally forward) by `side`'s pieces `p`.
    #[inline(always)]
    fn attacks(&self, side: Player, p: u64) -> u64 {
        let c = self.c;
        match side {
            Player::First => (((p & self.not_first) << (c - 1)) | ((p & self.not_last) << (c + 1))) & self.board,
            Player::Second => ((p & self.not_first) >> (c + 1)) | ((p & self.not_last) >> (c - 1)),
        }
    }

    #[inline]
    fn quick(&self, s: &BtState, weak: bool) -> Quick {
        if let Some(o) = self.g.outcome(s) {
            return if o == Outcome::Win { Quick::Win(0) } else { Quick::Loss(0) };
        }
        if !self.knowledge {
            return Quick::Open;
        }
        let me = s.stm;
        let (own, opp) = Breakthrough::own_opp(s);
        if own & self.pre[me.index()] != 0 {
            return Quick::Win(1);
        }
        let threats = opp & self.pre[me.other().index()];
        if threats != 0 {
            if threats.count_ones() >= 2 || self.attacks(me, own) & threats == 0 {
                return Quick::Loss(2);
            }
            return Quick::Defend(threats);
        }
        let runners = own & self.prepre[me.index()];
        if runners != 0 {
            let c = self.c;
            let empty = self.board & !(own | opp);
            let landing = match me {
                Player::First => ((runners << c) & empty) | (self.attacks(me, runners) & !own),
                Player::Second => ((runners >> c) & empty) | (self.attacks(me, runners) & !own),
            };
            if landing & !self.attacks(me.other(), opp) != 0 {
                return Quick::Win(3);
            }
            if weak && self.runner_rule && self.defended_runner(me, own, opp, runners) {
                return Quick::RunnerWin;
            }
            if weak && self.threat_rule && self.threat_win(me, own, opp, self.options.threat_depth) {
                return Quick::ThreatWin;
            }
        }
        if weak && self.race.is_some() {
            match self.race_only(s) {
                Some(Outcome::Win) => return Quick::RaceWin,
                Some(_) => return Quick::RaceLoss,
                None => {}
            }
        }
        Quick::Open
    }

    /// The squares the piece `r` of `me` can move to: straight forward onto an empty square, diagonally forward onto
    /// any square without an own piece.
    #[inline(always)]
    fn steps(&self, me: Player, r: u64, own: u64, empty: u64) -> u64 {
        let fwd = match me {
            Player::First => (r << self.c) & empty,
            Player::Second => (r >> self.c) & empty,
        };
        fwd | (self.attacks(me, r) & !own)
    }

    /// Rule 5 (weak): a runner of `me` on its pre-pre-goal row can step to a square `x` of the pre-goal row that
    /// `a >= 1` opponent pieces attack and `d >= a` other own pieces defend. Called only when the side to move has no
    /// piece on its pre-goal row, the opponent none on its own, and no runner has an unattacked landing square.
    fn defended_runner(&self, me: Player, own: u64, opp: u64, runners: u64) -> bool {
        let empty = self.board & !(own | opp);
        let mut rs = runners;
        while rs != 0 {
            let r = rs & rs.wrapping_neg();
            rs &= rs - 1;
            let mut xs = self.steps(me, r, own, empty);
            let rest = own & !r;
            while xs != 0 {
                let x = xs & xs.wrapping_neg();
                xs &= xs - 1;
                let a = (self.attacks(me, x) & opp).count_ones();
                let d = (self.attacks(me.other(), x) & rest).count_ones();
                if a >= 1 && d >= a {
                    return true;
                }
            }
        }
        false
    }

    /// The df-pn table's key of `s`: with [`Options::symmetry`], a hash of the smaller of the position and its
    /// left-right mirror image (the rules, the knowledge, the race tables and the initial pn/dn are all symmetric, so
    /// both share one entry); otherwise the game's Zobrist key.
    #[inline]
    fn tkey(&self, s: &BtState) -> u64 {
        if self.mirror.is_empty() {
            return s.key;
        }
        let (mw, mb) = (self.mirrored(s.white), self.mirrored(s.black));
        let (w, b) = if (s.white, s.black) <= (mw, mb) { (s.white, s.black) } else { (mw, mb) };
        // splitmix64-style mixing of the two bitboards and the side to move.
        let mut h = w.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ b.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ (s.stm == Player::Second) as u64;
        h ^= h >> 31;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 27;
        h = h.wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 31)
    }

    /// `b` with its columns reversed.
    #[inline(always)]
    fn mirrored(&self, b: u64) -> u64 {
        let c = self.c;
        let row = (1u64 << c) - 1;
        let mut out = 0;
        for r in 0..self.g.rows {
            out |= self.mirror[((b >> (r * c)) & row) as usize] << (r * c);
        }
        out
    }

    /// Rule 6 (weak): `me` (to move, no piece on its pre-goal row; the opponent none on its own) wins by at most
    /// `depth` runner moves onto its pre-goal row: some move of a piece from the pre-pre-goal row to a square `x` of the
    /// pre-goal row such that either nothing attacks `x` (or the opponent has no piece left), or after every capture
    /// on `x` (the opponent's only moves that do not lose at once) the same holds with `depth - 1`. The opponent's
    /// captures land on its second row, never on its pre-goal row, so it never gets a threat of its own.
    fn threat_win(&self, me: Player, own: u64, opp: u64, depth: u32) -> bool {
        if depth == 0 {
            return false;
        }
        let empty = self.board & !(own | opp);
        let mut rs = own & self.prepre[me.index()];
        while rs != 0 {
            let r = rs & rs.wrapping_neg();
            rs &= rs - 1;
            let mut xs = self.steps(me, r, own, empty);
            while xs != 0 {
                let x = xs & xs.wrapping_neg();
                xs &= xs - 1;
                let own1 = own ^ r ^ x;
                let opp1 = opp & !x;
                let mut att = self.attacks(me, x) & opp1;
                if opp1 == 0 || att == 0 {
                    return true;
                }
                if depth == 1 {
                    continue;
                }
                let own2 = own1 & !x;
                if own2 == 0 {
                    continue;
                }
                let mut all = true;
                while att != 0 {
                    let a = att & att.wrapping_neg();
                    att &= att - 1;
                    if !self.threat_win(me, own2, opp1 ^ a ^ x, depth - 1) {
                        all = false;
                        break;
                    }
                }
                if all {
                    return true;
                }
            }
        }
        false
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        ((key as u128 * self.tt.len() as u128) >> 64) as usize
    }

    /// Starts loading `key`'s bucket into the cache (its 96 bytes span two cache lines), so that the probes of a
    /// node's children, issued together, wait for memory once instead of once per child.
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.tt.as_ptr().wrapping_add(self.bucket(key)) as *const i8;
            // SAFETY: SSE is part of the x86_64 baseline, and a prefetch is a hint that never faults, whatever the
            // address (the second line may lie past the table's end).
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(p);
                _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64));
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    fn probe(&self, key: u64) -> Option<(u32, u32)> {
        let b = &self.tt[self.bucket(key)];
        b.iter().find(|e| e.key == key && e.work != 0).map(|e| (e.pn, e.dn))
    }

    fn store(&mut self, key: u64, pn: u32, dn: u32, work: u64) {
        let work = work.clamp(1, u32::MAX as u64) as u32;
        let i = self.bucket(key);
        let b = &mut self.tt[i];
        let mut slot = 0;
        for (i, e) in b.iter().enumerate() {
            if e.key == key {
                slot = i;
                break;
            }
            if e.work < b[slot].work {
                slot = i;
            }
        }
        let e = &mut b[slot];
        let work = if e.key == key { work.max(e.work) } else { work };
        *e = Entry { key, pn, dn, work };
    }

    fn initial(&self, s: &BtState) -> (u32, u32) {
        self.initial_keyed(s, self.tkey(s))
    }

    /// [`Solver::initial`] with the table key already computed.
    fn initial_keyed(&self, s: &BtState, key: u64) -> (u32, u32) {
        if let Some(v) = self.probe(key) {
            return v;
        }
        match self.quick(s, true) {
            Quick::Win(_) | Quick::RaceWin | Quick::RunnerWin | Quick::ThreatWin => (0, INF),
            Quick::Loss(_) | Quick::RaceLoss => (INF, 0),
            Quick::Defend(_) | Quick::Open => self.heuristic(s),
        }
    }

    /// Initial (pn, dn) of a new open node: `(1, 1)`, or with [`Options::material_init`] `h = 8m + 4r` from the
    /// material balance `m` (own minus opponent pieces, side to move's view) and the runner balance `r` (own pieces on
    /// the own pre-pre-goal row minus the opponent's on its own): `(max(1, 16 - h), max(1, 16 + h))`.
    #[inline]
    fn heuristic(&self, s: &BtState) -> (u32, u32) {
        if !self.options.material_init {
            return (1, 1);
        }
        let (own, opp) = Breakthrough::own_opp(s);
        let me = s.stm.index();
        let m = own.count_ones() as i32 - opp.count_ones() as i32;
        let r = (own & self.prepre[me]).count_ones() as i32 - (opp & self.prepre[1 - me]).count_ones() as i32;
        let h = 8 * m + 4 * r;
        ((16 - h).max(1) as u32, (16 + h).max(1) as u32)
    }

    fn moves(&self, s: &BtState, q: Quick, list: &mut MoveList<BtMove>) {
        self.g.generate_moves(s, list);
        if let Quick::Defend(t) = q {
            list.retain(|m| (1u64 << m.to) & t != 0);
        }
    }

    fn report(&mut self) {
        let t = self.start.elapsed().as_secs_f64();
        if self.options.max_seconds.is_some_and(|m| t >= m) {
            self.aborted = true;
        }
        if self.options.progress_seconds > 0 && t - self.last_report >= self.options.progress_seconds as f64 {
            self.last_report = t;
            let used = self.tt.iter().flatten().filter(|e| e.work != 0).count();
            let (won, lost, all) = self.root_kids;
            eprintln!(
                "df-pn: {} nodes, {:.0} s, {:.0} nodes/s, table {:.1}% full; root pn {} dn {}, moves: {} of {} lose, {} win",
                self.nodes,
                t,
                self.nodes as f64 / t.max(1e-9),
                100.0 * used as f64 / (self.tt.len() * 4) as f64,
                self.root_pn_dn.0,
                self.root_pn_dn.1,
                lost,
                all,
                won,
            );
        }
    }

    /// One df-pn call; returns the node's (pn, dn).
    fn mid(&mut self, s: &BtState, key: u64, thpn: u32, thdn: u32) -> (u32, u32) {
        let q = self.quick(s, true);
        match q {
            Quick::Win(_) | Quick::RaceWin | Quick::RunnerWin | Quick::ThreatWin => return (0, INF),
            Quick::Loss(_) | Quick::RaceLoss => return (INF, 0),
            _ => {}
        }
        self.nodes += 1;
        let nodes_before = self.nodes;
        if self.nodes >= self.max_nodes {
            self.aborted = true;
        }
        if self.nodes & 0xFFFF == 0 {
            self.report();
        }
        let mut list = MoveList::new();
        self.moves(s, q, &mut list);
        // (child, pn, dn, key): keys first and their buckets prefetched, then the probes.
        let mut kids: arrayvec::ArrayVec<(BtState, u32, u32, u64), 256> = arrayvec::ArrayVec::new();
        for &m in &list {
            let mut c = *s;
            self.g.play(&mut c, m);
            let k = self.tkey(&c);
            self.prefetch(k);
            kids.push((c, 0, 0, k));
        }
        for k in kids.iter_mut() {
            (k.1, k.2) = self.initial_keyed(&k.0, k.3);
        }
        let (mut pn, mut dn);
        loop {
            pn = INF;
            let mut dn_sum = 0u64;
            let mut best = 0;
            let mut dn2 = INF;
            for (i, k) in kids.iter().enumerate() {
                if k.2 < pn {
                    dn2 = pn;
                    pn = k.2;
                    best = i;
                } else if k.2 < dn2 {
                    dn2 = k.2;
                }
                dn_sum += k.1 as u64;
            }
            dn = if pn == 0 || kids.iter().any(|k| k.1 >= INF) { INF } else { dn_sum.min(INF as u64 - 1) as u32 };
            if pn == 0 {
                dn = INF;
            }
            if dn == 0 {
                pn = INF;
            }
            if key == self.root_key {
                self.root_pn_dn = (pn, dn);
                let lost = kids.iter().filter(|k| k.1 == 0).count();
                let won = kids.iter().filter(|k| k.2 == 0).count();
                self.root_kids = (won, lost, kids.len());
            }
            if pn >= thpn || dn >= thdn || self.aborted {
                break;
            }
            let child_pn = kids[best].1;
            let cthpn = (thdn as u64 - dn as u64 + child_pn as u64).min(INF as u64) as u32;
            let cthdn = (thpn as u64).min(dn2 as u64 + dn2 as u64 / 4 + 1).min(INF as u64) as u32;
            let (c, ckey) = (kids[best].0, kids[best].3);
            let (cpn, cdn) = self.mid(&c, ckey, cthpn, cthdn);
            kids[best].1 = cpn;
            kids[best].2 = cdn;
        }
        let work = self.nodes - nodes_before + 1;
        if !self.aborted || pn == 0 || dn == 0 {
            self.store(key, pn, dn, work);
        }
        (pn, dn)
    }

    /// Prove or disprove `s` (df-pn from the root until solved or out of budget). Returns (pn, dn).
    pub fn prove(&mut self, s: &BtState) -> (u32, u32) {
        let (pn, dn) = self.initial(s);
        if pn == 0 || dn == 0 {
            return (pn, dn);
        }
        self.root_key = self.tkey(s);
        self.mid(s, self.root_key, INF, INF)
    }

    /// The knowledge rules' verdict on `s` as df-pn uses it (weak: race tables and rule 5 included): the outcome for
    /// the side to move and the name of the deciding rule, `None` when no rule decides.
    pub fn rule_verdict(&self, s: &BtState) -> Option<(Outcome, &'static str)> {
        match self.quick(s, true) {
            Quick::Win(0) => Some((Outcome::Win, "over")),
            Quick::Loss(0) => Some((Outcome::Loss, "over")),
            Quick::Win(1) => Some((Outcome::Win, "win in 1")),
            Quick::Loss(_) => Some((Outcome::Loss, "loss in 2")),
            Quick::Win(_) => Some((Outcome::Win, "win in 3")),
            Quick::RunnerWin => Some((Outcome::Win, "defended runner")),
            Quick::ThreatWin => Some((Outcome::Win, "threat sequence")),
            Quick::RaceWin => Some((Outcome::Win, "race")),
            Quick::RaceLoss => Some((Outcome::Loss, "race")),
            Quick::Defend(_) | Quick::Open => None,
        }
    }

    /// The race tables' verdict alone on `s` (side to move's view), `None` when they say nothing or are absent.
    pub fn race_verdict(&self, s: &BtState) -> Option<Outcome> {
        if !self.knowledge || self.g.outcome(s).is_some() {
            return None;
        }
        self.race_only(s)
    }

    fn race_only(&self, s: &BtState) -> Option<Outcome> {
        match self.race.as_ref()?.verdict(self.g, s)? {
            Race::Win(_) => Some(Outcome::Win),
            Race::Loss(_) => Some(Outcome::Loss),
        }
    }

    /// Df-pn expansions so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// What a saved table of this solver says about itself (the key scheme: game, symmetry, fingerprint).
    fn table_header(&self) -> Header {
        Header {
            game: self.g.spec(),
            symmetry: !self.mirror.is_empty(),
            fingerprint: self.tkey(&self.g.start()),
            buckets: self.tt.len() as u64,
            nodes: self.earlier_nodes + self.nodes,
        }
    }

    /// Saves the df-pn table to `path` ([`super::table_file`], atomically: an interrupted save keeps the previous
    /// file). Returns the number of entries saved.
    pub fn save_table(&mut self, path: &Path) -> std::io::Result<u64> {
        let t = Instant::now();
        let tt = &self.tt;
        let n = table_file::write(path, &self.table_header(), |i, out| {
            out.extend(tt[i as usize].iter().filter(|e| e.work != 0).map(|e| Record {
                key: e.key,
                pn: e.pn,
                dn: e.dn,
                work: e.work,
            }))
        })?;
        self.last_save = self.start.elapsed().as_secs_f64();
        if self.options.progress_seconds > 0 {
            eprintln!("df-pn: table saved to {} ({n} entries, {:.1} s)", path.display(), t.elapsed().as_secs_f64());
        }
        Ok(n)
    }

    /// Moves of `s` after which the solver knows (from its table or its knowledge) that the opponent loses, for the
    /// proof checker ([`super::proof_check`]): those the table holds as proved (in move order: ordering them by the
    /// work stored, smallest first, made the proofs walked 4% larger on 5x5), else those its knowledge rules decide.
    /// The children's buckets are prefetched before the probes. When it knows none: a df-pn run on `s`, then if need
    /// be on each child (at most [`HINT_BUDGET`] expansions each, no time limit), and the moves then known. The
    /// checker verifies what is proposed, so nothing here needs to be right.
    pub fn winning_moves_hint(&mut self, s: &BtState) -> Vec<BtMove> {
        let mut list = MoveList::new();
        self.g.generate_moves(s, &mut list);
        let known = |this: &Self| -> Vec<BtMove> {
            let mut kids: arrayvec::ArrayVec<(BtState, u64), 256> = arrayvec::ArrayVec::new();
            for &m in &list {
                let mut c = *s;
                this.g.play(&mut c, m);
                let k = this.tkey(&c);
                this.prefetch(k);
                kids.push((c, k));
            }
            let mut out: Vec<BtMove> = list
                .iter()
                .zip(&kids)
                .filter(|(_, (_, k))| this.probe(*k).is_some_and(|(_, dn)| dn == 0))
                .map(|(&m, _)| m)
                .collect();
            if out.is_empty() {
                out.extend(
                    list.iter().zip(&kids).filter(|(_, (c, k))| this.initial_keyed(c, *k).1 == 0).map(|(&m, _)| m),
                );
            }
            out
        };
        let found = known(self);
        if !found.is_empty() {
            return found;
        }
        let max_seconds = self.options.max_seconds.take();
        self.aborted = false;
        self.max_nodes = self.nodes.saturating_add(HINT_BUDGET);
        self.prove(s);
        let mut found = known(self);
        if found.is_empty() {
            // s itself may be decided by a knowledge rule, which proves nothing about its children: try each.
            for &m in &list {
                let mut c = *s;
                self.g.play(&mut c, m);
                self.aborted = false;
                self.max_nodes = self.nodes.saturating_add(HINT_BUDGET);
                if self.prove(&c).1 == 0 {
                    found.push(m);
                    break;
                }
            }
        }
        self.aborted = false;
        self.max_nodes = self.options.max_nodes.unwrap_or(u64::MAX);
        self.options.max_seconds = max_seconds;
        found
    }

    /// Between two jobs of a split solve: saves the table when [`Options::save_every_seconds`] have passed since the
    /// last save (a failed save is reported on stderr; the final save reports its error).
    fn checkpoint(&mut self) {
        let (Some(path), Some(every)) = (self.options.table_file.clone(), self.options.save_every_seconds) else {
            return;
        };
        if self.start.elapsed().as_secs_f64() - self.last_save >= every
            && let Err(e) = self.save_table(&path)
        {
            eprintln!("df-pn: could not save the table to {}: {e}", path.display());
        }
    }

    /// Reads a table saved by [`Solver::save_table`] for the same game and key scheme into the (empty) table; a table
    /// of another size is re-bucketed (a smaller one keeps, per bucket, the entries of the largest subtrees). On an
    /// error the table is left empty. Returns the number of entries read.
    pub fn load_table(&mut self, path: &Path) -> Result<u64, String> {
        let expected = self.table_header();
        let direct = table_file::read_header(path).map_err(|e| format!("df-pn table {}: {e}", path.display()))?.buckets
            == expected.buckets;
        let mut count = 0u64;
        let mut last = (u64::MAX, 0usize);
        let result = table_file::read(path, &expected, |i, r| {
            count += 1;
            if direct {
                // Same size: each entry goes back to its bucket, in the order saved.
                let slot = if last.0 == i { last.1 + 1 } else { 0 };
                last = (i, slot);
                self.tt[i as usize][slot] = Entry { key: r.key, pn: r.pn, dn: r.dn, work: r.work };
            } else {
                self.store(r.key, r.pn, r.dn, r.work as u64);
            }
        });
        match result {
            Ok(h) => {
                self.earlier_nodes = h.nodes;
                if self.options.progress_seconds > 0 {
                    eprintln!(
                        "df-pn: table read from {} ({count} entries, {} earlier expansions)",
                        path.display(),
                        h.nodes
                    );
                }
                Ok(count)
            }
            Err(e) => {
                self.tt.fill([Entry::default(); 4]);
                Err(format!("df-pn table {}: {e}", path.display()))
            }
        }
    }

    fn run(&mut self, s: &BtState) -> Solution {
        let (pn, dn) = self.prove(s);
        let mut sol = Solution {
            result: None,
            plies: None,
            winning_moves: Vec::new(),
            best_move: None,
            nodes: 0,
            distance_nodes: 0,
            seconds: 0.0,
            race_table_seconds: 0.0,
            root_pn: pn,
            root_dn: dn,
            undecided_moves: Vec::new(),
            earlier_nodes: 0,
            proof_check: None,
        };
        if pn != 0 && dn != 0 {
            sol.nodes = self.nodes;
            return sol;
        }
        let win = pn == 0;
        sol.result = Some(if win { "win" } else { "loss" }.to_string());
        if win {
            let mut list = MoveList::new();
            let q = self.quick(s, true);
            self.moves(s, q, &mut list);
            if matches!(q, Quick::Win(_) | Quick::RaceWin | Quick::RunnerWin | Quick::ThreatWin) {
                self.g.generate_moves(s, &mut list);
            }
            for &m in &list {
                let mut c = *s;
                self.g.play(&mut c, m);
                let (_, cdn) = if self.options.all_winning_moves || sol.winning_moves.is_empty() {
                    self.prove(&c)
                } else {
                    break;
                };
                if cdn == 0 {
                    sol.winning_moves.push(self.g.format_move(s, m));
                }
            }
            sol.best_move = sol.winning_moves.first().cloned();
        }
        if self.options.distance {
            // Root moves one by one, so that the best move is the fastest win (slowest loss) even when a knowledge
            // rule decides the root.
            let mut list = MoveList::new();
            self.g.generate_moves(s, &mut list);
            let mut best = -WIN - 1;
            for &m in &list {
                let mut c = *s;
                self.g.play(&mut c, m);
                let v = -self.alphabeta(&c, -WIN - 1, -best, 1);
                if v > best {
                    best = v;
                    sol.best_move = Some(self.g.format_move(s, m));
                }
            }
            if list.is_empty() {
                best = self.alphabeta(s, -WIN - 1, WIN + 1, 0);
            }
            sol.plies = Some((WIN - best.abs()) as u32);
        }
        sol.nodes = self.nodes;
        sol.distance_nodes = self.ab_nodes;
        sol
    }

    /// Job-level solving of the root, one root move at a time (the "jobs" of Saffidine, Jouandeau and Cazenave's
    /// job-level proof-number search, run in turn on one table instead of on a cluster). The root moves are grouped by
    /// the position they lead to up to mirror symmetry; each group gets a df-pn run of `budget` expansions on that
    /// position, round after round, the budget doubling every round, until every root move is decided (with
    /// [`Options::all_winning_moves`]; without it, until one root move is proven to win, which decides the root), or
    /// [`Options::max_seconds`] runs out. Work is kept between rounds in
    /// the shared table, so a move taken up again resumes where it stopped, and a proof found for one move serves the
    /// others through transpositions.
    ///
    /// `first` names root moves to work on before the others (the others are taken up only when these are all
    /// decided); empty: all at once. `known(move)` is asked before each job: `Some(true)` / `Some(false)` is a result
    /// for the root's side to move obtained elsewhere (another process working on other moves), taken as it is.
    /// `report` gets every job's outcome as it ends.
    pub fn split(
        &mut self,
        s: &BtState,
        first: &[String],
        budget: u64,
        known: &mut dyn FnMut(&str) -> Option<bool>,
        report: &mut dyn FnMut(&Job),
    ) -> Solution {
        struct Group {
            moves: Vec<String>,
            child: BtState,
            key: u64,
            result: Option<bool>,
            nodes: u64,
            pn_dn: (u32, u32),
        }
        let mut list = MoveList::new();
        self.g.generate_moves(s, &mut list);
        let mut groups: Vec<Group> = Vec::new();
        for &m in &list {
            let mut c = *s;
            self.g.play(&mut c, m);
            let key = self.tkey(&c);
            let name = self.g.format_move(s, m);
            match groups.iter_mut().find(|g| g.key == key) {
                Some(g) => g.moves.push(name),
                None => groups.push(Group {
                    moves: vec![name],
                    child: c,
                    key,
                    result: None,
                    nodes: 0,
                    pn_dn: self.initial(&c),
                }),
            }
        }
        let priority = |g: &Group| first.iter().position(|f| g.moves.contains(f)).unwrap_or(usize::MAX);
        groups.sort_by_key(|g| priority(g));
        let root = format!("{} {}", self.g.spec(), self.g.format_position(s));
        let own =
            if first.is_empty() { groups.len() } else { groups.iter().filter(|g| priority(g) != usize::MAX).count() };
        let deadline = self.options.max_seconds.unwrap_or(f64::INFINITY);
        'phases: for phase in [own, groups.len()] {
            let mut round = 0u32;
            while groups[..phase].iter().any(|g| g.result.is_none()) {
                let job_budget = budget.max(1).saturating_mul(1u64 << round.min(40));
                for g in groups[..phase].iter_mut().filter(|g| g.result.is_none()) {
                    let t = self.start.elapsed().as_secs_f64();
                    let mut job = Job {
                        root: root.clone(),
                        round: Some(round),
                        mv: g.moves[0].clone(),
                        mirrors: g.moves[1..].to_vec(),
                        result: None,
                        job_nodes: 0,
                        move_nodes: g.nodes,
                        pn: g.pn_dn.0,
                        dn: g.pn_dn.1,
                        total_nodes: self.nodes,
                        seconds: t,
                    };
                    if let Some(r) = g.moves.iter().find_map(|m| known(m)) {
                        g.result = Some(r);
                        job.round = None;
                    } else {
                        if t >= deadline {
                            break 'phases;
                        }
                        let before = self.nodes;
                        self.aborted = false;
                        self.max_nodes = before.saturating_add(job_budget);
                        let (pn, dn) = self.prove(&g.child);
                        g.nodes += self.nodes - before;
                        g.pn_dn = (pn, dn);
                        g.result = if pn == 0 {
                            Some(false)
                        } else if dn == 0 {
                            Some(true)
                        } else {
                            None
                        };
                        job.job_nodes = self.nodes - before;
                        job.move_nodes = g.nodes;
                        job.pn = pn;
                        job.dn = dn;
                        job.total_nodes = self.nodes;
                        job.seconds = self.start.elapsed().as_secs_f64();
                    }
                    job.result = g.result.map(|w| if w { "win" } else { "loss" }.to_string());
                    report(&job);
                    self.checkpoint();
                    if g.result == Some(true) && !self.options.all_winning_moves {
                        break 'phases;
                    }
                }
                round += 1;
            }
        }
        self.aborted = false;
        let won: Vec<String> = groups.iter().filter(|g| g.result == Some(true)).flat_map(|g| g.moves.clone()).collect();
        let all_lost = groups.iter().all(|g| g.result == Some(false));
        let (root_pn, root_dn) = if !won.is_empty() {
            (0, INF)
        } else if all_lost {
            (INF, 0)
        } else {
            let pn = groups.iter().map(|g| g.pn_dn.1).min().unwrap_or(INF);
            let dn = groups.iter().map(|g| g.pn_dn.0 as u64).sum::<u64>().min(INF as u64 - 1) as u32;
            (pn, dn)
        };
        Solution {
            result: if !won.is_empty() {
                Some("win".to_string())
            } else if all_lost {
                Some("loss".to_string())
            } else {
                None
            },
            plies: None,
            best_move: won.first().cloned(),
            winning_moves: won,
            nodes: self.nodes,
            distance_nodes: 0,
            seconds: self.start.elapsed().as_secs_f64(),
            race_table_seconds: 0.0,
            root_pn,
            root_dn,
            undecided_moves: groups.iter().filter(|g| g.result.is_none()).flat_map(|g| g.moves.clone()).collect(),
            earlier_nodes: 0,
            proof_check: None,
        }
    }

    fn ab_probe(&self, key: u64) -> Option<AbEntry> {
        self.ab[key as usize & self.ab_mask].iter().find(|e| e.key == key && e.bound != 0).copied()
    }

    fn ab_store(&mut self, key: u64, value: i32, bound: u8, m: BtMove) {
        let b = &mut self.ab[key as usize & self.ab_mask];
        // Two slots: the newest entry in slot 0, the previous one kept in slot 1 (same key: overwritten in place).
        let e = AbEntry { key, value, bound, from: m.from, to: m.to };
        if b[0].key == key {
            b[0] = e;
        } else {
            b[1] = b[0];
            b[0] = e;
        }
    }

    /// Exact distance search: scores `WIN - plies` from the root (`ply` = this node's depth), fail-soft.
    fn alphabeta(&mut self, s: &BtState, mut alpha: i32, mut beta: i32, ply: i32) -> i32 {
        self.ab_nodes += 1;
        let q = self.quick(s, false);
        match q {
            Quick::Win(3) => {
                // A win in 1 by other means (capturing the last piece, leaving the opponent without a move)?
                let mut list = MoveList::new();
                self.g.generate_moves(s, &mut list);
                let quick1 = list.iter().any(|&m| {
                    let mut c = *s;
                    self.g.play(&mut c, m);
                    self.g.outcome(&c) == Some(Outcome::Loss)
                });
                return WIN - ply - if quick1 { 1 } else { 3 };
            }
            Quick::Win(p) => return WIN - ply - p as i32,
            Quick::Loss(p) => return -(WIN - ply - p as i32),
            _ => {}
        }
        let mut tt_move = None;
        if let Some(e) = self.ab_probe(s.key) {
            let v = if e.value > 0 { e.value - ply } else { e.value + ply };
            match e.bound {
                EXACT => return v,
                LOWER => alpha = alpha.max(v),
                _ => beta = beta.min(v),
            }
            if alpha >= beta {
                return v;
            }
            tt_move = Some(BtMove { from: e.from, to: e.to });
        }
        let mut list = MoveList::new();
        self.moves(s, q, &mut list);
        // Order: the table move, then children the df-pn table proved lost for the opponent, then the rest.
        let mut scored: arrayvec::ArrayVec<(i32, BtMove), 256> = list
            .iter()
            .map(|&m| {
                let mut c = *s;
                self.g.play(&mut c, m);
                let k = if Some(m) == tt_move {
                    0
                } else {
                    match self.probe(self.tkey(&c)) {
                        Some((_, 0)) => 1,
                        Some((0, _)) => 3,
                        _ => 2,
                    }
                };
                (k, m)
            })
            .collect();
        scored.sort_by_key(|x| x.0);
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_move = scored[0].1;
        for &(_, m) in &scored {
            let mut c = *s;
            self.g.play(&mut c, m);
            let v = -self.alphabeta(&c, -beta, -alpha.max(best), ply + 1);
            if v > best {
                best = v;
                best_move = m;
                if v >= beta {
                    break;
                }
            }
        }
        let bound = if best >= beta {
            LOWER
        } else if best <= alpha0 {
            UPPER
        } else {
            EXACT
        };
        let stored = if best > 0 { best + ply } else { best - ply };
        self.ab_store(s.key, stored, bound, best_move);
        best
    }
}

/// The number of plies in a score of the form `WIN - plies` or `-(WIN - plies)`.
pub fn score_plies(score: i32) -> u32 {
    (WIN - score.abs()) as u32
}
