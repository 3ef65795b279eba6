//! The engine's numeric search constants, settable at run time (after Reckless's parameters file): each has a name,
//! a default, a range and an SPSA step. A game may have its own defaults (a parameters text from
//! [`Knowledge::engine_params`]: Breakthrough 8x8 with its network has the values SPSA tuned); over them go a parameters
//! file (`engine(params=FILE)`: one `name value` or `name = value` per line, `#` comments), then the player string's
//! values (`engine(rfp_margin=100)`); `plateau engine-params` lists them; `plateau spsa` tunes them.
//!
//! ```text
//! given      := params=FILE's lines "name [=] value", then the string's name=value (each checked: name, range)
//! SearchParams for a game := general defaults, then the game's text (if any; not with params=general), then given
//! spec()     : the given values, as name=value (a player string that rebuilds the same engine for any game)
//! ```
//! Depths and reductions are in plies unless the name says quarter plies (`cost_*`, `q` suffix); the logarithmic
//! reduction's base and divisor are in hundredths.

use crate::game::{FullGame, GameError};
use crate::spec::Spec;

/// One ply in the fractional depth unit: depths are counted in quarter plies.
pub(crate) const ONE_PLY: i32 = 4;

/// A tunable's description: the table of `plateau engine-params` and the ranges SPSA keeps to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TunableInfo {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's perturbation at the end of a run (fishtest's `c_end`).
    pub step: i32,
    pub doc: &'static str,
}

macro_rules! search_params {
    ($($field:ident: $default:expr, $min:expr, $max:expr, $step:expr, $doc:literal;)*) => {
        /// The numeric search constants of one engine (see the module doc).
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $(#[doc = $doc] pub $field: i32,)*
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { $($field: $default,)* }
            }
        }

        /// Every tunable, in the order of [`SearchParams`].
        pub const PARAMS: &[TunableInfo] = &[
            $(TunableInfo { name: stringify!($field), default: $default, min: $min, max: $max, step: $step, doc: $doc },)*
        ];

        impl SearchParams {
            /// The value of the tunable `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($field) => Some(self.$field),)*
                    _ => None,
                }
            }

            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $(stringify!($field) => Some(&mut self.$field),)*
                    _ => None,
                }
            }
        }
    };
}

search_params! {
    cost_quiet: 4, 2, 6, 1, "depth cost of a quiet move, quarter plies";
    cost_capture: 3, 1, 4, 1, "depth cost of a capture, quarter plies";
    cost_threat: 2, 0, 4, 1, "depth cost of a move onto the row before the goal, quarter plies";
    cost_forced: 2, 0, 4, 1, "depth cost of a forced reply at most, quarter plies";
    null_reduction: 3, 1, 6, 1, "null-move reduction on top of the null move's own ply, plies";
    lmr_after: 3, 1, 12, 1, "fixed late-move reductions (lmrlog=off): quiet moves after this many lose one ply";
    lmr_late: 10, 3, 30, 2, "fixed late-move reductions: two plies after this many";
    lmr_min_depth: 3, 1, 8, 1, "late-move reductions only this many plies or more from the horizon";
    lmr_log_base: 50, -100, 200, 15, "logarithmic reductions: base, hundredths of a ply";
    lmr_log_div: 225, 100, 500, 20, "logarithmic reductions: divisor of ln(depth) ln(moves), hundredths";
    asp_delta: 35, 5, 200, 5, "aspiration window half-width";
    asp_growth: 4, 2, 8, 1, "aspiration window growth factor after a failure";
    probe_percent: 10, 1, 50, 2, "share of the time of the deep-win probe and of the loss check, percent";
    history_max_log2: 20, 10, 28, 1, "history scores are halved when one reaches 2^this";
    rfp_depth: 6, 1, 12, 1, "reverse futility pruning: at most this many plies from the horizon";
    rfp_margin: 90, 20, 300, 10, "reverse futility pruning: margin per remaining ply";
    futility_depth: 3, 1, 8, 1, "futility pruning: at most this many plies from the horizon";
    futility_margin: 120, 20, 400, 12, "futility pruning: margin per remaining ply";
    lmp_depth: 4, 1, 10, 1, "late-move pruning: at most this many plies from the horizon";
    lmp_base: 4, 0, 20, 1, "late-move pruning: quiet moves after base + depth^2 are skipped";
    iir_depth: 4, 2, 10, 1, "internal iterative reduction: at least this many plies from the horizon";
    history_malus: 100, 0, 200, 20, "history: quiet moves searched before a quiet cut-off lose this percent of its bonus";
    null_depth_div: 4, 0, 12, 1, "null-move reduction: one more ply per this many plies of depth (0: none)";
    null_eval_div: 200, 0, 800, 40, "null move: one more ply of reduction per this much eval above beta, 3 at most";
    improving_lmr_q: 4, 0, 8, 1, "reductions: quarter plies more where the eval is not above 2 plies before";
}

