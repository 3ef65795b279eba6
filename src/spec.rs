//! Parsing of OpenSpiel-style strings: `NAME` or `NAME(key=value,key=value)`, used for games, players and algorithms.
//!
//! A [`Spec`] hands out its parameters one by one with typed getters; [`Spec::finish`] then reports any parameter
//! nobody asked for, with the list of accepted ones, so that a typo is an error rather than silently ignored.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::time::Duration;

use crate::files::FileAccess;
use crate::game::{GameError, err};

/// A parsed `NAME(key=value,...)` string.
#[derive(Debug, Clone)]
pub struct Spec {
    pub name: String,
    params: Vec<(String, String)>,
    used: RefCell<BTreeSet<String>>,
    accepted: RefCell<Vec<String>>,
    /// The files its parameters may name ([`Spec::path`]): those of the surface the string came from.
    files: FileAccess,
}

impl Spec {
    /// Parse a string of the user's own surfaces (command line, protocols, Python): its parameters may name any file.
    pub fn parse(text: &str) -> Result<Spec, GameError> {
        Spec::parse_with(text, &FileAccess::Any)
    }

    /// Parse a string whose parameters may name only the files `files` allows (the web server's requests).
    pub(crate) fn parse_with(text: &str, files: &FileAccess) -> Result<Spec, GameError> {
        let text = text.trim();
        if text.is_empty() {
            return err("empty name: expected NAME or NAME(key=value,...)");
        }
        let (name, rest) = match text.find('(') {
            Some(i) => {
                if !text.ends_with(')') {
                    return err(format!("'{text}': missing ')' at the end"));
                }
                (&text[..i], Some(&text[i + 1..text.len() - 1]))
            }
            None => {
                if text.contains(')') {
                    return err(format!("'{text}': unbalanced ')'"));
                }
                (text, None)
            }
        };
        if name.trim_end() != name {
            return err(format!("'{text}': no space between the name and '('"));
        }
        let name = name.trim().to_ascii_lowercase();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return err(format!("'{text}': the name must be letters, digits and '_'"));
        }
        let mut params: Vec<(String, String)> = Vec::new();
        if let Some(rest) = rest {
            // Values may themselves contain parentheses or commas inside parentheses (nested specs, paths rarely).
            let parts = split_top_level(rest);
            for part in &parts {
                let part = part.trim();
                if part.is_empty() {
                    if parts.len() == 1 {
                        continue; // `NAME()`
                    }
                    return err(format!("'{text}': empty parameter (between commas)"));
                }
                let Some((k, v)) = part.split_once('=') else {
                    return err(format!("'{text}': parameter '{part}' should be key=value"));
                };
                let k = k.trim().to_ascii_lowercase();
                if k.is_empty() || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                    return err(format!("'{text}': parameter name '{k}' must be letters, digits and '_'"));
                }
                if params.iter().any(|(pk, _)| *pk == k) {
                    return err(format!("'{text}': parameter '{k}' given twice"));
                }
                params.push((k, v.trim().to_string()));
            }
        }
        Ok(Spec {
            name,
            params,
            used: RefCell::new(BTreeSet::new()),
            accepted: RefCell::new(Vec::new()),
            files: files.clone(),
        })
    }

    /// The files this string's parameters may name (for a string nested in it, such as `pns(fallback=...)`).
    pub fn files(&self) -> &FileAccess {
        &self.files
    }

    fn raw(&self, key: &str) -> Option<&str> {
        self.accepted.borrow_mut().push(key.to_string());
        let v = self.params.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        if v.is_some() {
            self.used.borrow_mut().insert(key.to_string());
        }
        v
    }

    /// This string with the parameters of `defaults` (`key=value,...`) added where it gives none of its own: a
    /// player's settings for a game (`mcts` on Breakthrough is `mcts(cut=4,eval=tuned,scale=100)` unless it says
    /// otherwise).
    pub(crate) fn with_defaults(mut self, defaults: &str) -> Result<Spec, GameError> {
        if defaults.is_empty() {
            return Ok(self);
        }
        let d = Spec::parse(&format!("defaults({defaults})"))?;
        for (k, v) in d.params {
            if !self.has(&k) {
                self.params.push((k, v));
            }
        }
        Ok(self)
    }

    /// Whether the parameter was given.
    pub fn has(&self, key: &str) -> bool {
        self.params.iter().any(|(k, _)| k == key)
    }

    /// An integer parameter with a default and an inclusive range.
    pub(crate) fn int(&self, key: &str, default: i64, min: i64, max: i64) -> Result<i64, GameError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => {
                if !plain_integer(v.strip_prefix('-').unwrap_or(v)) {
                    return err(format!(
                        "{}: {key}={v} is not a whole number as written in the game's string (digits, no sign '+', no leading zero)",
                        self.name
                    ));
                }
                let x: i64 =
                    v.parse().map_err(|_| GameError::new(format!("{}: {key}={v} is not a whole number", self.name)))?;
                if x < min || x > max {
                    return err(format!("{}: {key}={x} is out of range {min}..={max}", self.name));
                }
                Ok(x)
            }
        }
    }

    /// An optional unsigned integer (`None` when absent); accepts `1000`, `10k`, `2m`.
    pub fn count(&self, key: &str) -> Result<Option<u64>, GameError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => parse_count(v).map(Some).map_err(|e| GameError::new(format!("{}: {key}: {e}", self.name))),
        }
    }

    /// A boolean parameter (`true/false`, `1/0`, `yes/no`, `on/off`).
    pub fn bool(&self, key: &str, default: bool) -> Result<bool, GameError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => match v.to_ascii_lowercase().as_str() {
                "true" | "1" | "yes" | "on" => Ok(true),
                "false" | "0" | "no" | "off" => Ok(false),
                _ => err(format!("{}: {key}={v}: expected true or false", self.name)),
            },
        }
    }

    /// A duration parameter (`100ms`, `1s`, `1.5s`; a bare number is milliseconds).
    pub(crate) fn duration(&self, key: &str) -> Result<Option<Duration>, GameError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => parse_duration(v).map(Some).map_err(|e| GameError::new(format!("{}: {key}: {e}", self.name))),
        }
    }

    /// A size in MiB (`64mb`, `64`, `1gb`).
    pub fn mib(&self, key: &str, default: usize) -> Result<usize, GameError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => parse_table_mib(v).map_err(|e| GameError::new(format!("{}: {key}: {e}", self.name))),
        }
    }

    /// A free text parameter (never a file name: those are read with [`Spec::path`]).
    pub fn text(&self, key: &str) -> Option<String> {
        self.raw(key).map(str::to_string)
    }

    /// A parameter that names a file, refused unless the string's surface may read it ([`FileAccess`]).
    pub fn path(&self, key: &str) -> Result<Option<String>, GameError> {
        match self.raw(key) {
            None => Ok(None),
            Some("") => err(format!("{}: {key}= names no file", self.name)),
            Some(p) => {
                self.files.check(key, p).map_err(|e| GameError::new(format!("{}: {e}", self.name)))?;
                Ok(Some(p.to_string()))
            }
        }
    }

    /// An evaluation's name (`eval=`): a name, or `NAME:FILE` for one with a weights file, whose file is checked as
    /// [`Spec::path`] checks one.
    pub fn eval(&self, key: &str) -> Result<Option<String>, GameError> {
        let Some(v) = self.raw(key) else { return Ok(None) };
        if let Some((_, file)) = v.split_once(':') {
            self.files.check(key, file).map_err(|e| GameError::new(format!("{}: {e}", self.name)))?;
        }
        Ok(Some(v.to_string()))
    }

    /// Every parameter a getter asked for, given or not, sorted (the parameters this string's reader accepts).
    pub fn asked(&self) -> Vec<String> {
        let mut acc: Vec<String> = self.accepted.borrow().clone();
        acc.sort();
        acc.dedup();
        acc
    }

    /// Fail on parameters that no getter asked for, listing the accepted ones.
    pub fn finish(&self) -> Result<(), GameError> {
        let used = self.used.borrow();
        for (k, _) in &self.params {
            if !used.contains(k) {
                let acc = self.asked();
                let list = if acc.is_empty() { "none".to_string() } else { acc.join(", ") };
                return err(format!("{}: unknown parameter '{k}' (accepted: {list})", self.name));
            }
        }
        Ok(())
    }
}

