// Generated from `plateau solve c4 --batch FILE --json` runs (node counts of our solver), see tests/suite/solve.rs.
// Line numbers only: the expected scores are read from the benchmark files.

/// 50 positions, 861287 nodes in all.
const SAMPLE_L1_R2: [usize; 50] = [9, 14, 19, 36, 56, 73, 120, 171, 197, 228, 253, 306, 329, 351, 386, 387, 389, 421, 433, 449, 456, 472, 473, 523, 553, 554, 590, 615, 623, 628, 643, 659, 666, 696, 703, 717, 734, 741, 757, 762, 783, 793, 809, 819, 832, 834, 855, 876, 898, 937];
/// 3 positions, 1915125 nodes in all.
const SAMPLE_L1_R3: [usize; 3] = [59, 60, 82];
