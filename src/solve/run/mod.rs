//! The run functions of the registry's solvers ([`super::registry::SOLVERS`]): each turns a
//! [`super::request::Request`] into a [`super::report::SolveReport`], reading the options its solver takes (the
//! registry has refused the others) and checking their values.
//!
//! - [`classic`]: `connect4`, `alphabeta` (one position or a batch file) and `dfpn-generic`;
//! - [`othello`]: `othello-endgame`; [`breakthrough`]: `breakthrough-dfpn` (one position, or `--split`);
//!   [`split_jobs`]: the split solve's jobs for the Ray cluster driver (Breakthrough's; Qubic's in
//!   [`threats_jobs`]); [`check_split`]: `--check-split`, the split proof check (the command's and the Ray driver's);
//! - [`retro`]: `retro` (build a database, or read one) and `plateau search --db`; [`oware`]: `oware-db`;
//!   [`checkers`]: `checkers-db`;
//! - [`chance`]: `pig` and `simultaneous`;
//! - [`threats`]: `qubic-pns` (df-pn with threat-space search, `--proof`, `--check-proof`, `--split`);
//!   [`threats_jobs`]: its split's jobs for the Ray cluster driver.

pub mod breakthrough;
pub mod chance;
pub mod check_choices;
pub mod check_split;
pub mod checkers;
pub mod classic;
pub mod othello;
pub mod oware;
pub mod retro;
pub mod split_jobs;
pub mod threats;
pub mod threats_jobs;

use crate::game::{FullGame, GameError};

use super::request::Request;

/// The refusal of a solver run on a game of a kind it does not solve. The registry refuses those first
/// (`registry::choose`); the run functions of the generic solvers test `G::KIND` again at compile time (`if const`),
/// so that a solver is compiled only for the games of the kinds it solves.
pub(crate) fn not_for<G: FullGame>(g: &G, solver: &str) -> anyhow::Error {
    anyhow::anyhow!("--method {solver} does not apply to {} (a game with {})", g.spec(), G::KIND.describe())
}

/// The position of `req` in `g`, refused when the game is over there (nothing to solve).
pub(crate) fn root<G: FullGame>(g: &G, req: &Request) -> anyhow::Result<G::State> {
    let state = crate::game::position_at(g, req.position.as_deref(), req.moves.as_deref())?;
    if let Some(o) = g.outcome(&state) {
        anyhow::bail!("the game is over in this position ({o:?} for the side to move): there is nothing to solve");
    }
    Ok(state)
}

/// The position of `req` in `g` (the game may be over there).
pub(crate) fn position<G: FullGame>(g: &G, req: &Request) -> Result<G::State, GameError> {
    crate::game::position_at(g, req.position.as_deref(), req.moves.as_deref())
}
