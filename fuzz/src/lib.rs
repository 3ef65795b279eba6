//! What the fuzz targets share: splitting an input into fields, and the checks every game's text must pass.
//!
//! The checks (`PositionCheck`) hold for every game of the registry, whatever the text fed to it:
//! - a position text that parses writes back to a text that parses to the same text (`format . parse` is a fixpoint),
//!   with the same legal moves, and the incremental key equals the key computed from scratch;
//! - every legal move writes to a text that parses back to the same move;
//! - move words are played while they parse (an error stops the game, never a panic), and each position reached passes
//!   the same checks.

use plateau::game::{FullGame, Game, MoveList, Side, Turn};
use plateau::games::GameVisitor;

/// Most input bytes a target reads (longer inputs are cut: the parsers' cost, not the fuzzer's, is under test).
pub const MAX_INPUT: usize = 4096;
/// Most move words a position target plays.
pub const MAX_MOVES: usize = 64;

/// The input as text (lossy: invalid UTF-8 becomes U+FFFD, which the parsers must refuse like any other character),
/// at most [`MAX_INPUT`] bytes.
pub fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(&data[..data.len().min(MAX_INPUT)]).into_owned()
}

/// The first `n` lines of `text` (missing lines are empty), the last one holding the rest.
pub fn fields(text: &str, n: usize) -> Vec<&str> {
    let mut out: Vec<&str> = text.splitn(n, '\n').collect();
    out.resize(n, "");
    out
}

/// Parse a position (empty or `start`: the start position), check it, then play the move words checking each position.
pub struct PositionCheck<'a> {
    pub position: &'a str,
    pub moves: &'a str,
}

impl GameVisitor for PositionCheck<'_> {
    type Out = ();
    fn visit<G: FullGame>(self, g: &G) {
        let text = self.position.trim();
        let mut s = if text.is_empty() || text == "start" {
            g.start()
        } else {
            match g.parse_position(text) {
                Ok(s) => s,
                Err(_) => return,
            }
        };
        check_state(g, &s, true);
        for word in g.split_moves(self.moves).iter().take(MAX_MOVES) {
            if g.is_terminal(&s) {
                break;
            }
            if G::KIND.simultaneous && g.turn(&s) == Turn::Simultaneous {
                let Ok((a, b)) = g.parse_joint(&s, word) else { break };
                g.play_joint(&mut s, a, b);
            } else {
                let Ok(m) = g.parse_move(&s, word) else { break };
                let back = g.format_move(&s, m);
                assert_eq!(
                    g.parse_move(&s, &back).ok(),
                    Some(m),
                    "move '{word}' written '{back}' reads back otherwise"
                );
                g.play(&mut s, m);
            }
            check_state(g, &s, false);
        }
    }
}

fn legal<G: Game>(g: &G, s: &G::State) -> Vec<G::Move> {
    let mut list = MoveList::new();
    g.generate_moves(s, &mut list);
    let mut v = list.to_vec();
    v.sort_by_key(|m| format!("{m:?}"));
    v
}

/// The checks of one state; `moves`: also every legal move's text round trip.
pub fn check_state<G: FullGame>(g: &G, s: &G::State, moves: bool) {
    assert_eq!(g.key(s), g.compute_key(s), "incremental key differs from the computed key in {s:?}");
    let text = g.format_position(s);
    let again = match g.parse_position(&text) {
        Ok(t) => t,
        Err(e) => panic!("the written position '{text}' does not parse: {e}"),
    };
    assert_eq!(g.format_position(&again), text, "position text is not a fixpoint");
    assert_eq!(g.is_terminal(&again), g.is_terminal(s), "'{text}': terminal differs after a round trip");
    let _ = g.display(s);
    for p in [Side::First, Side::Second] {
        let _ = g.observation(s, p);
    }
    if g.is_terminal(s) {
        return;
    }
    assert_eq!(legal(g, &again), legal(g, s), "'{text}': legal moves differ after a round trip");
    if !moves {
        return;
    }
    match g.turn(s) {
        Turn::Simultaneous => {
            let (mut a, mut b) = (MoveList::new(), MoveList::new());
            g.player_moves(s, Side::First, &mut a);
            g.player_moves(s, Side::Second, &mut b);
            for &x in &a {
                for &y in &b {
                    let word = format!("{}/{}", g.format_move(s, x), g.format_move(s, y));
                    assert_eq!(g.parse_joint(s, &word).ok(), Some((x, y)), "joint move '{word}' does not read back");
                }
            }
        }
        _ => {
            for m in legal(g, s) {
                let word = g.format_move(s, m);
                assert_eq!(g.parse_move(s, &word).ok(), Some(m), "move '{word}' does not read back in '{text}'");
            }
        }
    }
}

/// A directory of this process for the files a target writes (`TMP/plateau-fuzz-NAME-PID`), made once.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("plateau-fuzz-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("the temporary directory is made");
    d
}

/// `text` cut at lines that are exactly `====`: the sections of a target reading several files (missing ones empty).
pub fn sections(text: &str, n: usize) -> Vec<String> {
    let mut out = vec![String::new()];
    for line in text.split_inclusive('\n') {
        if line.trim_end_matches(['\n', '\r']) == "====" && out.len() < n {
            out.push(String::new());
        } else {
            out.last_mut().expect("one section at least").push_str(line);
        }
    }
    out.resize(n, String::new());
    out
}
