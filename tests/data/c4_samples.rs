const SAMPLE_L2_R2: [usize; 2] = [1, 2];
const SAMPLE_L1_R1: [usize; 2] = [1, 2];
const SAMPLE_L1_R2: [usize; 2] = [1, 2];
const SAMPLE_L1_R3: [usize; 1] = [3];
