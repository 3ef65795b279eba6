//! Self-play training data written game by game (`plateau tune --save-data FILE`): a long run that is interrupted
//! keeps every finished game, and the same command run again resumes it.
//!
//! ```text
//! file:    "# plateau tune data: game=SPEC nodes=M data_eval=E random_plies=R seed=S"     (the settings)
//!          then each finished game's records (position<TAB>result<TAB>value<TAB>game), one game written at once
//! resume:  the file's settings must be the run's (the number of games may differ: a run with more games extends it);
//!          a last line without its newline is cut; the last game in the file is played again (it may have been
//!          written in part) and every other game found there is skipped. A file that does not start with a data
//!          header (not written by --save-data) is refused, untouched; an empty one is started afresh
//! writes:  what is kept is rewritten atomically ([`crate::files::replace`]), then appended to ([`crate::files::append`])
//! result:  the records of games 0..N in game order, the same whether the run was interrupted or not
//! ```
//!
//! Games that gave no record (no quiet position) leave no trace and are played again on resume: they are short.
//!
//! The data of recorded games (`plateau tune --pgn FILE --save-data OUT`, [`label_to_file`]) is written the same way:
//! its header names the labelling (`nodes`, `data_eval`) and a fingerprint of its sources (the `--data` records and the
//! recorded games), the `--data` records come first (written at once), then each recorded game's records as it is
//! labelled; the same command again labels only the games OUT lacks (the last one again).

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::game::Game;
use crate::games::Breakthrough;

use super::pst_fit::{LabelledGame, Record, data_options, label_game, play_game, read_records, write_records};

/// How the data games are played (the file's header).
#[derive(Clone, Debug)]
pub struct DataSettings<'a> {
    /// Engine nodes a move.
    pub nodes: u64,
    /// The evaluation of the engine that plays them.
    pub data_eval: &'a str,
    pub random_plies: u32,
    pub seed: u64,
}

impl DataSettings<'_> {
    fn header(&self, g: &Breakthrough) -> String {
        format!(
            "# plateau tune data: game={} nodes={} data_eval={} random_plies={} seed={}",
            g.spec(),
            self.nodes,
            self.data_eval,
            self.random_plies,
            self.seed
        )
    }
}

/// Play games `0..games` (those not already in `path`) on `threads` threads, appending each finished game's records
/// to `path`; `progress(games done, of)` after each. Returns the records of all `games` games in game order.
pub fn generate_to_file(
    g: &Breakthrough,
    set: &DataSettings,
    games: u32,
    threads: usize,
    path: &Path,
    progress: impl Fn(usize, usize) + Sync,
) -> anyhow::Result<Vec<Record>> {
    let (mut kept, file) = open_data_file(g, set, path)?;
    let done: HashSet<u32> = kept.iter().map(|r| r.game).collect();
    let todo: Vec<u32> = (0..games).filter(|i| !done.contains(i)).collect();
    let opts = data_options(set.nodes.max(1), set.data_eval);
    let fresh = append_each(g, &todo, games as usize, threads, file, path, progress, |&i| {
        play_game(g, &opts, set.random_plies, set.seed, i)
    })?;
    kept.retain(|r| r.game < games);
    kept.extend(fresh.into_iter().flatten());
    kept.sort_by_key(|r| r.game);
    Ok(kept)
}

/// The data file `path` of the run `set` opened for appending, after an earlier run's records worth keeping (returned)
/// are rewritten atomically (a cut line and the last game gone); a file of other settings, or not a data file, is
/// refused untouched. The cluster's data generation (`datagen_jobs.rs`) opens the file the same way.
pub fn open_data_file(
    g: &Breakthrough,
    set: &DataSettings,
    path: &Path,
) -> anyhow::Result<(Vec<Record>, std::fs::File)> {
    open_with(g, &set.header(g), &[], |_| true, path)
}

/// [`open_data_file`] under `header`: the file starts again with `base` (records known beforehand), then the earlier
/// run's records that `keep` selects (the last game and a cut line gone), which are returned.
fn open_with(
    g: &Breakthrough,
    header: &str,
    base: &[Record],
    keep: impl Fn(&Record) -> bool,
    path: &Path,
) -> anyhow::Result<(Vec<Record>, std::fs::File)> {
    let name = path.display();
    crate::files::check_output(path, "tune: --save-data").map_err(anyhow::Error::msg)?;
    let mut kept = match crate::files::read_if_any(path, crate::files::MAX_DATA, "tune: --save-data")
        .map_err(anyhow::Error::msg)?
    {
        Some(bytes) => resume(g, &bytes, header, &name.to_string())?,
        None => Vec::new(),
    };
    kept.retain(|r| keep(r));
    // Rewrite what is kept (the last game and a cut line gone), then append.
    let kept_text = format!("{header}\n{}{}", write_records(g, base), write_records(g, &kept));
    crate::files::replace(path, kept_text.as_bytes(), "tune: --save-data").map_err(anyhow::Error::msg)?;
    let file = crate::files::append(path, "tune: --save-data").map_err(anyhow::Error::msg)?;
    Ok((kept, file))
}