impl SearchParams {
    /// Set `name` to `value`, checking its range; `source` names where the value came from, for the error.
    pub fn set(&mut self, name: &str, value: i64, source: &str) -> Result<(), GameError> {
        let info = info(name).ok_or_else(|| GameError::new(format!("{source}: unknown engine parameter `{name}`")))?;
        if value < info.min as i64 || value > info.max as i64 {
            return Err(GameError::new(format!(
                "{source}: {name}={value}: expected {} to {} (default {})",
                info.min, info.max, info.default
            )));
        }
        *self.slot(name).expect("a listed name") = value as i32;
        Ok(())
    }

    /// Read a parameters file's text (`name value` or `name = value` per line, `#` comments); `path` names the file in
    /// errors.
    pub(crate) fn read_text(&mut self, text: &str, path: &str) -> Result<(), GameError> {
        parse_text(text, path, |name, value, source| self.set(name, value, source))
    }

    /// The defaults of the engine for `game` with the evaluation `eval` (`None`: the game's first, its default): the
    /// general defaults, then the game's own parameters text if it has one ([`Knowledge::engine_params`]).
    pub(crate) fn for_game<G: FullGame>(game: &G, eval: Option<&str>) -> SearchParams {
        let mut p = SearchParams::default();
        if let Some(text) = game.engine_params(eval.unwrap_or(G::EVALUATIONS[0])) {
            // A text built into the program; the tests read every game's (`every_games_parameters_read`).
            p.read_text(text, &format!("{} engine parameters", game.spec()))
                .expect("a game's built-in engine parameters are valid");
        }
        p
    }

    /// The logarithmic reduction table: `r(d, n) = lmr_log_base + ln(d) ln(n) / lmr_log_div` plies (both in
    /// hundredths), in quarter plies, by remaining plies `d` and move number `n` (both below 64).
    pub(crate) fn lmr_table(&self) -> Vec<[i32; 64]> {
        let (base, div) = (self.lmr_log_base as f64 / 100.0, self.lmr_log_div as f64 / 100.0);
        (0..64)
            .map(|d| {
                let mut row = [0i32; 64];
                for (n, r) in row.iter_mut().enumerate() {
                    if d > 0 && n > 0 {
                        let plies = base + (d as f64).ln() * (n as f64).ln() / div;
                        *r = (plies * ONE_PLY as f64).round() as i32;
                    }
                }
                row
            })
            .collect()
    }

    /// `name=value` for every value that differs from the default, in table order.
    pub(crate) fn spec_params(&self) -> Vec<String> {
        PARAMS
            .iter()
            .filter_map(|i| {
                let v = self.get(i.name).expect("listed");
                (v != i.default).then(|| format!("{}={v}", i.name))
            })
            .collect()
    }

    /// The parameters file of these values (every tunable, one per line).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for i in PARAMS {
            s.push_str(&format!("{} = {}\n", i.name, self.get(i.name).expect("listed")));
        }
        s
    }
}

/// The values a player string gives (its `params=FILE`, then its `name=value`s), laid over a game's defaults when the
/// engine meets the game ([`GivenParams::over`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct GivenParams {
    /// `params=general`: the general defaults even where the game has its own (the untuned engine).
    pub general: bool,
    values: SearchParams,
    /// Bit `i`: [`PARAMS`]`[i]` was given.
    given: u64,
}

const _: () = assert!(PARAMS.len() <= 64, "GivenParams keeps one bit per tunable");

