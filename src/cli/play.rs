//! `plateau play`: a game in the terminal, human against engine (either colour), or engine against engine.
//!
//! The loop reads commands from any `BufRead` and writes to any `Write`, so tests drive it with scripted input.

use std::io::{BufRead, Write};

use clap::{Args, ValueEnum};

use crate::game::{Game, MoveList, Outcome, Player, describe_score};
use crate::games::with_game;
use crate::search::Searcher;

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Humans {
    /// The human plays the first player (White, X, ...).
    First,
    /// The human plays the second player.
    Second,
    /// Two humans at one keyboard.
    Both,
    /// Engine against engine.
    None,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pos: super::PositionArgs,
    /// Which side(s) the human plays.
    #[arg(long, value_enum, default_value = "first")]
    human: Humans,
    /// The engine's player string (default: `engine(time=1s)`).
    #[arg(long)]
    engine: Option<String>,
    /// The second engine's player string when `--human none` (default: the same as `--engine`).
    #[arg(long)]
    engine2: Option<String>,
}

/// Default engine of `plateau play`.
pub const DEFAULT_ENGINE: &str = "engine(time=1s)";

/// The help line, with an example move of this game.
fn help<G: Game>(g: &G, s: &G::State) -> String {
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    let example = moves.first().map(|m| format!(" (e.g. {})", g.format_move(s, *m))).unwrap_or_default();
    format!(
        "commands: a move{example}, moves (list legal moves), undo (take back your last move), \
board (draw the board), hint (ask the engine), help, quit"
    )
}

pub fn run(a: PlayArgs) -> anyhow::Result<()> {
    let any = a.pos.game()?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    with_game!(&any, g => {
        let state = super::resolve_position(g, a.pos.position.as_deref(), a.pos.moves.as_deref())?;
        let e1 = a.engine.as_deref().unwrap_or(DEFAULT_ENGINE);
        let e2 = a.engine2.as_deref().unwrap_or(e1);
        let engines = [crate::players::build(e1)?, crate::players::build(e2)?];
        play_loop(g, state, a.human, engines, &mut stdin.lock(), &mut out)?;
        Ok(())
    })
}

fn is_human(h: Humans, p: Player) -> bool {
    matches!((h, p), (Humans::Both, _) | (Humans::First, Player::First) | (Humans::Second, Player::Second))
}

fn side_name(p: Player) -> &'static str {
    match p {
        Player::First => "first player",
        Player::Second => "second player",
    }
}

/// Play until the game ends or the input closes. Returns the final state.
pub fn play_loop<G: Game>(
    g: &G,
    start: G::State,
    humans: Humans,
    mut engines: [Box<dyn Searcher<G>>; 2],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> std::io::Result<G::State> {
    let mut history: Vec<G::State> = vec![start];
    writeln!(out, "{} — {}", g.spec(), help(g, &start))?;
    writeln!(out, "{}", g.display(&start))?;
    loop {
        let s = *history.last().expect("history is never empty");
        if let Some(o) = g.outcome(&s) {
            let stm = g.side_to_move(&s);
            let text = match o {
                Outcome::Win => format!("game over: the {} wins", side_name(stm)),
                Outcome::Loss => format!("game over: the {} wins", side_name(stm.other())),
                Outcome::Draw => "game over: draw".to_string(),
                Outcome::Value(v) => format!("game over: value {v} for the side to move"),
            };
            writeln!(out, "{text}")?;
            return Ok(s);
        }
        let stm = g.side_to_move(&s);
        if !is_human(humans, stm) {
            let engine = &mut engines[stm.index()];
            let r = engine.search(g, &s);
            let Some(m) = r.best_move else {
                writeln!(out, "the engine found no move")?;
                return Ok(s);
            };
            let mut pv = Vec::new();
            let mut t = s;
            for &pm in &r.pv {
                pv.push(g.format_move(&t, pm));
                g.play(&mut t, pm);
            }
            writeln!(
                out,
                "{} ({}) plays {}   value {} ({})  depth {}  nodes {}  {:.2} s  pv {}",
                side_name(stm),
                engine.name(),
                g.format_move(&s, m),
                r.value,
                describe_score(r.value),
                r.depth,
                r.stats.nodes,
                r.seconds,
                pv.join(" ")
            )?;
            let mut next = s;
            g.play(&mut next, m);
            history.push(next);
            writeln!(out, "{}", g.display(&next))?;
            continue;
        }
        write!(out, "{} to move> ", side_name(stm))?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out, "\n(end of input: game abandoned)")?;
            return Ok(s);
        }
        let cmd = line.trim();
        match cmd {
            "" => continue,
            "quit" | "exit" | "q" => {
                writeln!(out, "game abandoned")?;
                return Ok(s);
            }
            "help" | "?" => writeln!(out, "{}", help(g, &s))?,
            "board" => writeln!(out, "{}\nposition: {}", g.display(&s), g.format_position(&s))?,
            "moves" => {
                let mut moves = MoveList::new();
                g.generate_moves(&s, &mut moves);
                let list: Vec<String> = moves.iter().map(|m| g.format_move(&s, *m)).collect();
                writeln!(out, "{} legal moves: {}", list.len(), list.join(" "))?;
            }
            "hint" => {
                let r = engines[stm.index()].search(g, &s);
                if let Some(m) = r.best_move {
                    writeln!(out, "hint: {} (value {})", g.format_move(&s, m), describe_score(r.value))?;
                }
            }
            "undo" => {
                // Take back to the previous position where a human was to move.
                let mut popped = false;
                while history.len() > 1 {
                    history.pop();
                    popped = true;
                    let t = history.last().expect("non-empty");
                    if is_human(humans, g.side_to_move(t)) {
                        break;
                    }
                }
                if !popped {
                    writeln!(out, "nothing to undo")?;
                } else {
                    writeln!(out, "{}", g.display(history.last().expect("non-empty")))?;
                }
            }
            text => match g.parse_move(&s, text) {
                Ok(m) => {
                    let mut next = s;
                    g.play(&mut next, m);
                    history.push(next);
                    writeln!(out, "{}", g.display(&next))?;
                }
                Err(e) => writeln!(out, "{e} (type 'moves' for the legal moves, 'help' for commands)")?,
            },
        }
    }
}