/// Label the recorded `games` (numbered from `first_id`, after the records of `base`) with the engine of `nodes`
/// and `data_eval` on `threads` threads, writing `base` then each game's records to `path` as it is labelled;
/// `progress(games done, of)` after each. A file of the same labelling and sources is resumed: its games are not
/// labelled again (but the last). Returns `base` and the records of every game, in game order.
#[allow(clippy::too_many_arguments)]
pub fn label_to_file(
    g: &Breakthrough,
    nodes: u64,
    data_eval: &str,
    base: &[Record],
    games: &[LabelledGame],
    first_id: u32,
    threads: usize,
    path: &Path,
    progress: impl Fn(usize, usize) + Sync,
) -> anyhow::Result<Vec<Record>> {
    let header = format!(
        "# plateau tune data: game={} nodes={nodes} data_eval={data_eval} labelled={:016x}",
        g.spec(),
        fingerprint(g, base, games, first_id)
    );
    let ids = first_id..first_id.saturating_add(games.len() as u32);
    let (kept, file) = open_with(g, &header, base, |r| ids.contains(&r.game), path)?;
    let done: HashSet<u32> = kept.iter().map(|r| r.game).collect();
    let todo: Vec<usize> = (0..games.len()).filter(|&i| !done.contains(&(first_id + i as u32))).collect();
    let opts = data_options(nodes.max(1), data_eval);
    let fresh = append_each(g, &todo, games.len(), threads, file, path, progress, |&i| {
        label_game(g, &opts, &games[i], first_id + i as u32)
    })?;
    let mut labelled: Vec<Record> = kept.into_iter().chain(fresh.into_iter().flatten()).collect();
    labelled.sort_by_key(|r| r.game);
    Ok(base.iter().copied().chain(labelled).collect())
}

/// Run `work` on each of `todo` on `threads` threads, appending each result's records to `file` (the data file
/// `path`) as soon as it is done, and calling `progress(games done, of total)` after each (the games already in
/// the file count as done). Returns the results in `todo`'s order.
#[allow(clippy::too_many_arguments)]
fn append_each<T: Sync>(
    g: &Breakthrough,
    todo: &[T],
    total: usize,
    threads: usize,
    file: std::fs::File,
    path: &Path,
    progress: impl Fn(usize, usize) + Sync,
    work: impl Fn(&T) -> Vec<Record> + Sync,
) -> anyhow::Result<Vec<Vec<Record>>> {
    let name = path.display();
    let file = Mutex::new(file);
    let finished = AtomicUsize::new(total - todo.len());
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build()?;
    pool.install(|| {
        todo.par_iter()
            .map(|t| {
                let r = work(t);
                let text = write_records(g, &r);
                let mut f = file.lock().unwrap_or_else(|p| p.into_inner());
                f.write_all(text.as_bytes())
                    .and_then(|_| f.flush())
                    .map_err(|e| anyhow::anyhow!("tune: cannot write {name}: {e}"))?;
                drop(f);
                progress(finished.fetch_add(1, Ordering::Relaxed) + 1, total);
                Ok(r)
            })
            .collect()
    })
}

