//! Position and move text of every game: line 1 the game string, line 2 a position text (empty: the start), line 3
//! move words. See `PositionCheck` in the fuzz crate's library for what is asserted.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plateau::games::AnyGame;
use plateau_fuzz::PositionCheck;

fuzz_target!(|data: &[u8]| {
    let text = plateau_fuzz::text(data);
    let f = plateau_fuzz::fields(&text, 3);
    let Ok(game) = AnyGame::parse(f[0]) else { return };
    game.visit(PositionCheck { position: f[1], moves: f[2] });
});