fn split_top_level(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// Parse `100ms`, `1s`, `1.5s`, `2m`; a bare number is milliseconds.
pub(crate) fn parse_duration(v: &str) -> Result<Duration, String> {
    let v = v.trim().to_ascii_lowercase();
    let (num, scale) = if let Some(n) = v.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = v.strip_suffix("us") {
        (n, 1e-6)
    } else if let Some(n) = v.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = v.strip_suffix("min") {
        (n, 60.0)
    } else if let Some(n) = v.strip_suffix('m') {
        (n, 60.0)
    } else {
        (v.as_str(), 1e-3)
    };
    let x: f64 = num.trim().parse().map_err(|_| format!("'{v}' is not a duration (examples: 100ms, 1s, 1.5s)"))?;
    // The range of every time (`limits::MAX_MILLIS`, as the protocols' `go`).
    if !x.is_finite() || x < 0.0 || x * scale * 1e3 > crate::limits::MAX_MILLIS as f64 {
        return Err(format!("'{v}' is not a valid duration (0 to {} ms)", crate::limits::MAX_MILLIS));
    }
    Ok(Duration::from_secs_f64(x * scale))
}

/// Whether `v` is a number written plainly: digits only, without a leading zero (`0` itself is fine). `+6` and `05`
/// are refused: a game string is also a name (records, tables, books), and two spellings of one number would be two
/// names of one game.
pub(crate) fn plain_integer(v: &str) -> bool {
    !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) && (v == "0" || !v.starts_with('0'))
}

