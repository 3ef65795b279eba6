//! The engine of chance games: `engine` on a game with chance nodes (Pig, backgammon, `coin_game`, `chance_tree`)
//! is iterative deepening over Star2 with its table (`search/star2.rs`), driven by the catalogue's driver and the one
//! time control (`search/time.rs`).
//!
//! ```text
//! ChanceEngine.search(root):
//!     budget := time plan of the side to move (no new iteration after half a fixed time per move)
//!     for depth := 1, 2, ...  (chance plies count, as in perft)
//!         v := Star2(root, depth, -U, U) with the table: its best moves are searched and probed first
//!         stop when the time or the depth runs out, or the whole game tree was seen
//!     play the root's best move of the last finished iteration
//! ```
//!
//! Parameters: `depth`, `time`, `nodes` as every player, `tt=16mb` (the table's size) and `eval=NAME` (one of the
//! game's evaluations; default the first of `Knowledge::EVALUATIONS`, as for the deterministic engine: backgammon's
//! `tuned`, the `simple` one of the other chance games). The player string it reports is the catalogue's equivalent,
//! `star2(id=true,tt=16mb,...)`.

use crate::game::{FullGame, GameError};
use crate::search::catalogue::{Driver, eval_name};
use crate::search::star2::Star2;
use crate::search::{Limits, Searcher};
use crate::spec::Spec;

/// The table's default size in MiB.
pub(crate) const DEFAULT_TT_MIB: usize = 16;

/// Build the engine of a chance game from an `engine(...)` string.
pub fn build<G: FullGame>(spec: &Spec) -> Result<Box<dyn Searcher<G>>, GameError> {
    let limits = Limits::from_spec(spec)?;
    let mib = spec.mib("tt", DEFAULT_TT_MIB)?.max(1);
    let mut driver = Driver::with_algorithm(limits, Star2::<G>::new(mib));
    driver.iterate = true;
    // No `eval` (or `eval=default`): the game's first evaluation, its strongest, as the deterministic engine.
    let eval = match spec.eval("eval")?.as_deref() {
        None | Some("default") => Some(G::EVALUATIONS[0].to_string()).filter(|n| n != "simple"),
        Some(_) => eval_name::<G>(spec, "engine")?,
    };
    driver.set_eval(eval);
    Ok(Box::new(driver))
}
