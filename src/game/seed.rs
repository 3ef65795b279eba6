//! Seeds derived from seeds: the one way a match's `--seed` becomes the seed of each game's players, so that every
//! random choice of a command (a random player's move, an MCTS playout, a hidden-information player's sample, a book's
//! random pick) comes from `--seed` and a command repeats exactly, whatever the order the games finish in.
//!
//! ```text
//! derive([match seed, game number, seat])          the seed a player gets before game `game number` (arena)
//! Player::reseed(seed) -> Searcher::reseed(seed)   each random player re-seeds its generators from it
//!     a player's own `seed=S` is mixed in:          derive([S, seed]) (two seeds of one player give two streams)
//! ```

/// SplitMix64's finaliser: a well-mixed 64-bit value from any 64-bit value (Steele, Lea & Flood 2014).
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One seed from several numbers (order matters): `derive(&[seed, game, seat])`.
pub fn derive(parts: &[u64]) -> u64 {
    parts.iter().fold(0x5EED_u64, |acc, &p| mix(acc ^ mix(p)))
}

/// The seed a player's generator takes when a caller hands it `seed`: `seed` itself, or mixed with the player's own
/// `seed=` when its string gave one.
pub(crate) fn with_own(own: Option<u64>, seed: u64) -> u64 {
    match own {
        Some(s) => derive(&[s, seed]),
        None => seed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_differ_by_every_part_and_repeat() {
        let a = derive(&[1, 2, 0]);
        assert_eq!(a, derive(&[1, 2, 0]));
        assert_ne!(a, derive(&[1, 2, 1]));
        assert_ne!(a, derive(&[1, 3, 0]));
        assert_ne!(a, derive(&[2, 2, 0]));
        assert_ne!(derive(&[1, 2]), derive(&[2, 1]));
        assert_eq!(with_own(None, 7), 7);
        assert_ne!(with_own(Some(1), 7), with_own(Some(2), 7));
    }
}