/// Parse `1000`, `10k`, `2m`, `1g`.
pub(crate) fn parse_count(v: &str) -> Result<u64, String> {
    let t = v.trim().to_ascii_lowercase();
    let (num, mul) = if let Some(n) = t.strip_suffix('k') {
        (n, 1_000)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 1_000_000)
    } else if let Some(n) = t.strip_suffix('g') {
        (n, 1_000_000_000)
    } else {
        (t.as_str(), 1)
    };
    if !plain_integer(num.trim()) {
        return Err(format!("'{v}' is not a whole number (digits, no sign, no leading zero; 10k, 2m)"));
    }
    let x: u64 = num.trim().parse().map_err(|_| format!("'{v}' is not a whole number"))?;
    x.checked_mul(mul).ok_or_else(|| format!("'{v}' is too large"))
}

/// Parse a memory size in MiB: `64`, `64mb`, `64mib`, `1gb`.
pub(crate) fn parse_mib(v: &str) -> Result<usize, String> {
    let t = v.trim().to_ascii_lowercase();
    let (num, mul) =
        if let Some(n) = t.strip_suffix("gib").or_else(|| t.strip_suffix("gb")).or_else(|| t.strip_suffix('g')) {
            (n, 1024)
        } else if let Some(n) = t.strip_suffix("mib").or_else(|| t.strip_suffix("mb")).or_else(|| t.strip_suffix('m')) {
            (n, 1)
        } else {
            (t.as_str(), 1)
        };
    let x: usize = num.trim().parse().map_err(|_| format!("'{v}' is not a size (examples: 16mb, 1gb)"))?;
    let r = x.checked_mul(mul).ok_or_else(|| format!("'{v}' is too large"))?;
    if r > 1 << 20 {
        return Err(format!("'{v}' is too large"));
    }
    Ok(r)
}

