//! Resource limits: every size a user can give (tables, threads, databases) has a ceiling here, and a table is
//! checked against the memory the machine has before it is allocated (`docs/reliability.md` lists them all).
//!
//! - Memory: a table larger than the memory available (`MemAvailable` of `/proc/meminfo`, lowered by the cgroup's
//!   `memory.max` when there is one) is refused with a one-line error; an allocation that fails anyway is an error,
//!   never an abort. Large tables are allocated zeroed ([`zeroed_vec`]), so that the system hands out pages only when
//!   they are first written: `--tt 4gb` on a game of 5,478 positions costs a few MiB of resident memory.
//! - Threads: at most [`MAX_THREADS`]; a thread that cannot be started is an error, never a panic.

use std::alloc::{Layout, alloc_zeroed};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, Ordering};

/// The most threads any command or player string accepts (`--threads`, `threads=`, UCI `Threads`).
pub(crate) const MAX_THREADS: usize = 256;

/// The largest table size any flag or parameter accepts, in MiB (1 TiB), before the machine's memory is looked at.
pub(crate) const MAX_TABLE_MIB: usize = 1 << 20;

/// The most games `match` and `stats` accept (`--games`): ten million games of the quickest game take hours;
/// more is a typo or a runaway script. `stats` keeps counts, not games, so its memory does not grow with them.
pub(crate) const MAX_GAMES: usize = 10_000_000;

/// The most games `tune` plays (`--games`): it keeps every quiet position of every game (about 60 a game), so this is
/// also a memory ceiling (a few GiB of samples).
pub(crate) const MAX_TUNE_GAMES: usize = 100_000;

/// The longest game a match plays before calling it a draw (`--max-plies`): a game's moves are kept until it ends.
pub(crate) const MAX_PLIES: usize = 1_000_000;

/// The most training epochs (`tune --epochs`): each is a pass over every sample.
pub(crate) const MAX_EPOCHS: usize = 1_000_000;

/// The deepest fixed-depth search any flag, player parameter or protocol command accepts (`--depth`, `depth=`,
/// `go depth`): one range everywhere.
pub(crate) const MAX_DEPTH: u32 = 200;

/// The longest time any flag, player parameter or protocol command gives (`--time`, `--movetime`, `--tc`, `time=`,
/// `movetime=`, `go movetime`/`wtime`/...): 2^40 ms (about 35 years), one range everywhere.
pub const MAX_MILLIS: u64 = 1 << 40;

/// A node budget (`nodes=` of every player, `uci(nodes=)`, `tune --nodes`, UCI/UGI `go nodes`): at least 1, one
/// message everywhere (`nodes=0` gave an unsearched move). `what` names where it was given (`engine: nodes=0`).
pub fn check_nodes(what: &str, n: u64) -> Result<u64, String> {
    match n {
        0 => Err(format!("{what}: a search needs at least one node")),
        n => Ok(n),
    }
}

/// A number of playouts (`playouts=` of `mcts`, `smmcts`, `ismcts`): at least 1, one message everywhere.
pub fn check_playouts(what: &str, n: u64) -> Result<u64, String> {
    match n {
        0 => Err(format!("{what}: at least one playout is needed")),
        n => Ok(n),
    }
}

/// A count a user gives (`--games N`): a whole number in `min..=max`, else a one-line error naming the ceiling.
pub(crate) fn check_count(what: &str, n: usize, min: usize, max: usize) -> Result<usize, String> {
    if n < min || n > max {
        return Err(format!("{what}: {n} is out of range {min}..={max}"));
    }
    Ok(n)
}

/// `--threads N`: a whole number in `1..=`[`crate::limits::MAX_THREADS`].
pub(crate) fn parse_threads(text: &str) -> Result<usize, String> {
    let n: usize = text.trim().parse().map_err(|_| format!("'{text}' is not a number of threads"))?;
    check_threads("threads", n)
}

/// `--games N` of `match`, `stats`: a whole number in `1..=`[`crate::limits::MAX_GAMES`].
pub(crate) fn parse_games(text: &str) -> Result<usize, String> {
    let n: usize = text.trim().parse().map_err(|_| format!("'{text}' is not a number of games"))?;
    check_count("games", n, 1, MAX_GAMES)
}

