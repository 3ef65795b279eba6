//! `eval=nnue`: a small efficiently updatable neural network (NNUE) for 8x8 Breakthrough, in integer arithmetic.
//!
//! ```text
//! inputs, per perspective P (White, Black): 128 sparse features, one per (owner relative to P, square seen by P)
//!     feature(P, owner, sq) = (0 if owner = P else 64) + (sq if P = White else sq mirrored top to bottom)
//! accumulator  A_P = b1 + sum of W1[f] over P's active features        (i16 x HIDDEN; W1, b1 scaled by QA = 255)
//! hidden       h_P = clamp(A_P, 0, QA)                                   (clipped ReLU)
//! output       o = W2[0..H] . h_stm + W2[H..2H] . h_other + b2           (i32; W2 scaled by QB = 64, b2 by QA QB)
//! value        o * scale / (QA QB)                                       (scale: engine units per logit)
//! incremental (copy-make): after a move from -> to of the side S (a capture when `to` held an enemy piece),
//!     for both perspectives P: A_P -= W1[f(P, S, from)]; A_P += W1[f(P, S, to)]; capture: A_P -= W1[f(P, ¬S, to)]
//! ```
//! The float network it quantizes (the trainer's, `train/nnue_fit.rs`): the same with `h = clamp(a, 0, 1)` and the
//! output a logit, so that `σ(o)` is the side to move's expected score. On boards other than 8x8 `eval=nnue` is `pst`.
//!
//! A *residual* network (magic `PLNNUE02`) adds its value to the `pst` evaluation's: it is trained on what `pst` gets
//! wrong (`σ(K pst / 100 + o)` fitted to the labels), so the hand-made safety and race terms the piece-square inputs
//! cannot see stay in the value.
//!
//! The weights file (`nnue_weights.bin`, embedded; little-endian): the magic `PLNNUE03` (or `PLNNUE04`: residual),
//! `u32` hidden size, `i32` scale, then `i16` W1 (128 x HIDDEN, feature-major), b1 (HIDDEN), W2 (2 HIDDEN), `i32`
//! b2, and the `u64` checksum of all that ([`super::network_checksum`]): a damaged file is refused. The files of
//! earlier builds (`PLNNUE01`, `PLNNUE02`: the same without the checksum) are still read.

use crate::game::{Evaluator, GameError, Side};
use crate::games::breakthrough::{Breakthrough, BtMove, BtState};

use super::PstEvaluator;

/// Features per perspective.
pub(crate) const INPUTS: usize = 128;
/// Hidden units per perspective.
pub(crate) const HIDDEN: usize = 64;
/// Quantization of the first layer (the clipped ReLU's 1.0) and of the output weights.
pub(crate) const QA: i32 = 255;
pub(crate) const QB: i32 = 64;
const MAGIC: &[u8; 8] = b"PLNNUE03";
const MAGIC_RESIDUAL: &[u8; 8] = b"PLNNUE04";
/// The magics of the files of earlier builds, without a checksum.
const OLD_MAGIC: &[u8; 8] = b"PLNNUE01";
const OLD_MAGIC_RESIDUAL: &[u8; 8] = b"PLNNUE02";

/// The committed weights (written by `plateau tune --eval nnue`, see docs/strength.md).
static EMBEDDED: &[u8] = include_bytes!("nnue_weights.bin");

/// The quantized network.
#[derive(Clone, Debug, PartialEq)]
pub struct NnueWeights {
    pub w1: Vec<[i16; HIDDEN]>,
    pub b1: [i16; HIDDEN],
    pub w2: [i16; 2 * HIDDEN],
    pub b2: i32,
    /// Engine units per logit.
    pub scale: i32,
    /// The value is added to `pst`'s.
    pub residual: bool,
}

/// Both perspectives' accumulators, indexed by [`Player::index`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(align(64))]
pub struct Accumulator {
    pub v: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { v: [[0; HIDDEN]; 2] }
    }
}

/// The feature of a piece of `owner` on `sq` seen by `persp` (8x8 squares).
#[inline]
pub fn feature(persp: Side, owner: Side, sq: u32) -> usize {
    let sq = if persp == Side::First { sq } else { sq ^ 56 } as usize;
    if owner == persp { sq } else { 64 + sq }
}

