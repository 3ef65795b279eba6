//! A df-pn solver with threat-space search, for games whose knowledge names threats (Qubic): it proves that the side
//! to move wins, saves the proof ([`crate::solve::proof_file`]) and its table, and goes on from a saved table.
//!
//! It reads the game only through the [`Game`] trait: the rules, and the knowledge methods [`Game::has_winning_move`],
//! [`Game::forced`] and [`Game::defends`] (a single threat forces the block, two threats lose), [`Game::move_class`]
//! (which moves make a threat) and [`Game::symmetry_key`] (one table entry per orbit of the board's symmetries), asked
//! at once where a game can share their work: [`Game::tactics`] (over, a win in one, what the threats force),
//! [`Game::child_tactics`] and [`Game::child_symmetry_keys`] (of every child of a node), [`Game::retain_threats`] and
//! [`Game::defences`].
//!
//! ```text
//! solve(root):  read --table FILE if it exists (same game, same key scheme)
//!               df-pn for the root player's win (search.rs), threat-space search (tss.rs) at the root player's nodes
//!               save the table every --save-every seconds and at the end (also when stopped: limits, Ctrl-C)
//!               proven: the proof tree's winning moves (proof.rs) -> --proof FILE; --check: the file walked with the
//!               rules alone (proof_check)
//! ```
//! Files: `tss.rs` the threat sequences, `search.rs` the df-pn, `table.rs` its table and table file, `proof.rs` the
//! proof tree, `split.rs` the root split into jobs (`--split`) and their proofs merged.

mod proof;
mod search;
pub mod split;
mod table;
pub mod tss;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::game::FullGame;
use crate::solve::table_file::Header;

/// How to solve.
#[derive(Clone, Debug)]
pub struct Options {
    pub tt_mib: usize,
    pub max_nodes: Option<u64>,
    pub max_seconds: Option<f64>,
    /// Threat sequences: the most threats in one, and the positions one search may visit.
    pub tss: tss::Limits,
    /// The table read at the start (when the file exists) and saved at the end and every `save_every` seconds.
    pub table_file: Option<PathBuf>,
    pub(crate) save_every: f64,
    /// The proof written here when the win is proven.
    pub(crate) proof_file: Option<PathBuf>,
    /// Raised from outside (Ctrl-C with a table file): the search stops and saves.
    pub interrupt: Option<&'static AtomicBool>,
    /// Progress lines every this many seconds (0: none).
    pub progress_seconds: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tt_mib: 128,
            max_nodes: None,
            max_seconds: None,
            tss: tss::Limits { depth: 12, budget: 2_000 },
            table_file: None,
            save_every: 600.0,
            proof_file: None,
            interrupt: None,
            progress_seconds: 0,
        }
    }
}

/// What a solve found.
#[derive(Clone, Debug, Serialize)]
pub struct Solved {
    /// `Some(true)`: the side to move wins (proven); `Some(false)`: it does not (a draw or a loss); `None`: stopped.
    pub win: Option<bool>,
    /// The root's proof and disproof numbers at the end.
    pub root_pn: u32,
    pub root_dn: u32,
    /// A winning move (when proven).
    pub best_move: Option<String>,
    /// df-pn expansions in this run, and in the runs behind the table read.
    pub nodes: u64,
    pub earlier_nodes: u64,
    /// Threat-space searches, the positions they visited, and those that found a winning sequence.
    pub(crate) tss_calls: u64,
    pub(crate) tss_nodes: u64,
    pub(crate) tss_wins: u64,
    /// Table entries in use at the end, and the entries read from `--table`.
    pub(crate) table_entries: u64,
    pub table_read: u64,
    /// The proof: positions stored (where the winner moves and cannot win at once), and the file's bytes.
    pub proof_positions: Option<u64>,
    pub(crate) proof_bytes: Option<u64>,
    pub seconds: f64,
}

/// The key scheme of the table files: the game, symmetry keys, the start's key.
fn header<G: FullGame>(game: &G) -> Header {
    Header { game: game.spec(), symmetry: true, fingerprint: game.symmetry_key(&game.start()), buckets: 0, nodes: 0 }
}

