//! Pig's move and position text (see the module doc of `pig`), and its drawing.

use super::{HOLD, Pig, PigMove, PigState, ROLL};
use crate::game::{Game, GameError, err};

/// `roll`, `hold` (`r`, `h`, `stop`) at a player's node; a face `1..=die` (`roll 3`) while the die rolls.
pub fn parse_move(g: &Pig, s: &PigState, text: &str) -> Result<PigMove, GameError> {
    let t = text.trim().to_ascii_lowercase();
    if g.over(s) {
        return err("the game is over: no move is legal");
    }
    if s.rolling {
        let face = t.strip_prefix("roll").unwrap_or(&t).trim();
        return match face.parse::<u32>() {
            Ok(f) if (1..=g.die).contains(&f) => Ok(f as u8),
            _ => err(format!("'{}': the die is rolling here: a face 1..={}", text.trim(), g.die)),
        };
    }
    let m = match t.as_str() {
        "roll" | "r" => ROLL,
        "hold" | "h" | "stop" => HOLD,
        _ => return err(format!("'{}': expected roll or hold", text.trim())),
    };
    if m == ROLL && g.must_hold(s) {
        return err("roll: the target is reached, the only legal move is hold");
    }
    Ok(m)
}

/// `A B T P` or `A B T P roll`.
pub fn parse_position(g: &Pig, text: &str) -> Result<PigState, GameError> {
    let t = text.trim();
    let words: Vec<&str> = t.split_whitespace().collect();
    let bad = |why: &str| {
        GameError::new(format!(
            "pig position '{t}': {why} (expected 'A B T P' or 'A B T P roll': both scores, the turn total, the player \
to move 1 or 2, e.g. '12 30 5 2')"
        ))
    };
    if words.len() != 4 && !(words.len() == 5 && words[4].eq_ignore_ascii_case("roll")) {
        return Err(bad("wrong number of words"));
    }
    let num = |w: &str| w.parse::<u32>().map_err(|_| bad(&format!("'{w}' is not a number")));
    let (a, b, tt) = (num(words[0])?, num(words[1])?, num(words[2])?);
    let side = match words[3] {
        "1" => 0,
        "2" => 1,
        w => return Err(bad(&format!("'{w}': the player to move is 1 or 2"))),
    };
    let target = g.target;
    let limit = target + g.die + 1;
    if a > limit || b > limit {
        return Err(bad(&format!("a score above {limit} cannot be reached with target {target}")));
    }
    if a >= target && b >= target {
        return Err(bad("both players cannot have reached the target"));
    }
    let rolling = words.len() == 5;
    let mover = if side == 0 { a } else { b };
    if tt > 0 && mover + tt >= target + g.die {
        return Err(bad(&format!("turn total {tt} is too large: the player had to hold at the target")));
    }
    if (a >= target || b >= target) && (tt > 0 || rolling) {
        return Err(bad("the game is over: no turn total, no roll"));
    }
    if rolling && mover + tt >= target {
        return Err(bad("the target is reached: the player must hold, not roll"));
    }
    Ok(g.state([a as u16, b as u16], tt as u16, side, rolling))
}

/// The scores, the turn total and who acts.
pub fn display(g: &Pig, s: &PigState) -> String {
    let mut out = format!(
        "{}\nfirst player {:>4}\nsecond player {:>3}\nturn total {:>6}\n",
        g.spec(),
        s.scores[0],
        s.scores[1],
        s.turn_total
    );
    let who = if s.side == 0 { "first player" } else { "second player" };
    out += &if g.over(s) {
        format!("game over: the {} wins", if s.side == 0 { "second player" } else { "first player" })
    } else if s.rolling {
        format!("the {who} rolls the die")
    } else {
        format!("the {who} to move: roll or hold")
    };
    out
}
