//! Solvers: exact game-theoretic values.

pub mod breakthrough;
pub mod race;
