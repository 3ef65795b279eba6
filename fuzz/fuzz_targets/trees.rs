//! The synthetic trees' text: line 1 the parameters of `random_tree(...)` (first byte even) or `chance_tree(...)`
//! (odd), such as a `values=` list, line 2 a path (`2.1.3`, `root`), line 3 moves; the same checks as `positions`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plateau::games::AnyGame;
use plateau_fuzz::PositionCheck;

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else { return };
    let text = plateau_fuzz::text(rest);
    let f = plateau_fuzz::fields(&text, 3);
    let name = if which % 2 == 0 { "random_tree" } else { "chance_tree" };
    let Ok(game) = AnyGame::parse(&format!("{name}({})", f[0])) else { return };
    game.visit(PositionCheck { position: f[1], moves: f[2] });
});
