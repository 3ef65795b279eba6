//! Exact solving: game-theoretic values under perfect play.
//!
//! - [`connect4`]: a strong Connect Four solver on its own specialised bitboards (Pascal Pons's score convention);
//! - [`generic`]: alpha-beta to the end of the game with a transposition table, for every game of the registry
//!   (strong: plies to the end; weak: win/draw/loss only).

pub mod connect4;
pub mod generic;

pub use connect4::{Geometry, Position, Solver};
pub use generic::{GenericSolver, Solved};
