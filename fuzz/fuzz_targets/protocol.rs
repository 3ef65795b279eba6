//! A whole UCI or UGI session per input: the first byte picks the dialect (bit 0) and the starting game (among the
//! registry's deterministic games of perfect information), the rest is the script fed line by line to the session
//! loop. No panic, no hang (a search left running when the script ends is stopped there), and the loop ends normally.
//! Player strings with '/' are skipped (they could name files outside the working directory).
#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use plateau::games::catalogue;
use plateau::protocol::Dialect;
use plateau::protocol::session::{Out, run};

fuzz_target!(|data: &[u8]| {
    let Some((&first, script)) = data.split_first() else { return };
    let script = &script[..script.len().min(plateau_fuzz::MAX_INPUT)];
    if script.contains(&b'/') {
        return;
    }
    let games: Vec<&str> = catalogue().iter().filter(|g| g.kind.is_classic()).map(|g| g.info.name).collect();
    let game = games[(first as usize >> 1) % games.len()];
    let dialect = if first & 1 == 0 { Dialect::Uci } else { Dialect::Ugi };
    let out = Out::new(Box::new(std::io::sink()));
    let r = run(dialect, game, None, &mut Cursor::new(script), out);
    assert!(r.is_ok(), "the session on {game} ended with {r:?}");
});