/// `--max-plies N`: a whole number in `1..=`[`crate::limits::MAX_PLIES`].
pub(crate) fn parse_max_plies(text: &str) -> Result<usize, String> {
    let n: usize = text.trim().parse().map_err(|_| format!("'{text}' is not a number of plies"))?;
    check_count("plies", n, 1, MAX_PLIES)
}

/// `--max-seconds S` and the like: a finite number of seconds, at least 0.
pub(crate) fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err(format!("'{text}' is not a number of seconds (a finite number, at least 0)")),
    }
}

/// Bytes of memory available to this process now: `MemAvailable` of `/proc/meminfo`, lowered by the cgroup v2 limit
/// (`memory.max - memory.current`) when one is set; `None` where neither can be read (other systems).
pub(crate) fn available_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok().and_then(|t| {
        let line = t.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb.saturating_mul(1024))
    });
    let read = |name: &str| -> Option<u64> {
        std::fs::read_to_string(format!("/sys/fs/cgroup/{name}")).ok()?.trim().parse().ok()
    };
    let cgroup = match (read("memory.max"), read("memory.current")) {
        (Some(max), Some(cur)) => Some(max.saturating_sub(cur)),
        _ => None,
    };
    match (meminfo, cgroup) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// `n` bytes in words: `512 MiB`, `3.5 GiB`.
pub(crate) fn describe_bytes(n: u64) -> String {
    const MIB: f64 = 1024.0 * 1024.0;
    let mib = n as f64 / MIB;
    if mib >= 1024.0 { format!("{:.1} GiB", mib / 1024.0) } else { format!("{mib:.0} MiB") }
}

/// Refuse a table of `bytes` when it is more than the memory available (see [`available_bytes`]).
pub(crate) fn check_bytes(what: &str, bytes: u64) -> Result<(), String> {
    check_against(what, bytes, available_bytes())
}

fn check_against(what: &str, bytes: u64, available: Option<u64>) -> Result<(), String> {
    if bytes > (MAX_TABLE_MIB as u64) << 20 {
        return Err(format!("{what} of {} is over the ceiling of {} MiB", describe_bytes(bytes), MAX_TABLE_MIB));
    }
    match available {
        Some(avail) if bytes > avail => Err(format!(
            "{what} of {} is more than the {} of memory available on this machine",
            describe_bytes(bytes),
            describe_bytes(avail)
        )),
        _ => Ok(()),
    }
}

/// Refuse a number of threads over [`MAX_THREADS`] or zero.
pub(crate) fn check_threads(what: &str, threads: usize) -> Result<usize, String> {
    if threads == 0 || threads > MAX_THREADS {
        return Err(format!("{what}: {threads} threads is out of range 1..={MAX_THREADS}"));
    }
    Ok(threads)
}

/// Types whose all-zero bit pattern is a valid value (their `Default`, for the tables here).
///
/// # Safety
/// Implement only for types made of integers, atomics and arrays of them (no references, no enums without a zero
/// variant, no `Option` of a type without a zero niche).
pub(crate) unsafe trait Zeroable: Sized {}

unsafe impl Zeroable for u64 {}
unsafe impl Zeroable for [u64; 2] {}

/// `n` zeroed values of `T`, after [`check_bytes`]: the system backs the pages only when they are written, so a large
/// table costs what the search touches. An allocation that fails is an error.
pub(crate) fn zeroed_vec<T: Zeroable>(what: &str, n: usize) -> Result<Vec<T>, String> {
    let bytes = n.checked_mul(size_of::<T>()).ok_or_else(|| format!("{what}: {n} entries is too large"))?;
    check_bytes(what, bytes as u64)?;
    alloc_zeroed_vec(n).ok_or_else(|| format!("{what}: cannot allocate {}", describe_bytes(bytes as u64)))
}

