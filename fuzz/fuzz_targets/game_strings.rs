//! Game strings (`AnyGame::parse`) and the `NAME(key=value,...)` parser under them: no panic on any text, and a game
//! that parses writes a canonical string (`spec()`) that parses to the same game (same canonical string, same start
//! position text).
#![no_main]

use libfuzzer_sys::fuzz_target;
use plateau::game::FullGame;
use plateau::games::{AnyGame, GameVisitor};
use plateau::spec::Spec;

struct Canonical;

impl GameVisitor for Canonical {
    type Out = (String, String);
    fn visit<G: FullGame>(self, g: &G) -> (String, String) {
        (g.spec(), g.format_position(&g.start()))
    }
}

fuzz_target!(|data: &[u8]| {
    let text = plateau_fuzz::text(data);
    if let Ok(spec) = Spec::parse(&text) {
        let _ = spec.finish();
    }
    let Ok(game) = AnyGame::parse(&text) else { return };
    let (spec, start) = game.visit(Canonical);
    let again = match AnyGame::parse(&spec) {
        Ok(g) => g,
        Err(e) => panic!("'{text}' gives the canonical string '{spec}', which is refused: {e}"),
    };
    assert_eq!(again.visit(Canonical), (spec.clone(), start), "'{spec}' is not the same game as '{text}'");
});