impl GivenParams {
    /// Give `name` the value `value`, checking its range; `source` names where it came from, for the error.
    pub fn set(&mut self, name: &str, value: i64, source: &str) -> Result<(), GameError> {
        self.values.set(name, value, source)?;
        let i = PARAMS.iter().position(|p| p.name == name).expect("set checked the name");
        self.given |= 1 << i;
        Ok(())
    }

    /// Read `params=FILE`, then every `name=value` of the player string.
    pub fn from_spec(spec: &Spec) -> Result<GivenParams, GameError> {
        let mut g = GivenParams::default();
        if spec.text("params").as_deref() == Some("general") {
            g.general = true;
        } else if let Some(path) = spec.path("params")? {
            let text = crate::files::read_text(std::path::Path::new(&path), crate::files::MAX_TEXT, "parameters file")
                .map_err(|e| GameError::new(format!("engine: params={path}: {e}")))?;
            parse_text(&text, &path, |name, value, source| g.set(name, value, source))?;
        }
        for info in PARAMS {
            if spec.has(info.name) {
                let v = spec.int(info.name, info.default as i64, info.min as i64, info.max as i64)?;
                g.set(info.name, v, "engine")?;
            }
        }
        Ok(g)
    }

    /// The values for `game` evaluated with `eval` (`None`: its default evaluation): its defaults (the general ones
    /// with `params=general`), then the given values.
    pub(crate) fn resolve<G: FullGame>(&self, game: &G, eval: Option<&str>) -> SearchParams {
        let base = if self.general { SearchParams::default() } else { SearchParams::for_game(game, eval) };
        self.over(&base)
    }

    /// `base` with the given values in place of its own.
    pub fn over(&self, base: &SearchParams) -> SearchParams {
        let mut p = *base;
        for (i, info) in PARAMS.iter().enumerate() {
            if self.given & (1 << i) != 0 {
                *p.slot(info.name).expect("listed") = self.values.get(info.name).expect("listed");
            }
        }
        p
    }

    /// `params=general` if so, then `name=value` for every given value, in table order.
    pub(crate) fn spec_params(&self) -> Vec<String> {
        let general = self.general.then(|| "params=general".to_string());
        let given = PARAMS
            .iter()
            .enumerate()
            .filter(|(i, _)| self.given & (1 << i) != 0)
            .map(|(_, info)| format!("{}={}", info.name, self.values.get(info.name).expect("listed")));
        general.into_iter().chain(given).collect()
    }
}

/// Parse a parameters text, handing each `name value` line to `set` with its source (`path:line`).
fn parse_text(
    text: &str,
    path: &str,
    mut set: impl FnMut(&str, i64, &str) -> Result<(), GameError>,
) -> Result<(), GameError> {
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split(|c: char| c == '=' || c.is_whitespace()).filter(|p| !p.is_empty());
        let (Some(name), Some(value), None) = (parts.next(), parts.next(), parts.next()) else {
            // The line itself is not quoted: a file's contents never reach an error message.
            return Err(GameError::new(format!("{path}:{}: expected `name value` (one parameter a line)", i + 1)));
        };
        let v: i64 = value
            .parse()
            .map_err(|_| GameError::new(format!("{path}:{}: {name}: `{value}` is not an integer", i + 1)))?;
        set(name, v, &format!("{path}:{}", i + 1))?;
    }
    Ok(())
}

