//! Chess's evaluations, one type chosen by name (`engine(eval=NAME)`, [`Knowledge::evaluation`]):
//!
//! | name | what | file |
//! |---|---|---|
//! | `course` (the engine's default), `simple` (the same, the `Default` the catalogue's algorithms use) | the course's formula: material, doubled, blocked and isolated pawns, mobility | [`course`] |
//! | `pst` | PeSTO's tapered piece-square tables (stronger) | [`pst`], values in [`pesto_tables`] |

pub mod course;
pub(crate) mod pesto_tables;
pub mod pst;

use crate::game::{Evaluator, GameError, Term, err};

use super::{Chess, ChessState};

/// The names of the evaluations, the engine's default first.
pub const NAMES: &[&str] = &["course", "pst", "simple"];

/// One of chess's evaluations.
#[derive(Clone, Debug, Default)]
pub enum ChessEval {
    /// The course's formula.
    #[default]
    Course,
    /// PeSTO's piece-square tables.
    Pst,
}

impl ChessEval {
    /// The evaluation named `name`.
    pub fn named(name: &str) -> Result<ChessEval, GameError> {
        match name {
            "course" | "simple" => Ok(ChessEval::Course),
            "pst" => Ok(ChessEval::Pst),
            other => err(format!("chess: no evaluation '{other}' (known: {})", NAMES.join(", "))),
        }
    }
}

impl Evaluator<Chess> for ChessEval {
    type Carry = ();

    #[inline]
    fn evaluate(&self, _g: &Chess, s: &ChessState) -> i32 {
        match self {
            ChessEval::Course => course::evaluate(s.board()),
            ChessEval::Pst => pst::evaluate(s.board()),
        }
    }

    /// The course's formula term by term (PeSTO's tables are not split into named terms).
    fn terms(&self, _g: &Chess, s: &ChessState) -> Vec<Term> {
        match self {
            ChessEval::Course => course::terms(s.board()),
            ChessEval::Pst => Vec::new(),
        }
    }
}
