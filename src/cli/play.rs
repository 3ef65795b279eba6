//! `plateau play`: a game in the terminal, human against engine (either colour), or engine against engine.
//!
//! The loop reads commands from any `BufRead` and writes to any `Write`, so tests drive it with scripted input.
//!
//! Other kinds of game: at a chance node the program draws the outcome (seeded by `--seed`) and prints it; at a
//! simultaneous node each side chooses its half without seeing the other's (an engine's choice is not shown until
//! the joint move is played, and a human types only its own half); with hidden information a human sees its
//! observation instead of the board, the engine's moves are not announced, and the full state is shown at the end;
//! the engine plays under the referee's rules (it receives only its own observations, `arena/referee.rs`), so `undo`
//! is refused once it has seen the game go on, and `hint` is refused (the engines search full states). Against an
//! engine in a game with simultaneous moves `undo` is refused too: the human has seen the engine's halves.

use std::io::{BufRead, Write};

use clap::{Args, ValueEnum};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::game::{ChanceList, FullGame, GameError, MoveList, Outcome, Side, Turn, describe_score, sample_outcome};
use crate::games::with_game;
use crate::players::{Choice, Context, Player};

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Humans {
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
    /// The engine's player string (default: `engine(time=1s)`; `ismcts(time=1s)` with hidden information,
    /// `smmcts(time=1s)` with simultaneous moves, `random` where none of them plays).
    #[arg(long)]
    engine: Option<String>,
    /// The second engine's player string when `--human none` (default: the same as `--engine`).
    #[arg(long)]
    engine2: Option<String>,
    /// Seed of the chance draws (coin tosses); default: a random seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Save the finished game to FILE (appended: game string, players, result, moves).
    #[arg(long, value_name = "FILE")]
    record: Option<std::path::PathBuf>,
}

/// The default player's thinking time in `plateau play`.
const DEFAULT_TIME: &str = "time=1s";

/// The help line, with an example move of the human's side, and only the commands available in this game.
fn help<G: FullGame>(g: &G, s: &G::State, humans: Humans) -> String {
    let simultaneous = turn_of(g, s) == Turn::Simultaneous;
    let mut moves = MoveList::new();
    if simultaneous {
        let p = if humans == Humans::Second { Side::Second } else { Side::First };
        g.player_moves(s, p, &mut moves);
    } else {
        g.generate_moves(s, &mut moves);
    }
    let example = moves.first().map(|m| format!("e.g. {}", g.format_move(s, *m)));
    let a_move = match (simultaneous, example) {
        (true, Some(e)) => format!("your own move only ({e}; the other side chooses at the same time)"),
        (true, None) => "your own move only (the other side chooses at the same time)".to_string(),
        (false, Some(e)) => format!("a move ({e})"),
        (false, None) => "a move".to_string(),
    };
    // Refused here (see the loop): undo against an engine that has seen the game go on (hidden information) or
    // whose halves the human has seen (simultaneous moves); hint with hidden information.
    let undo = if (G::KIND.hidden || G::KIND.simultaneous) && humans != Humans::Both {
        ""
    } else {
        "undo (take back your last move), "
    };
    let hint = if G::KIND.hidden { "" } else { "hint (ask the engine), " };
    format!(
        "commands: {a_move}, moves (list legal moves), {undo}board (draw the board), {hint}help, quit; the squares the \
last move changed are in [ ]"
    )
}

pub fn run(a: PlayArgs) -> anyhow::Result<()> {
    if let Some(path) = &a.record {
        // Before the game: a file plateau would refuse to append to (a symbolic link, a device, a directory).
        crate::files::check_output(path, "--record").map_err(anyhow::Error::msg)?;
    }
    let any = a.pos.game()?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    with_game!(&any, g => {
        let state = super::resolve_position(g, a.pos.position.as_deref(), a.pos.moves.as_deref())?;
        let e1 = a.engine.clone().unwrap_or_else(|| default_engine(g));
        let e2 = a.engine2.as_deref().unwrap_or(&e1);
        let engines = [crate::players::build(&e1)?, crate::players::build(e2)?];
        // Who played each side, for the summary and the record: `human` or the engine's player string.
        let who = |p: Side| if is_human(a.human, p) { "human".to_string() } else { engines[p.index()].name() };
        let players = [who(Side::First), who(Side::Second)];
        let history = play_loop(g, state, a.human, engines, a.seed, &mut stdin.lock(), &mut out)?;
        super::play_summary::summary(g, &history, &players, a.record.as_deref(), &mut out)?;
        Ok(())
    })
}

