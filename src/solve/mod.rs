//! Exact solving: game-theoretic values under perfect play.
//!
//! - [`connect4`]: a strong Connect Four solver on its own specialised bitboards (Pascal Pons's score convention);
//! - [`generic`]: alpha-beta to the end of the game with a transposition table, for every game of the registry
//!   (strong: plies to the end; weak: win/draw/loss only);
//! - [`breakthrough`]: a Breakthrough solver (df-pn with game knowledge, bounded table, exact distance pass);
//! - [`dfpn`]: depth-first proof-number search for every game (weak: win/draw/loss);
//! - [`race`]: Breakthrough race endgame tables for the last rows, built by retrograde analysis;
//! - [`retro`]: retrograde analysis of every position reachable from a root, for every game (strong solution);
//! - [`db`]: its on-disk database, memory-mapped on reading.

pub mod breakthrough;
pub mod connect4;
pub mod db;
pub mod dfpn;
pub mod generic;
pub mod race;
pub mod retro;

pub use connect4::{Geometry, Position, Solver};
pub use generic::{GenericSolver, Solved};