/// The description of the tunable `name`.
pub fn info(name: &str) -> Option<&'static TunableInfo> {
    PARAMS.iter().find(|i| i.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_in_range_and_steps_positive() {
        let d = SearchParams::default();
        for i in PARAMS {
            assert_eq!(d.get(i.name), Some(i.default));
            assert!(i.min <= i.default && i.default <= i.max && i.step > 0, "{}", i.name);
        }
        assert!(d.spec_params().is_empty());
    }

    #[test]
    fn file_and_string_round_trip() {
        let mut p = SearchParams::default();
        p.read_text("# tuned\nrfp_margin = 100\nnull_reduction 4  # comment\n\n", "f").unwrap();
        assert_eq!((p.rfp_margin, p.null_reduction), (100, 4));
        assert_eq!(p.spec_params(), vec!["null_reduction=4", "rfp_margin=100"]);
        let mut q = SearchParams::default();
        q.read_text(&p.to_text(), "g").unwrap();
        assert_eq!(p, q);
        let s = Spec::parse("engine(rfp_margin=70,asp_delta=20)").unwrap();
        let r = GivenParams::from_spec(&s).unwrap().over(&SearchParams::default());
        assert_eq!((r.rfp_margin, r.asp_delta, r.lmp_base), (70, 20, 4));
    }

    #[test]
    fn given_values_go_over_any_base_and_are_written_back_all() {
        // A value equal to the general default is still given: over another base it must stay.
        let s = Spec::parse("engine(cost_quiet=4,rfp_margin=70)").unwrap();
        let g = GivenParams::from_spec(&s).unwrap();
        assert_eq!(g.spec_params(), vec!["cost_quiet=4", "rfp_margin=70"]);
        let mut base = SearchParams::default();
        base.read_text("cost_quiet 3\nrfp_margin 77\nlmr_late 9", "base").unwrap();
        let p = g.over(&base);
        assert_eq!((p.cost_quiet, p.rfp_margin, p.lmr_late, p.lmp_base), (4, 70, 9, 4));
        assert_eq!(GivenParams::default().over(&base), base);
        assert!(GivenParams::default().spec_params().is_empty());
    }

    #[test]
    fn every_games_parameters_read() {
        use crate::games::{AnyGame, catalogue, with_game};
        let mut tuned = Vec::new();
        for entry in catalogue() {
            let any = AnyGame::parse(entry.info.name).unwrap();
            with_game!(&any, g => {
                for eval in g_evaluations(g) {
                    let p = SearchParams::for_game(g, Some(eval));
                    if p != SearchParams::default() {
                        tuned.push(format!("{} {eval}", entry.info.name));
                    }
                }
            });
        }
        // Standard Breakthrough 8x8 with its network, and nothing else (the run tuned it alone).
        assert_eq!(tuned, vec!["breakthrough nnue"]);
        let bt = AnyGame::parse("breakthrough").unwrap();
        let AnyGame::Breakthrough(g) = &bt else { unreachable!() };
        let p = SearchParams::for_game(g, None);
        assert_eq!((p.cost_quiet, p.rfp_margin, p.lmr_log_div), (3, 77, 202));
        for other in
            ["breakthrough(rows=6,columns=5)", "breakthrough(misere=true)", "breakthrough(forced_captures=true)"]
        {
            let any = AnyGame::parse(other).unwrap();
            let AnyGame::Breakthrough(g) = &any else { unreachable!() };
            assert_eq!(SearchParams::for_game(g, None), SearchParams::default(), "{other}");
        }
        assert_eq!(SearchParams::for_game(g, Some("pst")), SearchParams::default());
        assert_eq!(SearchParams::for_game(g, Some("nnue:gen3.bin")), p, "any network");
        // params=general: the general defaults on 8x8 too, the given values over them, written back.
        let s = Spec::parse("engine(params=general,rfp_margin=80)").unwrap();
        let given = GivenParams::from_spec(&s).unwrap();
        let p = given.resolve(g, None);
        assert_eq!((p.cost_quiet, p.rfp_margin, p.lmr_log_div), (4, 80, 225));
        assert_eq!(given.spec_params(), vec!["params=general", "rfp_margin=80"]);
        assert_eq!(GivenParams::default().resolve(g, None), SearchParams::for_game(g, None));
    }

    /// The evaluations a game names (its list, for the test above).
    fn g_evaluations<G: FullGame>(_: &G) -> &'static [&'static str] {
        G::EVALUATIONS
    }

    #[test]
    fn bad_values_are_one_line_errors() {
        let mut p = SearchParams::default();
        for (text, says) in [
            ("nope 3", "unknown engine parameter `nope`"),
            ("rfp_margin 5000", "rfp_margin=5000: expected 20 to 300"),
            ("rfp_margin x", "`x` is not an integer"),
            ("rfp_margin 1 2", "expected `name value`"),
        ] {
            let e = p.read_text(text, "f").unwrap_err().to_string();
            assert!(e.contains(says) && !e.contains('\n'), "{text}: {e}");
        }
        let s = Spec::parse("engine(rfp_margin=1)").unwrap();
        assert!(GivenParams::from_spec(&s).is_err());
        let s = Spec::parse("engine(params=/nonexistent/file)").unwrap();
        assert!(GivenParams::from_spec(&s).unwrap_err().to_string().contains("cannot read"));
    }
}