/// The game's default player (`players::default_for`: the engine, ISMCTS with hidden information, simultaneous-move
/// MCTS with simultaneous moves) thinking one second a move: `engine(time=1s)`, `ismcts(time=1s)`, `smmcts(time=1s)`.
fn default_engine<G: FullGame>(_g: &G) -> String {
    match crate::players::default_for::<G>() {
        "random" => "random".into(),
        name => format!("{name}({DEFAULT_TIME})"),
    }
}

fn is_human(h: Humans, p: Side) -> bool {
    matches!((h, p), (Humans::Both, _) | (Humans::First, Side::First) | (Humans::Second, Side::Second))
}

fn side_name(p: Side) -> &'static str {
    match p {
        Side::First => "first player",
        Side::Second => "second player",
    }
}

/// The side's name in the game's words where it has one (`White`), else `Player 1` / `Player 2`: the prompt's
/// (`White to move>`, `Player 1 to move>`: one form for every game).
fn who<G: FullGame>(g: &G, p: Side) -> &'static str {
    g.player_name(p).unwrap_or(match p {
        Side::First => "Player 1",
        Side::Second => "Player 2",
    })
}

/// A value from `p`'s point of view, for people: `-4 for White`, `win in 7 for Player 1`.
fn value_words<G: FullGame>(g: &G, p: Side, v: i32) -> String {
    format!("{} for {}", describe_score(v), who(g, p))
}

/// A probability for people: a fraction with a small denominator when it is one (`1/36`, `1/2`), else three decimals.
fn probability_words(p: f64) -> String {
    for d in 1..=216u32 {
        let n = (p * d as f64).round();
        if (p * d as f64 - n).abs() < 1e-9 {
            return if n == d as f64 { "1".into() } else { format!("{}/{d}", n as u64) };
        }
    }
    format!("{p:.3}")
}

/// A board's text after the game ended: without the line saying who is to move (nobody is).
fn after_the_end(text: &str) -> String {
    text.lines().filter(|l| !l.trim_end().ends_with("to move")).collect::<Vec<_>>().join("\n")
}

/// [`who`] inside a sentence: `White`, `the first player`.
fn the<G: FullGame>(g: &G, p: Side) -> String {
    g.player_name(p).map_or_else(|| format!("the {}", side_name(p)), str::to_string)
}

/// Who acts in `s`: a player, chance, or both at once.
fn turn_of<G: FullGame>(g: &G, s: &G::State) -> Turn {
    if G::KIND.is_classic() { Turn::Player(g.side_to_move(s)) } else { g.turn(s) }
}

/// Whether a human acts in `s` (undo goes back to such a state).
fn human_acts<G: FullGame>(g: &G, s: &G::State, humans: Humans) -> bool {
    match turn_of(g, s) {
        Turn::Player(p) => is_human(humans, p),
        Turn::Chance => false,
        Turn::Simultaneous => humans != Humans::None,
    }
}

/// With hidden information, the human whose view is shown (`None`: the full board).
fn viewer<G: FullGame>(g: &G, s: &G::State, humans: Humans) -> Option<Side> {
    if !G::KIND.hidden {
        return None;
    }
    match humans {
        Humans::First => Some(Side::First),
        Humans::Second => Some(Side::Second),
        Humans::Both => Some(g.side_to_move(s)),
        Humans::None => None,
    }
}

/// Print the board, or the human's observation when it changed (hidden information; the end shows the full state).
fn show<G: FullGame>(
    g: &G,
    s: &G::State,
    humans: Humans,
    shown: &mut String,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let text = match viewer(g, s, humans) {
        Some(_) if g.is_terminal(s) => return Ok(()),
        Some(p) => g.observation(s, p),
        None if g.is_terminal(s) => after_the_end(&g.display(s)),
        None => g.display(s),
    };
    if G::KIND.hidden && text == *shown {
        return Ok(());
    }
    writeln!(out, "{}", mark_changes(shown, &text))?;
    *shown = text;
    Ok(())
}