impl NnueWeights {
    /// All zero (the value is 0 everywhere).
    pub fn zero() -> Self {
        NnueWeights {
            w1: vec![[0; HIDDEN]; INPUTS],
            b1: [0; HIDDEN],
            w2: [0; 2 * HIDDEN],
            b2: 0,
            scale: 100,
            residual: false,
        }
    }

    /// The weights as a network file's bytes (what `from_bytes` reads back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = if self.residual { MAGIC_RESIDUAL } else { MAGIC }.to_vec();
        out.extend((HIDDEN as u32).to_le_bytes());
        out.extend(self.scale.to_le_bytes());
        for x in self.w1.iter().flatten().chain(&self.b1).chain(&self.w2) {
            out.extend(x.to_le_bytes());
        }
        out.extend(self.b2.to_le_bytes());
        let sum = super::network_checksum(&out);
        out.extend(sum.to_le_bytes());
        out
    }

    /// Parse [`NnueWeights::to_bytes`] (or a file of an earlier build, without the checksum); a wrong magic, size or
    /// checksum is an error.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, GameError> {
        let bad = |why: &str| GameError::new(format!("nnue weights: {why}"));
        let want = 8 + 4 + 4 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;
        let magic = bytes.get(..8).unwrap_or_default();
        let bytes = if magic == MAGIC || magic == MAGIC_RESIDUAL {
            if bytes.len() != want + 8 {
                return Err(bad(&format!("{} bytes, expected {}", bytes.len(), want + 8)));
            }
            super::check_network(bytes).map_err(|e| bad(&e))?
        } else if magic == OLD_MAGIC || magic == OLD_MAGIC_RESIDUAL {
            bytes
        } else {
            return Err(bad("not a plateau NNUE file (magic PLNNUE03 or PLNNUE04, or PLNNUE01/02 of earlier builds)"));
        };
        if bytes.len() < 16 {
            return Err(bad(&format!("{} bytes, expected {want}", bytes.len())));
        }
        let residual = magic == MAGIC_RESIDUAL || magic == OLD_MAGIC_RESIDUAL;
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        if u32_at(8) as usize != HIDDEN {
            return Err(bad(&format!("hidden size {}, this build reads {HIDDEN}", u32_at(8))));
        }
        if bytes.len() != want {
            return Err(bad(&format!("{} bytes, expected {want}", bytes.len())));
        }
        let scale = u32_at(12) as i32;
        let mut at = 16;
        let mut next = || {
            let v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            at += 2;
            v
        };
        let mut w = NnueWeights::zero();
        w.scale = scale;
        w.residual = residual;
        for row in w.w1.iter_mut() {
            row.iter_mut().for_each(|x| *x = next());
        }
        w.b1.iter_mut().for_each(|x| *x = next());
        w.w2.iter_mut().for_each(|x| *x = next());
        w.b2 = i32::from_le_bytes(bytes[want - 4..].try_into().expect("4 bytes"));
        Ok(w)
    }

    /// The weights of a file written by `plateau tune --eval nnue --out FILE` (`eval=nnue:FILE`).
    pub fn from_file(path: &str) -> Result<Self, GameError> {
        let bad = |why: String| GameError::new(format!("eval=nnue:{path}: {why}"));
        // A network of this build's size is 16,796 bytes: a larger file is refused before it is read.
        let meta = std::fs::metadata(path).map_err(|e| bad(format!("cannot read the weights file: {e}")))?;
        if !meta.is_file() {
            return Err(bad("not a file".into()));
        }
        if meta.len() > crate::files::MAX_NETWORK {
            return Err(bad(format!("{} bytes: not a network file of this build", meta.len())));
        }
        let bytes = std::fs::read(path).map_err(|e| bad(format!("cannot read the weights file: {e}")))?;
        Self::from_bytes(&bytes).map_err(|e| bad(e.0))
    }

    /// The embedded weights.
    pub fn embedded() -> Result<Self, GameError> {
        Self::from_bytes(EMBEDDED)
    }
}

/// The NNUE evaluation of one 8x8 board.
#[derive(Clone, Debug)]
pub struct NnueEvaluator {
    pub weights: Box<NnueWeights>,
    /// The evaluation a residual network corrects.
    base: Option<PstEvaluator>,
}