/// `n` zeroed values of `T`, or `None` when the allocation fails. A large one is asked to be backed by huge pages
/// ([`huge_pages`]).
fn alloc_zeroed_vec<T: Zeroable>(n: usize) -> Option<Vec<T>> {
    if n == 0 || size_of::<T>() == 0 {
        return Some(Vec::new());
    }
    let layout = Layout::array::<T>(n).ok()?;
    // SAFETY: the layout has a non-zero size (checked above); a null pointer means the allocation failed and is
    // reported. `T: Zeroable` makes the zeroed memory `n` valid values, and the vector owns the allocation with the
    // same layout (capacity `n`, length `n`), as `Vec::from_raw_parts` requires.
    unsafe {
        let ptr = alloc_zeroed(layout) as *mut T;
        if ptr.is_null() {
            return None;
        }
        huge_pages(ptr as *mut u8, layout.size());
        Some(Vec::from_raw_parts(ptr, n, n))
    }
}

/// Start loading the cache line holding the byte at `p` (a table's entry or bucket about to be read), so that a read
/// issued a little later waits for memory less, or not at all. A hint: it never faults, whatever the address, and
/// changes no value; elsewhere than x86-64, nothing. The tables call it once per cache line they want.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE is part of the x86-64 baseline, and a prefetch never faults.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// The size of a huge page (x86-64 and most 64-bit Linux systems).
const HUGE_PAGE: usize = 2 << 20;

/// Ask the system to back the whole pages of `[ptr, ptr + bytes)` with huge pages (Linux's transparent huge pages,
/// `madvise(MADV_HUGEPAGE)`), for a table of at least a few huge pages; elsewhere, or when the system refuses, nothing
/// changes. A table spread over 4 KiB pages costs a page fault the first time each of its pages is written (thousands
/// in a search of a few milliseconds from a fresh table: 8,000 of them in a 33 ms Breakthrough search with the
/// engine's 64 MiB table, which searched 18,000 nodes against 48,000 with a 1 MiB table) and a translation miss at
/// nearly every probe; 2 MiB pages make both 512 times rarer.
fn huge_pages(ptr: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    if bytes >= 4 * HUGE_PAGE {
        const PAGE: usize = 4096;
        let start = (ptr as usize).next_multiple_of(PAGE);
        let end = (ptr as usize + bytes) / PAGE * PAGE;
        // SAFETY: the range lies inside the allocation just made; the advice changes how the kernel backs the
        // pages, never their contents (fresh zeroed memory stays zeroed).
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, bytes, HUGE_PAGE);
}

/// `n` zeroed values of `T` ([`zeroed_vec`]); when they cannot be had (the caller checked the size first, so this is a
/// race with other processes), half as many, down to `min`: a smaller table, never an abort. Halving keeps a power of
/// two a power of two.
pub(crate) fn lazy_table<T: Zeroable>(n: usize, min: usize) -> Vec<T> {
    let min = min.max(1);
    let mut n = n.max(min);
    while n > min {
        if let Ok(v) = zeroed_vec("a table", n) {
            return v;
        }
        n /= 2;
    }
    // A table of `min` entries is small: failing that is running out of memory like any other allocation.
    alloc_zeroed_vec(min).unwrap_or_else(|| std::alloc::handle_alloc_error(Layout::new::<T>()))
}

/// Set by the first Ctrl-C (SIGINT) or SIGTERM once [`catch_interrupt`] was called.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// The number of that signal (0: none yet).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_interrupt(sig: libc::c_int) {
    SIGNAL.store(sig, Ordering::SeqCst);
    INTERRUPTED.store(true, Ordering::SeqCst);
    // A second signal ends the process at once (the default action). `signal` is async-signal-safe.
    // SAFETY: restoring the default disposition of two standard signals.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
        libc::signal(libc::SIGTERM, libc::SIG_DFL);
    }
}

/// For the long commands that keep their work when interrupted (`book build`, the Breakthrough solve with `--table`,
/// retrograde databases): from now on the first Ctrl-C or SIGTERM sets the returned flag instead of ending the
/// process, so that the command stops, saves what it did and says so; a second one ends the process at once. The
/// command then ends with [`interrupt_exit_code`] (`cli::main`). Commands whose work is on disk as it goes call
/// [`exit_on_interrupt`] instead; the others never call either: for them Ctrl-C ends the process as usual.
pub(crate) fn catch_interrupt() -> &'static AtomicBool {
    let handler = on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only stores to atomics and calls `signal`, all async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
    &INTERRUPTED
}

