//! The self-play data generation of `plateau tune --save-data FILE` for drivers that play its games elsewhere (the
//! Ray driver of the Python package, `python -m plateau.cluster datagen`, `docs/cluster.md`): the games in chunks of
//! K (one task each), a chunk's records played on a worker, and the data file of `--save-data` read back and appended
//! to chunk by chunk (each continues the other's: the same header, the same records of each game).
//!
//! ```text
//! load(game, settings, games)  = the settings checked as `plateau tune` checks them
//! open()                       = the data file read back as `--save-data` resumes it (another run's settings or a
//!                                file that is not a data file refused untouched; a cut line and the last game
//!                                dropped, what is kept rewritten atomically): the games it holds
//! play(ids)                    = the records of games `ids` (each deterministic from the seed and its number, as
//!                                `plateau tune` plays it), as the file holds them
//! add(text)                    = a finished chunk's records checked (this run's games) and appended at once (flushed)
//! ```

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use super::datagen::{DataSettings, open_data_file};
use super::pst_fit::{data_options, play_game, read_records, write_records};
use crate::game::Knowledge;
use crate::games::Breakthrough;

/// The settings of a data run (`plateau tune`'s `--nodes`, `--data-eval`, `--random-plies`, `--seed`, `--games`,
/// `--save-data`).
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataRun {
    pub game: String,
    pub games: u32,
    pub nodes: u64,
    pub data_eval: String,
    pub random_plies: u32,
    pub seed: u64,
    pub save_data: PathBuf,
}

/// A data run, checked.
pub struct DataJobs {
    g: Breakthrough,
    run: DataRun,
    file: Mutex<Option<std::fs::File>>,
}

/// Check the settings as `plateau tune --save-data` does before its first game.
pub fn load(run: DataRun) -> Result<DataJobs, String> {
    let g = match crate::games::AnyGame::parse(&run.game).map_err(|e| e.to_string())? {
        crate::games::AnyGame::Breakthrough(g) => g,
        #[allow(unreachable_patterns)]
        _ => return Err(format!("self-play data is Breakthrough's (plateau tune --save-data): not {}", run.game)),
    };
    if g.misere || g.forced_captures {
        return Err("tune: only standard Breakthrough rules are tuned (no misere, no forced_captures)".into());
    }
    Breakthrough::check_evaluation(&run.data_eval).map_err(|e| format!("tune: --data-eval: {e}"))?;
    crate::limits::check_count("tune: --games", run.games as usize, 1, crate::limits::MAX_TUNE_GAMES)?;
    crate::files::check_output(&run.save_data, "tune: --save-data")?;
    Ok(DataJobs { g, run, file: Mutex::new(None) })
}

impl DataJobs {
    fn settings(&self) -> DataSettings<'_> {
        DataSettings {
            nodes: self.run.nodes.max(1),
            data_eval: &self.run.data_eval,
            random_plies: self.run.random_plies,
            seed: self.run.seed,
        }
    }

    /// Read the data file back as `--save-data` resumes it and open it for appending: the games (numbers from 0) it
    /// holds whole.
    pub fn open(&self) -> Result<Vec<u32>, String> {
        let (kept, file) = open_data_file(&self.g, &self.settings(), &self.run.save_data).map_err(|e| e.to_string())?;
        *self.file.lock().unwrap_or_else(|p| p.into_inner()) = Some(file);
        let mut done: Vec<u32> = kept.iter().map(|r| r.game).collect::<HashSet<_>>().into_iter().collect();
        done.sort_unstable();
        Ok(done)
    }

    /// Play the games `ids` (numbers from 0): their records as the file holds them, game after game.
    pub fn play(&self, ids: &[u32]) -> Result<String, String> {
        if let Some(bad) = ids.iter().find(|&&i| i >= self.run.games) {
            return Err(format!("game {bad} is not in the run (games 0 to {})", self.run.games - 1));
        }
        let opts = data_options(self.run.nodes.max(1), &self.run.data_eval);
        Ok(ids
            .iter()
            .map(|&i| write_records(&self.g, &play_game(&self.g, &opts, self.run.random_plies, self.run.seed, i)))
            .collect())
    }

    /// Append a finished chunk's records (as [`Self::play`] made them) at once; the number of records.
    pub fn add(&self, text: &str) -> Result<usize, String> {
        let records = read_records(&self.g, text).map_err(|e| e.to_string())?;
        if let Some(r) = records.iter().find(|r| r.game >= self.run.games) {
            return Err(format!("records of game {} are not of this run (games 0 to {})", r.game, self.run.games - 1));
        }
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        let f = file.as_mut().ok_or("open the data file first")?;
        f.write_all(text.as_bytes())
            .and_then(|_| f.flush())
            .map_err(|e| format!("tune: cannot write {}: {e}", self.run.save_data.display()))?;
        Ok(records.len())
    }
}
