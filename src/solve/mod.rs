//! Exact solving: game-theoretic values under perfect play.
//!
//! - [`connect4`]: a strong Connect Four solver on the game's bitboards (Pascal Pons's score convention);
//! - [`generic`]: alpha-beta to the end of the game with a transposition table, for every game of the registry
//!   (strong: plies to the end; weak: win/draw/loss only);
//! - [`breakthrough`]: a Breakthrough solver (df-pn with game knowledge, bounded table, exact distance pass);
//! - [`dfpn`]: depth-first proof-number search for every game (weak: win/draw/loss);
//! - [`retro`]: retrograde analysis of every position reachable from a root, for every game (strong solution);
//! - [`db`]: its on-disk database, memory-mapped on reading;
//! - [`proof_check`]: an independent check of a win/loss proof, walked with the game's rules alone;
//! - [`threats`]: df-pn with threat-space search through the game's knowledge (Qubic), its proof saved to a file;
//! - [`proof_file`]: that file written, read, and checked with the rules alone (through [`proof_check`]);
//! - [`table_file`]: the Breakthrough df-pn table saved to disk and read back, so that long solves go on across runs;
//! - [`pig`]: Pig (a dice game) by value iteration: the optimal policy and its winning chances;
//! - [`simultaneous`]: games with simultaneous moves by backward induction, a matrix game solved by linear
//!   programming ([`matrix_game`]) at every state: the value and both players' optimal mixed strategies;
//! - [`batch`]: batch files of positions (`plateau solve --batch`): reading, running with the generic solver, report;
//! - [`registry`]: the one table of solvers (`--method`: name, games, default, options, score), which chooses the
//!   solver of a [`request::Request`] and runs it ([`run`]) into a typed [`report::SolveReport`].

pub mod batch;
pub mod breakthrough;
pub mod connect4;
pub mod db;
pub mod dfpn;
pub mod generic;
pub(crate) mod matrix_game;
pub mod pig;
pub(crate) mod pns_player;
pub mod proof_check;
pub(crate) mod proof_file;
pub mod registry;
pub mod report;
pub mod request;
pub mod retro;
pub(crate) mod retro_resume;
pub mod run;
pub mod simultaneous;
pub mod table_file;
pub mod threats;

pub use connect4::Solver;
pub use generic::{GenericSolver, Solved};

/// CPU seconds of the calling thread so far (user + system), `None` off Linux: what a solve job reports as its
/// `cpu_seconds`, whatever else shares the machine.
pub(crate) fn thread_cpu_seconds() -> Option<f64> {
    cpu_seconds("/proc/thread-self/stat")
}

/// CPU seconds (user + system) read from a Linux `stat` file: `/proc/self/stat` for the process,
/// `/proc/thread-self/stat` for the calling thread (100 clock ticks a second); `None` when it cannot be read.
pub(crate) fn cpu_seconds(stat: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(stat).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// Ask Linux for transparent huge pages on a large table (a hint: nothing changes if refused). Call it before the
/// table is first written, so that the kernel backs it with 2 MiB pages from the first page fault: the solvers' tables
/// are probed at random, and 4 KiB pages would cost a TLB miss on nearly every probe.
#[cfg(target_os = "linux")]
pub(crate) fn advise_huge_pages<T>(mem: &[T]) {
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    const HUGE_PAGE: usize = 2 << 20;
    let start = mem.as_ptr() as usize;
    let first = start.div_ceil(HUGE_PAGE) * HUGE_PAGE;
    let end = (start + std::mem::size_of_val(mem)) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: the range lies inside a live allocation owned by the caller (rounded inwards to whole huge pages);
        // madvise only changes how the kernel backs it and never invalidates it.
        unsafe {
            madvise(first as *mut std::ffi::c_void, end - first, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn advise_huge_pages<T>(_mem: &[T]) {}
