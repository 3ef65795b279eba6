//! Korf's 100 random 15-puzzle instances (R. E. Korf, "Depth-first iterative-deepening: an optimal admissible tree
//! search", Artificial Intelligence 27, 1985), with their optimal solution lengths and the number of nodes his IDA*
//! with the Manhattan distance generated. The data file is `tests/data/korf100.txt` (its source is in its header).

/// The data file, embedded.
pub(crate) const DATA: &str = include_str!("../../tests/data/korf100.txt");

/// Korf's published total of generated nodes over the 100 instances (IDA*, Manhattan distance).
pub const KORF_TOTAL_GENERATED: u64 = 35_991_891_075;

/// One instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    pub id: u32,
    pub optimal_length: u32,
    pub korf_generated: u64,
    pub tiles: Vec<u8>,
}

/// Parse the data file format: `id length generated | 16 tiles`, `#` comments.
pub fn parse(text: &str) -> Result<Vec<Instance>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || format!("korf data line {}: expected 'id length generated | 16 tiles'", i + 1);
        let (head, tiles) = line.split_once('|').ok_or_else(bad)?;
        let nums: Vec<u64> = head.split_whitespace().map(|w| w.parse().map_err(|_| bad())).collect::<Result<_, _>>()?;
        let tiles = super::sliding::parse_tiles(tiles).map_err(|e| format!("korf data line {}: {e}", i + 1))?;
        if nums.len() != 3 || tiles.len() != 16 {
            return Err(bad());
        }
        out.push(Instance { id: nums[0] as u32, optimal_length: nums[1] as u32, korf_generated: nums[2], tiles });
    }
    Ok(out)
}

/// The 100 instances.
pub fn instances() -> Vec<Instance> {
    parse(DATA).unwrap_or_default()
}
