//! The position text of the synthetic trees (`random_tree`, `chance_tree`, `tree`): a node is named by the path of
//! child numbers from the root, 1-based and separated by dots (`2.1.3`), the root by `root` (or nothing).

use crate::game::{FullGame, GameError};

/// `2.1.3` for the 0-based child indices `[1, 0, 2]`; `root` for the empty path.
pub fn format_path(path: impl IntoIterator<Item = u32>) -> String {
    let parts: Vec<String> = path.into_iter().map(|i| (i + 1).to_string()).collect();
    if parts.is_empty() { "root".into() } else { parts.join(".") }
}

/// The node named by a path, reached by playing each part (a move text) from the start; errors name the position.
pub(crate) fn parse_path<G: FullGame>(game: &G, text: &str) -> Result<G::State, GameError> {
    let t = text.trim();
    let mut s = game.start();
    if t.is_empty() || t == "root" {
        return Ok(s);
    }
    for part in t.split('.') {
        let m = game.parse_move(&s, part).map_err(|e| GameError::new(format!("position '{t}': {e}")))?;
        game.play(&mut s, m);
    }
    Ok(s)
}