#[inline]
fn add(acc: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
    for (a, x) in acc.iter_mut().zip(w) {
        *a = a.wrapping_add(*x);
    }
}

impl NnueEvaluator {
    /// The embedded network, on 8x8 boards only (`None` elsewhere).
    pub fn new(g: &Breakthrough) -> Option<Self> {
        let w = NnueWeights::embedded().ok()?;
        Self::with_weights(g, w)
    }

    pub(crate) fn with_weights(g: &Breakthrough, w: NnueWeights) -> Option<Self> {
        let base = w.residual.then(|| PstEvaluator::new(g));
        (g.rows == 8 && g.columns == 8).then(|| NnueEvaluator { weights: Box::new(w), base })
    }

    /// The accumulators of `s` computed from scratch.
    pub(crate) fn refresh(&self, s: &BtState) -> Accumulator {
        let mut acc = Accumulator::default();
        self.refresh_into(s, &mut acc);
        acc
    }

    /// [`Self::refresh`] written into `acc`.
    fn refresh_into(&self, s: &BtState, acc: &mut Accumulator) {
        acc.v = [self.weights.b1; 2];
        for persp in [Side::First, Side::Second] {
            let a = &mut acc.v[persp.index()];
            for (owner, mut bits) in [(Side::First, s.white), (Side::Second, s.black)] {
                while bits != 0 {
                    let sq = bits.trailing_zeros();
                    bits &= bits - 1;
                    add(a, &self.weights.w1[feature(persp, owner, sq)]);
                }
            }
        }
    }

    /// The accumulators after `m` is played in `s` (whose accumulators are `acc`), without touching `s`.
    pub fn update(&self, acc: &Accumulator, s: &BtState, m: BtMove) -> Accumulator {
        let mut out = Accumulator::default();
        self.update_into(acc, s, m, &mut out);
        out
    }

    /// [`Self::update`] written into `out` (the child's slot of the search's carry stack): one pass that reads the
    /// parent and the two or three weight rows and writes the child, no copy of the parent first.
    #[inline]
    pub fn update_into(&self, acc: &Accumulator, s: &BtState, m: BtMove, out: &mut Accumulator) {
        let mover = s.stm;
        let opp_bits = if mover == Side::First { s.black } else { s.white };
        let captured = opp_bits & (1u64 << m.to) != 0;
        let w = &self.weights.w1;
        for persp in [Side::First, Side::Second] {
            let (parent, child) = (&acc.v[persp.index()], &mut out.v[persp.index()]);
            let from = &w[feature(persp, mover, m.from as u32)];
            let to = &w[feature(persp, mover, m.to as u32)];
            if captured {
                let taken = &w[feature(persp, mover.other(), m.to as u32)];
                for i in 0..HIDDEN {
                    child[i] = parent[i].wrapping_sub(from[i]).wrapping_add(to[i]).wrapping_sub(taken[i]);
                }
            } else {
                for i in 0..HIDDEN {
                    child[i] = parent[i].wrapping_sub(from[i]).wrapping_add(to[i]);
                }
            }
        }
    }

    /// The value of the evaluation a residual network corrects (0 for a plain network).
    #[inline]
    pub(crate) fn base_value(&self, g: &Breakthrough, s: &BtState) -> i32 {
        self.base.as_ref().map_or(0, |b| b.evaluate(g, s))
    }

    /// The network's value for `stm` from its accumulators (engine units).
    #[inline]
    pub fn output(&self, acc: &Accumulator, stm: Side) -> i32 {
        let w = &self.weights;
        let mut sum = 0i32;
        for (half, persp) in [stm, stm.other()].into_iter().enumerate() {
            let wts = &w.w2[half * HIDDEN..(half + 1) * HIDDEN];
            // Clipped in 16 bits, then products of 16-bit numbers summed in 32 (the multiply-add instructions).
            for (a, x) in acc.v[persp.index()].iter().zip(wts) {
                sum += (*a).clamp(0, QA as i16) as i32 * *x as i32;
            }
        }
        let o = sum + w.b2;
        ((o as i64 * w.scale as i64) / (QA * QB) as i64) as i32
    }
}

