//! The checkpoint of an SPSA run (`plateau spsa --out FILE` writes `FILE.checkpoint`): the settings that define the
//! run, the last iteration played and θ as floats (their bits, so that a resumed run goes on from exactly the same
//! values). Written after every iteration to a temporary file renamed over the old one, so a killed run leaves
//! either the previous checkpoint or the new one, never half of one.

use std::path::{Path, PathBuf};

/// How a run uses its checkpoint.
#[derive(Clone, Debug, Default)]
pub struct Checkpointing {
    /// Where the checkpoint is written after every iteration (`None`: nowhere).
    pub path: Option<PathBuf>,
    /// Continue from the checkpoint at `path` when there is one (settings must match).
    pub resume: bool,
    /// Stop after this iteration (the checkpoint lets a later `--resume` continue).
    pub(crate) stop_after: Option<u32>,
}

/// What the checkpoint holds.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct State {
    /// `[name, value]` pairs that define the run: a checkpoint resumes only a run with the same ones.
    pub settings: Vec<(String, String)>,
    /// The last iteration played (0: none).
    pub iteration: u32,
    /// θ after that iteration, in the order of the tuned names (for reading; `theta_bits` is what is used).
    pub theta: Vec<f64>,
    /// The exact bits of θ (`f64::to_bits`).
    pub theta_bits: Vec<u64>,
    /// Sum of the iterations' results so far.
    pub total: f64,
}

/// The checkpoint at `path` to continue from: `None` when there is none (or, without `resume`, when it is a finished
/// run's). An unfinished run's checkpoint without `resume`, or one with other settings: an error.
pub fn load(path: &Path, settings: &[(String, String)], resume: bool) -> Result<Option<State>, String> {
    let shown = path.display();
    let text = match crate::files::read_if_any(path, crate::files::MAX_TEXT, "spsa: the checkpoint")? {
        Some(bytes) => String::from_utf8(bytes).map_err(|_| format!("spsa: the checkpoint {shown} is not text"))?,
        None => return Ok(None),
    };
    let mut s: State =
        serde_json::from_str(&text).map_err(|e| format!("spsa: the checkpoint {shown} is damaged ({e})"))?;
    let of = |st: &State| st.settings.iter().find(|(k, _)| k == "iterations").map(|(_, v)| v.clone());
    let n = of(&s).unwrap_or_default();
    if !resume {
        if n.parse::<u32>().is_ok_and(|n| s.iteration >= n) {
            return Ok(None);
        }
        return Err(format!(
            "spsa: {shown} holds an unfinished run (iteration {} of {n}): add --resume to continue it, or delete it to \
             start over",
            s.iteration
        ));
    }
    for (k, v) in settings {
        let theirs = s.settings.iter().find(|(k2, _)| k2 == k).map_or("nothing", |(_, v2)| v2.as_str());
        if theirs != v {
            return Err(format!(
                "spsa: the checkpoint {shown} is from another run: its {k} is `{theirs}`, this run's `{v}` (resume with \
                 the same options, or delete it to start over)"
            ));
        }
    }
    if s.theta_bits.len() != s.theta.len() || s.settings.len() != settings.len() {
        return Err(format!("spsa: the checkpoint {shown} is damaged (θ or settings incomplete)"));
    }
    s.theta = s.theta_bits.iter().map(|&b| f64::from_bits(b)).collect();
    if s.theta.iter().any(|v| !v.is_finite()) || !s.total.is_finite() {
        return Err(format!("spsa: the checkpoint {shown} is damaged (a value is not a number)"));
    }
    Ok(Some(s))
}

/// Write the checkpoint atomically ([`crate::files::replace`]: a new temporary file beside it, then renamed over it).
pub fn save(path: &Path, s: &mut State) -> Result<(), String> {
    s.theta_bits = s.theta.iter().map(|v| v.to_bits()).collect();
    let text = serde_json::to_string_pretty(s).map_err(|e| format!("spsa: checkpoint: {e}"))?;
    crate::files::replace(path, (text + "\n").as_bytes(), "spsa: the checkpoint")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_read_back_exactly_and_refuse_other_runs() {
        let dir = std::env::temp_dir().join(format!("plateau-spsa-ck-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.checkpoint");
        let settings = vec![("iterations".to_string(), "10".to_string()), ("seed".to_string(), "1".to_string())];
        let theta = vec![0.1 + 0.2, 1.0 / 3.0, -7.000000000000001];
        let mut s =
            State { settings: settings.clone(), iteration: 4, theta: theta.clone(), theta_bits: vec![], total: 2.0 };
        save(&path, &mut s).unwrap();
        assert!(crate::files::temporaries_of(&path).is_empty());
        let back = load(&path, &settings, true).unwrap().unwrap();
        assert_eq!(
            back.theta.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            theta.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
        assert_eq!(back.iteration, 4);
        // Unfinished, without --resume: refused; other settings: refused, naming the difference.
        assert!(load(&path, &settings, false).unwrap_err().contains("unfinished run (iteration 4 of 10)"));
        let other = vec![settings[0].clone(), ("seed".to_string(), "2".to_string())];
        let e = load(&path, &other, true).unwrap_err();
        assert!(e.contains("its seed is `1`, this run's `2`") && !e.contains('\n'), "{e}");
        // A finished run's checkpoint is simply replaced by a new run; a damaged one is an error.
        s.iteration = 10;
        save(&path, &mut s).unwrap();
        assert_eq!(load(&path, &settings, false).unwrap(), None);
        std::fs::write(&path, "{\"settings\": [").unwrap();
        assert!(load(&path, &settings, true).unwrap_err().contains("damaged"));
        assert_eq!(load(&dir.join("none"), &settings, true).unwrap(), None);
        std::fs::remove_dir_all(&dir).ok();
    }
}
