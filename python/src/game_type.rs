//! `plateau.GameType`: what OpenSpiel's `GameType` says of a game, without OpenSpiel (its enums as lower-case
//! strings: `"sequential"`, `"explicit_stochastic"`, `"imperfect_information"`, ...).

use plateau::game::Kind;
use pyo3::prelude::*;

/// A game's type, as OpenSpiel's `Game.get_type()` describes it.
#[pyclass(module = "plateau", name = "GameType", frozen, get_all)]
pub struct PyGameType {
    short_name: String,
    long_name: String,
    /// `"sequential"` or `"simultaneous"`.
    dynamics: &'static str,
    /// `"deterministic"` or `"explicit_stochastic"` (chance nodes list their outcomes and probabilities).
    chance_mode: &'static str,
    /// `"perfect_information"` or `"imperfect_information"`.
    information: &'static str,
    /// Always `"zero_sum"`.
    utility: &'static str,
    /// Always `"terminal"`: returns come at the end.
    reward_model: &'static str,
    max_num_players: u32,
    min_num_players: u32,
    provides_information_state_string: bool,
    provides_information_state_tensor: bool,
    provides_observation_string: bool,
    provides_observation_tensor: bool,
}

impl PyGameType {
    /// The type of the game `spec` of kind `kind`, with an observation tensor or not.
    pub fn new(spec: &str, kind: Kind, has_tensor: bool) -> Self {
        PyGameType {
            short_name: spec.split('(').next().unwrap_or(spec).to_string(),
            long_name: spec.to_string(),
            dynamics: if kind.simultaneous { "simultaneous" } else { "sequential" },
            chance_mode: if kind.chance { "explicit_stochastic" } else { "deterministic" },
            information: if kind.hidden { "imperfect_information" } else { "perfect_information" },
            utility: "zero_sum",
            reward_model: "terminal",
            max_num_players: 2,
            min_num_players: 2,
            provides_information_state_string: true,
            // The observation is the whole position only without hidden information.
            provides_information_state_tensor: has_tensor && !kind.hidden,
            provides_observation_string: true,
            provides_observation_tensor: has_tensor,
        }
    }
}

#[pymethods]
impl PyGameType {
    fn __repr__(&self) -> String {
        format!(
            "GameType(short_name='{}', dynamics='{}', chance_mode='{}', information='{}')",
            self.short_name, self.dynamics, self.chance_mode, self.information
        )
    }
}
