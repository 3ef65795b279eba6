//! Grid mazes in the course's text format: `#` wall, `.` free, `@` start, `$` goal (one start, one or more goals).
//! The agent moves one square up, down, left or right onto a non-wall square inside the grid; every move costs 1.
//! Solutions are written as move strings of `u`, `d`, `l`, `r`; the heuristic is the Manhattan distance to the
//! nearest goal (admissible and consistent).
//!
//! ```text
//! #####
//! #@.$#      solution: rr (2 moves)
//! #####
//! ```

use super::{ActionList, Cost, Problem};

/// A parsed maze.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub width: u32,
    pub height: u32,
    free: Vec<bool>,
    goal: Vec<bool>,
    pub start: u32,
    pub(crate) goals: Vec<u32>,
}

/// The four moves, in the order they are tried.
pub(crate) const MOVES: [u8; 4] = [b'u', b'd', b'l', b'r'];

impl Grid {
    /// Parse the text format. Errors are one line naming the problem (unknown character with its line and column,
    /// ragged lines, missing or repeated start, missing goal).
    pub fn parse(text: &str) -> Result<Grid, String> {
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
        let last = lines.iter().rposition(|l| !l.trim().is_empty()).map_or(0, |i| i + 1);
        let lines = &lines[..last];
        if lines.is_empty() {
            return Err("empty grid: expected lines of '#', '.', '@' and '$'".into());
        }
        let width = lines[0].chars().count();
        if width == 0 {
            return Err("grid line 1 is empty".into());
        }
        let (mut free, mut goal, mut goals, mut start) = (Vec::new(), Vec::new(), Vec::new(), None);
        for (row, line) in lines.iter().enumerate() {
            let n = line.chars().count();
            if n != width {
                return Err(format!(
                    "grid line {} has {n} characters, line 1 has {width}: lines must be equally long",
                    row + 1
                ));
            }
            for (col, ch) in line.chars().enumerate() {
                let idx = (row * width + col) as u32;
                match ch {
                    '#' => {}
                    '.' | '@' | '$' => {}
                    _ => {
                        return Err(format!(
                            "grid line {} column {}: unexpected '{ch}' (expected '#', '.', '@' or '$')",
                            row + 1,
                            col + 1
                        ));
                    }
                }
                free.push(ch != '#');
                goal.push(ch == '$');
                if ch == '$' {
                    goals.push(idx);
                }
                if ch == '@' {
                    if start.is_some() {
                        return Err(format!("grid line {} column {}: a second start '@'", row + 1, col + 1));
                    }
                    start = Some(idx);
                }
            }
        }
        let start = start.ok_or("the grid has no start '@'")?;
        if goals.is_empty() {
            return Err("the grid has no goal '$'".into());
        }
        if width * lines.len() > u32::MAX as usize / 2 {
            return Err("the grid is too large".into());
        }
        Ok(Grid { width: width as u32, height: lines.len() as u32, free, goal, start, goals })
    }

    /// The square one move away, if it is inside the grid and free.
    #[inline]
    pub fn step(&self, cell: u32, mv: u8) -> Option<u32> {
        let (r, c) = (cell / self.width, cell % self.width);
        let next = match mv {
            b'u' if r > 0 => cell - self.width,
            b'd' if r + 1 < self.height => cell + self.width,
            b'l' if c > 0 => cell - 1,
            b'r' if c + 1 < self.width => cell + 1,
            _ => return None,
        };
        self.free[next as usize].then_some(next)
    }

    /// Whether some goal can be reached at all (a flood fill; IDA* has no table and could not tell by itself).
    pub fn goal_reachable(&self) -> bool {
        let mut seen = vec![false; self.free.len()];
        let mut todo = vec![self.start];
        seen[self.start as usize] = true;
        while let Some(c) = todo.pop() {
            if self.goal[c as usize] {
                return true;
            }
            for mv in MOVES {
                if let Some(n) = self.step(c, mv)
                    && !seen[n as usize]
                {
                    seen[n as usize] = true;
                    todo.push(n);
                }
            }
        }
        false
    }

    /// The maze with a path drawn on it (`o` on the squares visited between start and goal).
    pub(crate) fn draw_path(&self, path: &[u8]) -> String {
        let mut chars: Vec<char> = (0..self.free.len())
            .map(|i| {
                if !self.free[i] {
                    '#'
                } else if self.goal[i] {
                    '$'
                } else {
                    '.'
                }
            })
            .collect();
        chars[self.start as usize] = '@';
        let mut c = self.start;
        for &mv in path {
            if let Some(n) = self.step(c, mv) {
                c = n;
                if chars[c as usize] == '.' {
                    chars[c as usize] = 'o';
                }
            }
        }
        chars.chunks(self.width as usize).map(|r| r.iter().collect::<String>()).collect::<Vec<_>>().join("\n")
    }
}

impl Problem for Grid {
    type State = u32;
    type Action = u8;
    type Key = u32;

    fn start(&self) -> u32 {
        self.start
    }
    fn is_goal(&self, s: &u32) -> bool {
        self.goal[*s as usize]
    }
    fn actions(&self, s: &u32, out: &mut ActionList<u8>) {
        out.clear();
        for mv in MOVES {
            if self.step(*s, mv).is_some() {
                out.push(mv);
            }
        }
    }
    fn apply(&self, s: &u32, a: u8) -> (u32, Cost) {
        (self.step(*s, a).unwrap_or(*s), 1)
    }
    fn heuristic(&self, s: &u32) -> Cost {
        let (r, c) = (s / self.width, s % self.width);
        self.goals.iter().map(|g| (g / self.width).abs_diff(r) + (g % self.width).abs_diff(c)).min().unwrap_or(0)
    }
    fn key(&self, s: &u32) -> u32 {
        *s
    }
    fn format_action(&self, _s: &u32, a: u8) -> String {
        (a as char).to_string()
    }
}