/// Parse the size of a table to allocate ([`parse_mib`]) and refuse it when it is more than the memory available
/// ([`crate::limits::check_bytes`]).
pub(crate) fn parse_table_mib(v: &str) -> Result<usize, String> {
    let mib = parse_mib(v)?;
    crate::limits::check_bytes("a table", (mib as u64) << 20)?;
    Ok(mib)
}

/// The one line a command-line usage error prints (`plateau ...`, and the words the Python bindings parse): clap's first line, or its whole text when it has no `error:` line.
pub(crate) fn usage_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    match text.lines().find(|l| !l.trim().is_empty()) {
        Some(line) if line.starts_with("error:") => format!("{} (see --help)", line.trim_end()),
        _ => text.trim_end().to_string(),
    }
}

/// A command's very words (after `plateau COMMAND`, the words the Python bindings hand over) parsed as the command
/// line parses them; a usage error is its one line ([`usage_line`], without `error: `).
pub(crate) fn parse_words<P: clap::Parser>(command: &str, words: &[String]) -> Result<P, String> {
    P::try_parse_from(std::iter::once(format!("plateau {command}")).chain(words.iter().cloned()))
        .map_err(|e| crate::game::one_line(usage_line(&e).trim_start_matches("error: ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_params() {
        let s = Spec::parse("Breakthrough(rows=6, columns=5)").unwrap();
        assert_eq!(s.name, "breakthrough");
        assert_eq!(s.int("rows", 8, 3, 64).unwrap(), 6);
        assert_eq!(s.int("columns", 8, 2, 64).unwrap(), 5);
        assert_eq!(s.int("piece_rows", 2, 1, 10).unwrap(), 2);
        s.finish().unwrap();
    }

    #[test]
    fn unknown_parameter_lists_accepted() {
        let s = Spec::parse("marbles(n=3,q=1)").unwrap();
        s.int("n", 21, 1, 1000).unwrap();
        s.int("k", 3, 1, 1000).unwrap();
        let e = s.finish().unwrap_err().to_string();
        assert!(e.contains("'q'") && e.contains("k, n"), "{e}");
    }

    #[test]
    fn malformed_specs_are_errors() {
        for bad in ["", "x(", "x(a)", "x(a=1,a=2)", "x)", "a b", "x(,)", "x(a=1,)", "x (a=1)", "x(=1)", "x(é=1)"] {
            assert!(Spec::parse(bad).is_err(), "{bad}");
        }
        let s = Spec::parse("x(n=abc)").unwrap();
        assert!(s.int("n", 1, 0, 9).is_err());
        let s = Spec::parse("x(n=99)").unwrap();
        assert!(s.int("n", 1, 0, 9).is_err());
        // One spelling per number: no sign '+', no leading zero (breakthrough(rows=+6,columns=05) was accepted).
        for bad in ["+6", "05", "00", "-05", " 6"] {
            let s = Spec { name: "x".into(), params: vec![("n".into(), bad.into())], ..Spec::parse("x").unwrap() };
            assert!(s.int("n", 1, -9, 9).is_err(), "{bad}");
        }
        for (good, x) in [("6", 6), ("0", 0), ("-5", -5)] {
            let s = Spec { name: "x".into(), params: vec![("n".into(), good.into())], ..Spec::parse("x").unwrap() };
            assert_eq!(s.int("n", 1, -9, 9).unwrap(), x);
        }
        assert!(parse_count("+5").is_err() && parse_count("010").is_err() && parse_count("0").is_ok());
    }

    #[test]
    fn durations_counts_sizes() {
        assert_eq!(parse_duration("100ms").unwrap(), Duration::from_millis(100));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("250").unwrap(), Duration::from_millis(250));
        assert!(parse_duration("fast").is_err());
        assert!(parse_duration("-1s").is_err());
        assert_eq!(parse_count("10k").unwrap(), 10_000);
        assert_eq!(parse_mib("1gb").unwrap(), 1024);
        assert_eq!(parse_mib("64mb").unwrap(), 64);
        assert!(parse_mib("lots").is_err());
    }
}