/// The exit code of a command that caught a signal ([`catch_interrupt`]): 128 + its number, the shell's convention
/// (130 for SIGINT, 143 for SIGTERM); `None` when no signal came.
pub(crate) fn interrupt_exit_code() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(128 + sig),
    }
}

/// The name of the signal caught, for the line saying what was saved (`"a signal"` when none was).
pub(crate) fn interrupt_name() -> &'static str {
    match SIGNAL.load(Ordering::SeqCst) {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}

/// The line [`exit_on_interrupt`] writes (leaked once: a signal handler cannot allocate).
static EXIT_LINE: AtomicPtr<String> = AtomicPtr::new(std::ptr::null_mut());

extern "C" fn exit_now(sig: libc::c_int) {
    let name: &[u8] = if sig == libc::SIGINT { b"interrupted (SIGINT): " } else { b"interrupted (SIGTERM): " };
    let line = EXIT_LINE.load(Ordering::SeqCst);
    // SAFETY: `write` and `_exit` are async-signal-safe; the line is a leaked `String`, never freed or changed
    // once stored.
    unsafe {
        libc::write(2, name.as_ptr().cast(), name.len());
        if !line.is_null() {
            let line = &*line;
            libc::write(2, line.as_ptr().cast(), line.len());
        }
        libc::_exit(128 + sig);
    }
}

/// For the long commands whose work is written to disk as it is done (each finished game of `match --record`,
/// `tournament --results`, `tune --save-data`; the checkpoint of every `spsa` iteration): from now on Ctrl-C or
/// SIGTERM writes `interrupted (SIGINT): {what}` on stderr and ends the process with 128 + the signal's number (130,
/// 143). Whatever the signal cuts in the middle (a game being appended, a checkpoint being renamed) is left out by the
/// reader of the file, as after a kill; `what` says where the work is and how to go on.
pub(crate) fn exit_on_interrupt(what: &str) {
    let line: &'static mut String = Box::leak(Box::new(format!("{what}\n")));
    EXIT_LINE.store(line, Ordering::SeqCst);
    let handler = exit_now as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only calls `write` and `_exit` on a line that lives until the end of the process.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_over_the_memory_are_refused() {
        let gib = 1u64 << 30;
        let e = check_against("the table", 32 * gib, Some(8 * gib)).unwrap_err();
        assert!(e.contains("32.0 GiB") && e.contains("8.0 GiB of memory available"), "{e}");
        assert!(check_against("the table", gib, Some(8 * gib)).is_ok());
        assert!(check_against("the table", 2 << 40, None).is_err());
        assert!(check_bytes("the table", u64::MAX).is_err());
    }

    #[test]
    fn zeroed_tables_are_zero_and_refused_when_too_large() {
        let v: Vec<[u64; 2]> = zeroed_vec("t", 1000).unwrap();
        assert_eq!(v.len(), 1000);
        assert!(v.iter().all(|x| *x == [0, 0]));
        assert!(zeroed_vec::<u64>("t", usize::MAX / 4).is_err());
        assert!(zeroed_vec::<u64>("t", 0).unwrap().is_empty());
    }

    #[test]
    fn threads_have_a_ceiling() {
        assert_eq!(check_threads("--threads", 4), Ok(4));
        assert!(check_threads("--threads", 0).is_err());
        assert!(check_threads("--threads", MAX_THREADS + 1).unwrap_err().contains("1..=256"));
    }

    #[test]
    fn counts_have_a_ceiling() {
        assert_eq!(check_count("--games", 10, 1, MAX_GAMES), Ok(10));
        assert!(check_count("--games", 0, 1, MAX_GAMES).unwrap_err().contains("out of range 1..=10000000"));
        assert!(check_count("--games", MAX_GAMES + 1, 1, MAX_GAMES).is_err());
    }

    #[test]
    fn the_memory_is_known_here() {
        // Linux: /proc/meminfo exists, so the check is against a real figure.
        if std::path::Path::new("/proc/meminfo").exists() {
            assert!(available_bytes().is_some_and(|b| b > 0));
        }
    }
}