/// The board `after` with the squares that changed since `before` in brackets (`.[P]. .`): the last move marked,
/// for every game whose board is drawn as cells separated by spaces. A line is marked only when each changed
/// character stands alone between spaces (a cell), so other lines ("White to move") are left as they are.
pub(crate) fn mark_changes(before: &str, after: &str) -> String {
    let old: Vec<Vec<char>> = before.lines().map(|l| l.chars().collect()).collect();
    let mut out = Vec::new();
    for (i, line) in after.lines().enumerate() {
        let new: Vec<char> = line.chars().collect();
        let Some(prev) = old.get(i).filter(|p| p.len() == new.len() && **p != new) else {
            out.push(line.to_string());
            continue;
        };
        let changed: Vec<usize> = (0..new.len()).filter(|&k| prev[k] != new[k]).collect();
        let blank = |k: Option<usize>| k.is_none_or(|k| new.get(k).is_none_or(|c| *c == ' '));
        // A change in the first column is a word ("X to move"), not a cell: boards start their rows with a label
        // or a space.
        if !changed.iter().all(|&k| k > 0 && blank(Some(k - 1)) && blank(Some(k + 1))) {
            out.push(line.to_string());
            continue;
        }
        let mut marked = new.clone();
        for &k in &changed {
            marked[k - 1] = if marked[k - 1] == ']' { '|' } else { '[' };
            if k + 1 < marked.len() {
                marked[k + 1] = ']';
            }
        }
        let mut text: String = marked.into_iter().collect();
        if changed.last() == Some(&(new.len() - 1)) {
            text.push(']');
        }
        out.push(text);
    }
    out.join("\n")
}

/// The moves `p` may play in `s` as a list (its half at a simultaneous node).
fn moves_of<G: FullGame>(g: &G, s: &G::State, p: Side) -> MoveList<G::Move> {
    let mut moves = MoveList::new();
    g.player_moves(s, p, &mut moves);
    moves
}

/// A human's half of a joint move.
fn parse_half<G: FullGame>(g: &G, s: &G::State, p: Side, text: &str) -> Result<G::Move, GameError> {
    let moves = moves_of(g, s, p);
    moves.iter().copied().find(|&m| g.format_move(s, m).eq_ignore_ascii_case(text.trim())).ok_or_else(|| {
        let legal: Vec<String> = moves.iter().map(|&m| g.format_move(s, m)).collect();
        GameError::new(format!("'{}': {} chooses one of {}", text.trim(), the(g, p), legal.join(" ")))
    })
}

/// Hidden information: tell each engine its observation when it changed (`told[p]` is `None` for a human).
fn tell<G: FullGame>(g: &G, s: &G::State, engines: &mut [Box<dyn Player<G>>; 2], told: &mut [Option<String>; 2]) {
    for p in [Side::First, Side::Second] {
        if let Some(last) = told[p.index()].as_mut() {
            let seen = g.observation(s, p);
            if seen != *last {
                // (A built-in player's observe does not fail.)
                let _ = engines[p.index()].observe(g, &seen);
                *last = seen;
            }
        }
    }
}

