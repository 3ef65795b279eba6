//! Player and algorithm strings (`players::build`), for a game chosen by the first line: no panic on any text. Paths
//! (`book=`, `db=`) are kept to the working directory: a text with '/' is skipped.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plateau::game::FullGame;
use plateau::games::{AnyGame, GameVisitor};

struct Build<'a>(&'a str);

impl GameVisitor for Build<'_> {
    type Out = ();
    fn visit<G: FullGame>(self, _: &G) {
        let _ = plateau::players::build::<G>(self.0);
    }
}

fuzz_target!(|data: &[u8]| {
    let text = plateau_fuzz::text(data);
    if text.contains('/') {
        return;
    }
    let f = plateau_fuzz::fields(&text, 2);
    let Ok(game) = AnyGame::parse(f[0]) else { return };
    game.visit(Build(f[1]));
});