/// In the engine's search the accumulators are the carry: refreshed at the root, updated on every move.
impl Evaluator<Breakthrough> for NnueEvaluator {
    type Carry = Accumulator;

    #[inline]
    fn evaluate(&self, g: &Breakthrough, s: &BtState) -> i32 {
        self.base_value(g, s) + self.output(&self.refresh(s), s.stm)
    }

    #[inline]
    fn carry(&self, _g: &Breakthrough, s: &BtState, out: &mut Accumulator) {
        self.refresh_into(s, out);
    }

    #[inline]
    fn carry_move(&self, _g: &Breakthrough, s: &BtState, m: BtMove, parent: &Accumulator, child: &mut Accumulator) {
        self.update_into(parent, s, m, child);
    }

    #[inline]
    fn evaluate_carried(&self, g: &Breakthrough, s: &BtState, acc: &Accumulator) -> i32 {
        self.base_value(g, s) + self.output(acc, s.stm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, MoveList};
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    fn random_weights(rng: &mut StdRng) -> NnueWeights {
        let mut w = NnueWeights::zero();
        for row in w.w1.iter_mut() {
            row.iter_mut().for_each(|x| *x = rng.random_range(-400..400));
        }
        w.b1.iter_mut().for_each(|x| *x = rng.random_range(-200..300));
        w.w2.iter_mut().for_each(|x| *x = rng.random_range(-120..120));
        w.b2 = rng.random_range(-5000..5000);
        w.scale = 173;
        w
    }

    /// The straightforward reference: the float network the weights stand for, every feature of the board looked
    /// at, rounded the way the integer inference truncates.
    fn reference(w: &NnueWeights, s: &BtState) -> f64 {
        let mut out = w.b2 as f64 / (QA * QB) as f64;
        for (half, persp) in [s.stm, s.stm.other()].into_iter().enumerate() {
            for j in 0..HIDDEN {
                let mut a = w.b1[j] as f64 / QA as f64;
                for sq in 0..64u32 {
                    for (owner, bits) in [(Side::First, s.white), (Side::Second, s.black)] {
                        if bits >> sq & 1 == 1 {
                            a += w.w1[feature(persp, owner, sq)][j] as f64 / QA as f64;
                        }
                    }
                }
                out += a.clamp(0.0, 1.0) * w.w2[half * HIDDEN + j] as f64 / QB as f64;
            }
        }
        out * w.scale as f64
    }

    #[test]
    fn inference_equals_the_reference_and_updates_equal_a_refresh() {
        let g = Breakthrough::default();
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..4 {
            let e = NnueEvaluator::with_weights(&g, random_weights(&mut rng)).unwrap();
            for _ in 0..20 {
                let mut s = g.start();
                let mut acc = e.refresh(&s);
                while g.outcome(&s).is_none() {
                    assert_eq!(acc, e.refresh(&s), "incremental accumulator after every move");
                    let v = e.evaluate(&g, &s);
                    let r = reference(&e.weights, &s);
                    assert!((v as f64 - r).abs() <= 1.0, "integer {v} against reference {r:.3}");
                    let mut moves = MoveList::new();
                    g.generate_moves(&s, &mut moves);
                    let m = moves[rng.random_range(0..moves.len())];
                    acc = e.update(&acc, &s, m);
                    g.play(&mut s, m);
                }
                assert_eq!(acc, e.refresh(&s));
            }
        }
    }

    /// The carry as the engine keeps it (`BtEval`, every named evaluation): the value read with the carry equals the
    /// value from scratch after every move of random games, and so does the null move's fresh carry.
    #[test]
    fn carried_values_equal_values_from_scratch() {
        use crate::games::breakthrough::eval::{BtEval, NAMES};
        let g = Breakthrough::default();
        let mut rng = StdRng::seed_from_u64(5);
        for name in NAMES {
            let e = BtEval::named(&g, name).unwrap();
            for _ in 0..10 {
                let mut s = g.start();
                let mut carry = Accumulator::default();
                e.carry(&g, &s, &mut carry);
                while g.outcome(&s).is_none() {
                    assert_eq!(e.evaluate_carried(&g, &s, &carry), e.evaluate(&g, &s), "{name}");
                    let mut moves = MoveList::new();
                    g.generate_moves(&s, &mut moves);
                    let m = moves[rng.random_range(0..moves.len())];
                    let mut child = Accumulator::default();
                    e.carry_move(&g, &s, m, &carry, &mut child);
                    carry = child;
                    g.play(&mut s, m);
                }
            }
        }
    }

    #[test]
    fn weights_round_trip_and_bad_files_are_errors() {
        let mut rng = StdRng::seed_from_u64(3);
        let w = random_weights(&mut rng);
        assert_eq!(NnueWeights::from_bytes(&w.to_bytes()).unwrap(), w);
        let residual = NnueWeights { residual: true, ..w.clone() };
        assert_eq!(NnueWeights::from_bytes(&residual.to_bytes()).unwrap(), residual);
        // A residual network's value is pst's plus its own.
        let g = Breakthrough::default();
        let (plain, res) =
            (NnueEvaluator::with_weights(&g, w.clone()).unwrap(), NnueEvaluator::with_weights(&g, residual).unwrap());
        let s = g.parse_position("pppppppp/2p2ppp/5p2/pp1p4/7P/1PPP3P/P2PPP2/PPPP1PPP w").unwrap();
        assert_eq!(res.evaluate(&g, &s), plain.evaluate(&g, &s) + PstEvaluator::new(&g).evaluate(&g, &s));
        let bytes = w.to_bytes();
        assert!(NnueWeights::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(NnueWeights::from_bytes(b"nonsense").is_err());
        NnueWeights::embedded().expect("the committed weights load");
        assert_eq!(&EMBEDDED[..8], MAGIC_RESIDUAL, "the committed network carries its checksum");
    }

    #[test]
    fn a_network_with_a_flipped_bit_is_refused_and_old_files_still_read() {
        // Issue 43, point 8: a network file with a flipped bit was accepted (no checksum).
        let w = NnueWeights::embedded().unwrap();
        let bytes = w.to_bytes();
        assert_eq!(bytes, EMBEDDED, "the committed file is what this build writes");
        for bit in [8 * 20, 8 * 1000 + 3, 8 * (bytes.len() - 12) + 7, 8 * (bytes.len() - 1)] {
            let mut b = bytes.clone();
            b[bit / 8] ^= 1 << (bit % 8);
            let e = NnueWeights::from_bytes(&b).unwrap_err().0;
            assert!(e.contains("checksum mismatch") && !e.contains('\n'), "bit {bit}: {e}");
        }
        // A file of an earlier build (no checksum, magic PLNNUE02) reads as the same network.
        let mut old = bytes[..bytes.len() - 8].to_vec();
        old[..8].copy_from_slice(OLD_MAGIC_RESIDUAL);
        assert_eq!(NnueWeights::from_bytes(&old).unwrap(), w);
        // The new magic without its checksum is refused.
        let mut cut = old.clone();
        cut[..8].copy_from_slice(MAGIC_RESIDUAL);
        assert!(NnueWeights::from_bytes(&cut).is_err());
        let g = Breakthrough::default();
        assert!(NnueEvaluator::new(&g).is_some());
        let small = Breakthrough::from_spec(&crate::spec::Spec::parse("breakthrough(rows=6,columns=5)").unwrap());
        assert!(NnueEvaluator::new(&small.unwrap()).is_none(), "8x8 only");
    }

    #[test]
    fn colour_symmetric_network_gives_opposite_views() {
        // The value depends on the side to move's view only: a position and its colour-flipped mirror agree.
        let g = Breakthrough::default();
        let mut rng = StdRng::seed_from_u64(11);
        let e = NnueEvaluator::with_weights(&g, random_weights(&mut rng)).unwrap();
        let mut s = g.start();
        for _ in 0..30 {
            let flip = |b: u64| b.swap_bytes();
            let mirror = BtState { white: flip(s.black), black: flip(s.white), key: 0, stm: s.stm.other() };
            assert_eq!(e.evaluate(&g, &s), e.evaluate(&g, &mirror));
            let mut moves = MoveList::new();
            g.generate_moves(&s, &mut moves);
            if moves.is_empty() || g.outcome(&s).is_some() {
                break;
            }
            g.play(&mut s, moves[rng.random_range(0..moves.len())]);
        }
    }
}