/// Play until the game ends or the input closes. Returns the final state.
pub(crate) fn play_loop<G: FullGame>(
    g: &G,
    start: G::State,
    humans: Humans,
    mut engines: [Box<dyn Player<G>>; 2],
    seed: Option<u64>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> std::io::Result<Vec<G::State>> {
    let mut rng = match seed {
        Some(x) => SmallRng::seed_from_u64(x),
        None => SmallRng::from_rng(&mut rand::rng()),
    };
    // With a seed, the engines' random choices come from it too (seat 0 and 1 of game 0).
    if let Some(x) = seed {
        for (i, e) in engines.iter_mut().enumerate() {
            e.reseed(crate::game::seed::derive(&[x, 0, i as u64]));
        }
    }
    let mut history: Vec<G::State> = vec![start];
    // The halves already chosen at the current simultaneous node, and the last view printed (hidden information).
    let mut halves: [Option<G::Move>; 2] = [None, None];
    let mut shown = String::new();
    // With hidden information the engines play under the referee's rules: they get only their observations.
    let mut told: [Option<String>; 2] = [None, None];
    // Tables and evaluations are built before the first move (outside its time).
    for e in engines.iter_mut() {
        e.new_game(g).map_err(std::io::Error::other)?;
    }
    if G::KIND.hidden {
        for p in [Side::First, Side::Second] {
            if !is_human(humans, p) {
                engines[p.index()].observe_start(g, &start, p).map_err(std::io::Error::other)?;
                told[p.index()] = Some(g.observation(&start, p));
            }
        }
    }
    writeln!(out, "{} — {}", g.spec(), help(g, &start, humans))?;
    show(g, &start, humans, &mut shown, out)?;
    loop {
        let s = *history.last().expect("history is never empty");
        tell(g, &s, &mut engines, &mut told);
        if let Some(o) = g.outcome(&s) {
            let stm = g.side_to_move(&s);
            let text = match o {
                Outcome::Win => format!("game over: {} wins", the(g, stm)),
                Outcome::Loss => format!("game over: {} wins", the(g, stm.other())),
                Outcome::Draw => "game over: draw".to_string(),
                Outcome::Value(v) => format!("game over: value {v} for {}", the(g, stm)),
            };
            writeln!(out, "{text}")?;
            if G::KIND.hidden {
                writeln!(out, "the full state:\n{}\nposition: {}", g.display(&s), g.format_position(&s))?;
            }
            return Ok(history);
        }
        let turn = turn_of(g, &s);
        let stm = match turn {
            Turn::Player(p) => p,
            Turn::Chance => {
                let mut outcomes = ChanceList::new();
                g.chance_outcomes(&s, &mut outcomes);
                let Some(m) = sample_outcome(&outcomes, &mut rng) else {
                    writeln!(out, "a chance node without outcomes")?;
                    return Ok(history);
                };
                let p = outcomes.iter().find(|o| o.0 == m).map_or(0.0, |o| o.1);
                writeln!(out, "chance: {} (probability {})", g.format_move(&s, m), probability_words(p))?;
                let mut next = s;
                g.play(&mut next, m);
                history.push(next);
                show(g, &next, humans, &mut shown, out)?;
                continue;
            }
            Turn::Simultaneous => {
                for p in [Side::First, Side::Second] {
                    if !is_human(humans, p) && halves[p.index()].is_none() {
                        let engine = &mut engines[p.index()];
                        let Ok(Choice { mv: m, .. }) = engine.choose(g, Context::half(&s, p)) else {
                            writeln!(out, "the engine found no move")?;
                            return Ok(history);
                        };
                        halves[p.index()] = Some(m);
                        writeln!(out, "{} ({}) has chosen", who(g, p), engine.name())?;
                    }
                }
                match halves {
                    [Some(a), Some(b)] => {
                        halves = [None, None];
                        writeln!(out, "joint move {}/{}", g.format_move(&s, a), g.format_move(&s, b))?;
                        let mut next = s;
                        g.play_joint(&mut next, a, b);
                        history.push(next);
                        show(g, &next, humans, &mut shown, out)?;
                        continue;
                    }
                    [None, _] => Side::First,
                    _ => Side::Second,
                }
            }
        };
        let simultaneous = turn == Turn::Simultaneous;
        if !is_human(humans, stm) {
            let engine = &mut engines[stm.index()];
            let r = if G::KIND.hidden {
                let legal = moves_of(g, &s, stm);
                let text: Vec<String> = legal.iter().map(|&m| g.format_move(&s, m)).collect();
                engine.choose(g, Context::observed(&legal, &text, stm))
            } else {
                engine.choose(g, Context::position(g, &s))
            };
            let Ok(r) = r else {
                writeln!(out, "the engine found no move")?;
                return Ok(history);
            };
            let m = r.mv;
            if viewer(g, &s, humans).is_none() {
                let pv = crate::game::line_words(g, &s, &r.pv);
                writeln!(
                    out,
                    "{} ({}) plays {}   value {}  depth {}  nodes {}  {:.2} s  pv {}",
                    who(g, stm),
                    engine.name(),
                    g.format_move(&s, m),
                    value_words(g, stm, r.value.unwrap_or(0)),
                    r.depth,
                    r.stats.nodes,
                    r.seconds,
                    pv.join(" ")
                )?;
            }
            let mut next = s;
            g.play(&mut next, m);
            history.push(next);
            show(g, &next, humans, &mut shown, out)?;
            continue;
        }
        if simultaneous {
            let example = moves_of(g, &s, stm).first().map(|m| format!(", e.g. {}", g.format_move(&s, *m)));
            let other = who(g, stm.other());
            write!(
                out,
                "{}, your move only{} ({other} chooses at the same time and does not see it)> ",
                who(g, stm),
                example.unwrap_or_default()
            )?;
        } else {
            write!(out, "{} to move> ", who(g, stm))?;
        }
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out, "\n(end of input: game abandoned)")?;
            return Ok(history);
        }
        let cmd = line.trim();
        match cmd {
            "" => continue,
            "quit" | "exit" | "q" => {
                writeln!(out, "game abandoned")?;
                return Ok(history);
            }
            "help" | "?" => writeln!(out, "{}", help(g, &s, humans))?,
            "board" => match viewer(g, &s, humans) {
                Some(p) => writeln!(out, "{}", g.observation(&s, p))?,
                None => writeln!(out, "{}\nposition: {}", g.display(&s), g.format_position(&s))?,
            },
            "moves" => {
                let list: Vec<String> = moves_of(g, &s, stm).iter().map(|m| g.format_move(&s, *m)).collect();
                // Moves written with spaces (a backgammon turn, `24/18 13/11`) are separated by commas.
                let sep = if list.iter().any(|m| m.contains(' ')) { ", " } else { " " };
                writeln!(out, "{} legal moves: {}", list.len(), list.join(sep))?;
            }
            // The engines search full states: with hidden information a hint would use what the human cannot see
            // (a board drawn from the true one keeps, for one, the opponent's number of pieces).
            "hint" if G::KIND.hidden => writeln!(out, "hint is not available with hidden information")?,
            "hint" => {
                if let Ok(r) = engines[stm.index()].choose(g, Context::at(g, &s, stm)) {
                    let value = r.value.map_or_else(String::new, |v| format!(" (value {})", value_words(g, stm, v)));
                    writeln!(out, "hint: {}{value}", g.format_move(&s, r.mv))?;
                }
            }
            "undo" if told.iter().any(Option::is_some) => {
                writeln!(out, "undo is not available here: the engine has already seen what followed")?
            }
            // After a joint move the human has seen the engine's half: taking the turn back would let it answer.
            "undo" if G::KIND.simultaneous && humans != Humans::Both => {
                writeln!(out, "undo is not available here: you have seen the engine's choices")?
            }
            "undo" => {
                // Take back to the previous position where a human was to move.
                halves = [None, None];
                shown.clear();
                let mut popped = false;
                while history.len() > 1 {
                    history.pop();
                    popped = true;
                    if human_acts(g, history.last().expect("non-empty"), humans) {
                        break;
                    }
                }
                if !popped {
                    writeln!(out, "nothing to undo")?;
                } else {
                    show(g, history.last().expect("non-empty"), humans, &mut shown, out)?;
                }
            }
            text if simultaneous => match parse_half(g, &s, stm, text) {
                Ok(m) => {
                    halves[stm.index()] = Some(m);
                    writeln!(out, "{} has chosen", who(g, stm))?;
                }
                Err(e) => writeln!(out, "{e} (type 'moves' for the legal moves, 'help' for commands)")?,
            },
            text => match g.parse_move(&s, text) {
                Ok(m) => {
                    let mut next = s;
                    g.play(&mut next, m);
                    history.push(next);
                    show(g, &next, humans, &mut shown, out)?;
                }
                Err(e) => writeln!(out, "{e} (type 'moves' for the legal moves, 'help' for commands)")?,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{after_the_end, mark_changes, probability_words, value_words};
    use crate::game::Side;

    #[test]
    fn the_last_move_is_bracketed_on_the_board() {
        let before = "  3 . . .\n  2 P P .\n    a b c\nWhite (P) to move";
        let after = "  3 . P .\n  2 P . .\n    a b c\nBlack (p) to move";
        assert_eq!(mark_changes(before, after), "  3 .[P].\n  2 P[.].\n    a b c\nBlack (p) to move");
        // Neighbouring cells share a bracket; a cell at the line's end gets one outside.
        assert_eq!(mark_changes(" P P .", " . . P"), "[.|.|P]");
        // A word that changes at the start of a line is not a cell.
        assert_eq!(mark_changes("X to move", "O to move"), "O to move");
        // Nothing printed before (the first board, after an undo): no marks.
        assert_eq!(mark_changes("", after), after);
        // Lines whose changes are not single cells stay as they are.
        assert_eq!(mark_changes("abc def", "abd dxf"), "abd dxf");
    }

    #[test]
    fn probabilities_values_and_the_end_for_people() {
        assert_eq!(probability_words(0.5), "1/2");
        assert_eq!(probability_words(1.0 / 36.0), "1/36");
        assert_eq!(probability_words(0.03333333333333333), "1/30");
        assert_eq!(probability_words(1.0), "1");
        assert_eq!(probability_words(0.123456789), "0.123");
        let g = crate::games::TicTacToe;
        assert_eq!(value_words(&g, Side::First, -4), "-4 for X");
        assert_eq!(value_words(&crate::games::Pig::default(), Side::Second, 12), "12 for Player 2");
        assert_eq!(after_the_end("  2 P .\n    a b\nWhite (P) to move"), "  2 P .\n    a b");
    }
}
