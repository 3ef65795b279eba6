//! Breakthrough's evaluations, one type chosen by name (`engine(eval=NAME)`, [`Knowledge::evaluation`]):
//!
//! | name | what | file |
//! |---|---|---|
//! | `nnue` (the engine's default) | `pst` plus a small NNUE network trained on what `pst` misses (128 piece-square inputs per side, integer inference, its accumulators carried by the search; `pst` alone on boards other than 8x8), trained by `plateau tune --eval nnue --residual` | [`nnue`], weights in `nnue_weights.bin` |
//! | `nnue:FILE` | the same with the network of a weights file (`plateau tune --eval nnue --out FILE`), read when the player string is | [`nnue`] |
//! | `pst` | a full piece-square table, safety and race features, fitted by `plateau tune --eval pst` (the default on boards other than 8x8) | [`pst`], weights in [`pst_weights`] |
//! | `nt` | `pst` plus a pattern table over every 2x3 window (`pst` alone on boards the table was not trained for) | [`ntuple`], weights in `nt_weights.bin` |
//! | `tuned` | hand-chosen features blended by phase, weights fitted by Texel's method | [`features`], weights in [`weights`] |
//! | `hand` | the same features with the hand-set weights the tuning started from | [`features`] |
//! | `simple` | material and advancement (the course's algorithms use it) | [`simple`] |
//!
//! The fitting code is in `train/`, above the engine that plays its games.

pub(crate) mod features;
pub mod geometry;
pub mod nnue;
pub(crate) mod ntuple;
pub mod pst;
pub(crate) mod pst_weights;
pub mod simple;
mod terms;
pub mod weights;

/// The checksum that ends a network file ([`nnue`] and [`ntuple`] weights): 64-bit FNV-1a over every byte before it,
/// so that a file with a flipped bit is refused instead of played with.
pub(crate) fn network_checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h: u64, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// `bytes` without their last 8 bytes when those are the [`network_checksum`] of the rest; else the one-line reason.
pub(crate) fn check_network(bytes: &[u8]) -> Result<&[u8], String> {
    let Some(at) = bytes.len().checked_sub(8) else {
        return Err(format!("{} bytes: too short for a network file", bytes.len()));
    };
    let (body, sum) = bytes.split_at(at);
    if u64::from_le_bytes(sum.try_into().expect("8 bytes")) != network_checksum(body) {
        return Err("checksum mismatch: the network file is damaged".into());
    }
    Ok(body)
}

use crate::game::{Evaluator, Game, GameError, err, known_evaluation};

use super::{Breakthrough, BtMove, BtState};

pub(crate) use features::BtEvaluator;
pub(crate) use nnue::NnueEvaluator;
pub(crate) use ntuple::NtEvaluator;
pub(crate) use pst::PstEvaluator;
pub(crate) use simple::SimpleEval;

/// The names of the evaluations, the engine's default first.
pub const NAMES: &[&str] = &["nnue", "pst", "nt", "tuned", "hand", "simple"];

/// `eval=NAME` names one of [`NAMES`] or `nnue:FILE`, a network file this build reads.
pub(crate) fn check_name(name: &str) -> Result<(), GameError> {
    match name.strip_prefix("nnue:") {
        Some(path) => nnue::NnueWeights::from_file(path).map(|_| ()),
        None => known_evaluation(NAMES, name),
    }
}

/// One of Breakthrough's evaluations, built for one board.
// Built once per search and called at every leaf: the variants stay inline (no pointer to follow per evaluation).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum BtEval {
    Simple(SimpleEval),
    Features(BtEvaluator),
    Pst(PstEvaluator),
    Nt(NtEvaluator),
    Nnue(NnueEvaluator),
}

impl Default for BtEval {
    fn default() -> Self {
        BtEval::Simple(SimpleEval)
    }
}

impl BtEval {
    /// The evaluation named `name` for board `g`.
    pub fn named(g: &Breakthrough, name: &str) -> Result<BtEval, GameError> {
        Ok(match name {
            "simple" => BtEval::Simple(SimpleEval),
            "tuned" => BtEval::Features(BtEvaluator::new(g)),
            "hand" => BtEval::Features(BtEvaluator::with_weights(g, weights::HAND_MG, weights::HAND_EG)),
            "pst" => BtEval::Pst(PstEvaluator::new(g)),
            "nt" => match NtEvaluator::new(g) {
                Some(nt) => BtEval::Nt(nt),
                None => BtEval::Pst(PstEvaluator::new(g)),
            },
            "nnue" => match NnueEvaluator::new(g) {
                Some(n) => BtEval::Nnue(n),
                None => BtEval::Pst(PstEvaluator::new(g)),
            },
            other => match other.strip_prefix("nnue:") {
                Some(path) => match NnueEvaluator::with_weights(g, nnue::NnueWeights::from_file(path)?) {
                    Some(n) => BtEval::Nnue(n),
                    None => BtEval::Pst(PstEvaluator::new(g)),
                },
                None => return err(format!("{}: no evaluation '{other}' (known: {})", g.spec(), NAMES.join(", "))),
            },
        })
    }
}

/// Only `nnue` carries something (its accumulators); the other variants leave the carry alone.
impl Evaluator<Breakthrough> for BtEval {
    type Carry = nnue::Accumulator;

    #[inline]
    fn evaluate(&self, g: &Breakthrough, s: &BtState) -> i32 {
        match self {
            BtEval::Simple(e) => e.evaluate(g, s),
            BtEval::Features(e) => e.evaluate(g, s),
            BtEval::Pst(e) => e.evaluate(g, s),
            BtEval::Nt(e) => e.evaluate(g, s),
            BtEval::Nnue(e) => e.evaluate(g, s),
        }
    }

    #[inline]
    fn carry(&self, g: &Breakthrough, s: &BtState, out: &mut nnue::Accumulator) {
        if let BtEval::Nnue(e) = self {
            e.carry(g, s, out);
        }
    }

    #[inline]
    fn carry_move(
        &self,
        g: &Breakthrough,
        s: &BtState,
        m: BtMove,
        parent: &nnue::Accumulator,
        child: &mut nnue::Accumulator,
    ) {
        if let BtEval::Nnue(e) = self {
            e.carry_move(g, s, m, parent, child);
        }
    }

    #[inline]
    fn evaluate_carried(&self, g: &Breakthrough, s: &BtState, carry: &nnue::Accumulator) -> i32 {
        match self {
            BtEval::Nnue(e) => e.evaluate_carried(g, s, carry),
            other => other.evaluate(g, s),
        }
    }

    fn terms(&self, g: &Breakthrough, s: &BtState) -> Vec<crate::game::Term> {
        match self {
            BtEval::Simple(_) => terms::simple(g, s),
            BtEval::Features(e) => terms::features(e, g, s),
            BtEval::Pst(e) => terms::pst(e, g, s),
            BtEval::Nt(e) => terms::nt(e, g, s),
            BtEval::Nnue(e) => vec![crate::game::Term::new("network output", 1, e.evaluate(g, s))],
        }
    }
}
