//! The page's files, embedded in the binary (no build step, no framework): `page/index.html`, `page/style.css` and
//! its plain scripts, one per concern (`page/core.js` first, `page/app.js` last: the wiring), which `index.html`
//! loads in order and which share one global scope. Served at `/`, `/style.css`, `/app.js` and `/js/NAME.js`.

use axum::extract::Path;
use axum::http::header;
use axum::response::IntoResponse;

use super::ApiError;

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// The scripts under `/js/`, by name.
const SCRIPTS: &[(&str, &str)] = &[
    ("core.js", include_str!("page/core.js")),
    ("setup.js", include_str!("page/setup.js")),
    ("session.js", include_str!("page/session.js")),
    ("state.js", include_str!("page/state.js")),
    ("board.js", include_str!("page/board.js")),
    ("backgammon.js", include_str!("page/backgammon.js")),
    ("tree.js", include_str!("page/tree.js")),
    ("compare.js", include_str!("page/compare.js")),
    ("verdict.js", include_str!("page/verdict.js")),
    ("replay.js", include_str!("page/replay.js")),
    ("tournament.js", include_str!("page/tournament.js")),
];

pub async fn index() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX)
}

pub async fn script() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT)
}

/// One of the scripts under `/js/`, or a one-line 404.
pub async fn module(Path(name): Path<String>) -> Result<impl IntoResponse, ApiError> {
    let (_, text) = SCRIPTS
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| ApiError::not_found(format!("no script '/js/{name}'")))?;
    Ok(([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], *text))
}

pub async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE)
}

#[cfg(test)]
mod tests {
    /// Every script the page lists is served, and every served script is listed.
    #[test]
    fn the_page_lists_the_scripts_served() {
        let listed: Vec<&str> = super::INDEX
            .lines()
            .filter_map(|l| l.trim().strip_prefix("<script src=\"js/"))
            .filter_map(|l| l.split('"').next())
            .collect();
        let served: Vec<&str> = super::SCRIPTS.iter().map(|(n, _)| *n).collect();
        assert_eq!(listed, served);
    }
}