/// Solve `root` (not over) with `options`; `note` gets progress lines. An error is one line (a table or proof file
/// that cannot be read or written).
pub fn solve<G: FullGame>(
    game: &G,
    root: &G::State,
    options: &Options,
    note: &mut dyn FnMut(&str),
) -> Result<Solved, String> {
    let start = Instant::now();
    let mut table = table::Table::new(options.tt_mib);
    let mut head = header(game);
    let mut table_read = 0;
    if let Some(path) = options.table_file.as_ref().filter(|p| p.exists()) {
        let h = table.load(path, &head).map_err(|e| format!("--table {}: {e}", path.display()))?;
        head.nodes = h.nodes;
        table_read = table.used();
        note(&format!("table {}: {table_read} entries read ({} expansions behind them)", path.display(), h.nodes));
    }
    let limits = search::Limits {
        max_nodes: options.max_nodes.unwrap_or(u64::MAX),
        deadline: options.max_seconds.map(|s| start + Duration::from_secs_f64(s)),
        stop: options.interrupt,
        tss: options.tss,
    };
    let earlier = head.nodes;
    let save = |table: &table::Table, nodes: u64| -> Result<(), String> {
        match &options.table_file {
            Some(path) => {
                let h = Header { nodes: earlier + nodes, ..head.clone() };
                table.save(path, &h).map(|_| ()).map_err(|e| format!("--table: {e}"))
            }
            None => Ok(()),
        }
    };
    let mut last_save = Instant::now();
    let mut last_note = Instant::now();
    let every = options.progress_seconds;
    let mut tick_note = |table: &table::Table, nodes: u64| {
        if options.table_file.is_some() && last_save.elapsed().as_secs_f64() >= options.save_every {
            if let Err(e) = save(table, nodes) {
                eprintln!("warning: {e}");
            }
            last_save = Instant::now();
        }
        if every > 0 && last_note.elapsed().as_secs() >= every {
            let secs = start.elapsed().as_secs_f64();
            eprintln!("{nodes} expansions in {secs:.0} s ({:.0}/s)", nodes as f64 / secs.max(1e-9));
            last_note = Instant::now();
        }
    };
    let mut s = search::Search::new(game, table, game.side_to_move(root), limits);
    s.tick = Some(Box::new(&mut tick_note));
    let (pn, dn) = match s.known(root) {
        Some(v) => v,
        None => s.prove(root),
    };
    s.tick = None;
    let mut solved = Solved {
        win: if pn == 0 {
            Some(true)
        } else if dn == 0 {
            Some(false)
        } else {
            None
        },
        root_pn: pn,
        root_dn: dn,
        best_move: None,
        nodes: s.nodes,
        earlier_nodes: earlier,
        tss_calls: 0,
        tss_nodes: 0,
        tss_wins: 0,
        table_entries: 0,
        table_read,
        proof_positions: None,
        proof_bytes: None,
        seconds: 0.0,
    };
    if pn == 0 {
        // The win is in the table: saved before the extraction, which can take long and be stopped (Ctrl-C), so that
        // the same command goes on from the proven root instead of from the last periodic save.
        if options.table_file.is_some() {
            save(&s.table, s.nodes)?;
        }
        // The proof tree, with the limits lifted (re-proving a position whose entry was replaced must not stop).
        s.limits.max_nodes = u64::MAX;
        s.limits.deadline = None;
        s.stopped = false;
        let proof = proof::extract(&mut s, root).map_err(|e| format!("the proof could not be extracted: {e}"))?;
        solved.best_move = proof
            .entries
            .first()
            .map(|(p, m)| game.format_move(p, *m))
            .or_else(|| tss::winning_move(game, root).map(|m| game.format_move(root, m)));
        solved.proof_positions = Some(proof.entries.len() as u64);
        if let Some(path) = &options.proof_file {
            solved.proof_bytes = Some(crate::solve::proof_file::write(game, path, root, &proof.entries)?);
        }
    }
    solved.nodes = s.nodes;
    solved.tss_calls = s.tss_calls;
    solved.tss_nodes = s.tss_nodes;
    solved.tss_wins = s.tss_wins;
    solved.table_entries = s.table.used();
    if options.table_file.is_some() {
        save(&s.table, s.nodes)?;
    }
    solved.seconds = start.elapsed().as_secs_f64();
    Ok(solved)
}
