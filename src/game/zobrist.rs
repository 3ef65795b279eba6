//! Zobrist keys: a fixed pseudo-random table, the same in every run (splitmix64 from a constant seed).

/// Number of keys available to games.
pub(crate) const KEYS: usize = 1024;

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const fn build() -> [u64; KEYS] {
    let mut t = [0u64; KEYS];
    let mut i = 0;
    while i < KEYS {
        t[i] = splitmix(0x005E_ED0F_F1A7_EA00 ^ (i as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
        i += 1;
    }
    t
}

/// The table.
pub(crate) static TABLE: [u64; KEYS] = build();

/// Key number `i`.
#[inline(always)]
pub fn key(i: usize) -> u64 {
    TABLE[i]
}

/// The key for "second player to move".
pub const SIDE: usize = KEYS - 1;
