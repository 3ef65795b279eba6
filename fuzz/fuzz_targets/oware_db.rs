//! Oware database levels (`games::oware::db::Tables::build` reading `DIR/oware-h{H}-n{N}.db`): any bytes given as level
//! `N` give the tables or a one-line error naming the file, never a panic; a level that opens is then used to build
//! level `N + 1` on top of it (its values, whatever they are, feed the next level's retrograde analysis), and every
//! board of both levels is probed. Input: byte 0 picks the houses (1 to 4), byte 1 the level (0 to 5, bits 0-2) and
//! how the file is made valid first (bit 6: the right header and length; bit 7: the right checksum), the rest is the
//! file. The levels below `N` are built once per process in a temporary directory and reused.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use plateau::games::oware::db::{Tables, level_path};
use plateau::games::oware::rank::Ranker;

const HEADER: usize = 40;

fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("plateau-fuzz-oware-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("the temporary directory is made");
        d
    })
}

/// FNV-1a (64 bits), as the level files store it.
fn fnv(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

fuzz_target!(|data: &[u8]| {
    let [h, flags, rest @ ..] = data else { return };
    let houses = 1 + (*h as usize % 4);
    let n = (*flags & 7) as usize % 6;
    let ranker = Ranker::new(2 * houses, n + 1);
    let mut bytes = rest[..rest.len().min(plateau_fuzz::MAX_INPUT)].to_vec();
    if flags & 0x40 != 0 {
        let count = ranker.count(n);
        let mut head = Vec::with_capacity(HEADER);
        head.extend_from_slice(b"PLTOWARE");
        for w in [2u32, houses as u32, n as u32, 0] {
            head.extend_from_slice(&w.to_le_bytes());
        }
        head.extend_from_slice(&count.to_le_bytes());
        head.extend_from_slice(&[0; 8]);
        let mut values: Vec<u8> = bytes.iter().copied().cycle().take(count as usize).collect();
        values.resize(count as usize, 0);
        bytes = head;
        bytes.extend_from_slice(&values);
    }
    if flags & 0x80 != 0 && bytes.len() >= HEADER {
        let sum = fnv(&[&bytes[..32], &bytes[HEADER..]]);
        bytes[32..40].copy_from_slice(&sum.to_le_bytes());
    }
    let d = dir();
    std::fs::write(level_path(d, houses, n), &bytes).expect("the level is written");
    let _ = std::fs::remove_file(level_path(d, houses, n + 1));
    let built = Tables::build(houses, n + 1, Some(d), false);
    // The next input finds the levels below N built, and writes its own level N.
    let _ = std::fs::remove_file(level_path(d, houses, n));
    let _ = std::fs::remove_file(level_path(d, houses, n + 1));
    let tables = match built {
        Ok((t, _)) => t,
        Err(e) => {
            assert!(!e.to_string().contains('\n'), "a multi-line error: {e}");
            return;
        }
    };
    assert_eq!(tables.max_n(), n + 1);
    let mut pits = [0u8; 16];
    for level in [n, n + 1] {
        for i in 0..ranker.count(level) {
            ranker.unrank(i, level, &mut pits[..2 * houses]);
            let _ = tables.value(&pits, level);
        }
    }
});