/// FNV-1a of what a labelling reads: the records given beforehand and the recorded games (starts, moves, results).
fn fingerprint(g: &Breakthrough, base: &[Record], games: &[LabelledGame], first_id: u32) -> u64 {
    let mut text = format!("{first_id}\n{}", write_records(g, base));
    for (start, moves, result) in games {
        let mut s = *start;
        text += &format!("{} {result}", g.format_position(&s));
        for &m in moves {
            text += &format!(" {}", g.format_move(&s, m));
            g.play(&mut s, m);
        }
        text.push('\n');
    }
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// The records of an earlier run's file worth keeping: settings checked, a cut last line and the last game dropped.
/// A file that does not start with a whole data header line is refused (its bytes are not touched).
fn resume(g: &Breakthrough, bytes: &[u8], header: &str, name: &str) -> anyhow::Result<Vec<Record>> {
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    // Every file this writes starts with its header line, written whole (atomically) before any record.
    const MARK: &str = "# plateau tune data: ";
    let first_line = bytes.iter().position(|&b| b == b'\n').map(|i| &bytes[..i]);
    if !first_line.is_some_and(|l| l.starts_with(MARK.as_bytes())) {
        anyhow::bail!(
            "tune: {name} is not a data file written by --save-data (it does not start with '{}...'): give another \
             --save-data file (this one is left as it is)",
            MARK.trim_end()
        );
    }
    let end = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let text = std::str::from_utf8(&bytes[..end])
        .map_err(|_| anyhow::anyhow!("tune: {name} is not a data file (not UTF-8)"))?;
    match text.lines().next() {
        None => return Ok(Vec::new()),
        Some(first) if first == header => {}
        Some(first) => anyhow::bail!(
            "tune: {name} holds data of other settings ('{first}', this run: '{header}'): give another --save-data file"
        ),
    }
    let mut records = read_records(g, text).map_err(|e| anyhow::anyhow!("{e} (in {name})"))?;
    if let Some(last) = records.last().map(|r| r.game) {
        records.retain(|r| r.game != last);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Breakthrough {
        Breakthrough::from_spec(&crate::spec::Spec::parse("breakthrough(rows=5,columns=4)").unwrap()).unwrap()
    }

    fn key(r: &[Record]) -> Vec<(u64, i32, u32)> {
        r.iter().map(|r| (r.state.white ^ r.state.black.rotate_left(7), r.value, r.game)).collect()
    }

    #[test]
    fn an_interrupted_run_resumes_to_the_same_records() {
        let g = small();
        let dir = std::env::temp_dir().join(format!("plateau-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let set = DataSettings { nodes: 200, data_eval: "pst", random_plies: 2, seed: 5 };
        let whole = dir.join("whole.txt");
        let _ = std::fs::remove_file(&whole);
        let all = generate_to_file(&g, &set, 8, 2, &whole, |_, _| {}).unwrap();
        assert!(all.len() > 8, "{} records", all.len());
        assert!(all.windows(2).all(|w| w[0].game <= w[1].game), "game order");
        // The file holds what was returned (in the order the games finished).
        let text = std::fs::read_to_string(&whole).unwrap();
        let mut read = read_records(&g, &text).unwrap();
        read.sort_by_key(|r| r.game);
        assert_eq!(key(&read), key(&all));

        // Interrupted in the middle of a line after a few games: the resumed run gives the same records.
        let cut = dir.join("cut.txt");
        let bytes = text.as_bytes();
        std::fs::write(&cut, &bytes[..bytes.len() * 2 / 5]).unwrap();
        let first = AtomicUsize::new(usize::MAX);
        let resumed = generate_to_file(&g, &set, 8, 1, &cut, |n, _| {
            first.fetch_min(n, Ordering::Relaxed);
        })
        .unwrap();
        assert_eq!(key(&resumed), key(&all));
        let first = first.into_inner();
        assert!((2..=8).contains(&first), "the games kept are not played again (first progress report {first})");
        // Run again: nothing left to play but the last game, and the same records; fewer games: a prefix.
        assert_eq!(key(&generate_to_file(&g, &set, 8, 1, &cut, |_, _| {}).unwrap()), key(&all));
        let fewer = generate_to_file(&g, &set, 3, 1, &cut, |_, _| {}).unwrap();
        assert_eq!(key(&fewer), key(&all.iter().copied().filter(|r| r.game < 3).collect::<Vec<_>>()));

        // Other settings are refused, the file untouched.
        let before = std::fs::read(&cut).unwrap();
        let other = DataSettings { nodes: 300, ..set };
        let e = generate_to_file(&g, &other, 8, 1, &cut, |_, _| {}).unwrap_err().to_string();
        assert!(e.contains("other settings") && e.contains("nodes=200"), "{e}");
        assert_eq!(std::fs::read(&cut).unwrap(), before);

        // A file that is not a data file (no line break at all, another first line, a blank line): refused, untouched.
        let notes = dir.join("notes.txt");
        for foreign in [&b"notes without a line break"[..], b"notes\nmore notes\n", b"\n"] {
            std::fs::write(&notes, foreign).unwrap();
            let e = generate_to_file(&g, &set, 2, 1, &notes, |_, _| {}).unwrap_err().to_string();
            assert!(e.contains("not a data file") && !e.contains('\n'), "{e}");
            assert_eq!(std::fs::read(&notes).unwrap(), foreign);
        }
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3, "no other file (whole.txt, cut.txt, notes.txt)");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
