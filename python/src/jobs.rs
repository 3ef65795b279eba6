//! What the job-level classes share (`Match`, `Tournament`, `SplitSolve`, `DataGen`: the Ray cluster drivers' halves
//! in Rust), and the one-shot functions beside them: a call with the interpreter released and its error (or panic)
//! turned into Python's exception ([`crate::guard`]), and the documents crossing as JSON text both ways.

use pyo3::prelude::*;

use crate::guard;

/// Run `f` with the interpreter released (other Python threads go on meanwhile), under [`guard`]: its error a
/// `ValueError`, a panic a `RuntimeError`. (`Send`: what `Python::detach` asks of both, its `Ungil` on stable Rust.)
pub(crate) fn released<T: Send>(py: Python<'_>, f: impl FnOnce() -> Result<T, String> + Send) -> PyResult<T> {
    py.detach(|| guard(f))
}

/// `v` as JSON text.
pub(crate) fn json<T: serde::Serialize + ?Sized>(v: &T) -> Result<String, String> {
    serde_json::to_string(v).map_err(|e| e.to_string())
}

/// JSON text read as a `T`; the error says what `text` is not (`what`: "not a game result") and why.
pub(crate) fn from_json<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| format!("{what} ({e})"))
}
