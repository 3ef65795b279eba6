//! Interop and presentation: what other programs and pages need of a game beyond its rules: players' names and a
//! picture of the board for the web page ([`view`](super::view)), and OpenSpiel's integer actions, returns and
//! observation tensors for the Python bindings.
//!
//! Every method has a neutral default ("the game has none"): a game without them writes `impl Interop for MyGame {}`
//! and is still drawn (as [`Game::display`]'s text) and played from Python (actions by their index in the move list).

use super::{BoardView, Capabilities, Outcome, Side, WIN_SCORE};

/// Names, pictures, actions and tensors: the game seen from outside the library.
pub trait Interop: Capabilities {
    /// A player's name in this game's words (`White`, `X`), for answers such as "Black, the second player, wins";
    /// `None` where the game has no names beyond first and second.
    fn player_name(&self, player: Side) -> Option<&'static str> {
        let _ = player;
        None
    }

    /// A picture of the board as data for the web page ([`view`]); `None` (the default) shows [`Game::display`]'s text.
    fn board_view(&self, state: &Self::State) -> Option<BoardView> {
        let _ = state;
        None
    }

    /// The cells of [`Interop::board_view`] a move goes from and to (a placement: only to), for highlighting legal
    /// targets. The default reads the cell names the move's text starts with (`a2a3`, `b2`).
    fn move_cells(&self, state: &Self::State, mv: Self::Move) -> (Option<u32>, Option<u32>) {
        match self.board_view(state) {
            Some(view) => view.cells_of_move(&self.format_move(state, mv)),
            None => (None, None),
        }
    }

    /// The number of distinct action ids [`Interop::action_id`] uses (OpenSpiel's `num_distinct_actions`); `None` where
    /// the game has no fixed numbering, and a move's action is then its index in the node's move list.
    fn num_distinct_actions(&self) -> Option<u32> {
        None
    }

    /// A stable integer for `mv` in `state`, below [`Interop::num_distinct_actions`] (the same move gets the same number in
    /// every position; OpenSpiel's numbering where the game exists there). `None` where the game has no numbering.
    fn action_id(&self, state: &Self::State, mv: Self::Move) -> Option<u32> {
        let _ = (state, mv);
        None
    }

    /// A finished game's result as OpenSpiel's `returns()` gives it, for the player whose outcome `o` is: a win 1, a
    /// loss -1, a draw 0, a numeric result its value. Games OpenSpiel has with a numeric result override it with
    /// OpenSpiel's convention (Oware: the sign of the margin; backgammon: the points won, 1 to 3).
    fn returns_value(&self, o: Outcome) -> f64 {
        match o {
            Outcome::Win => 1.0,
            Outcome::Loss => -1.0,
            Outcome::Draw => 0.0,
            Outcome::Value(v) => v as f64,
        }
    }

    /// The most a player can win, as [`Interop::returns_value`] counts it (OpenSpiel's `max_utility`; the games are
    /// zero-sum, so `min_utility` is its opposite). The default: the value bound's returns where the game bounds its
    /// values ([`Capabilities::value_bound`] below [`WIN_SCORE`]: backgammon 1 or 3, the synthetic trees their range), else 1
    /// (a win). Games whose numeric results the default does not bound override it.
    fn max_utility(&self) -> f64 {
        let b = self.value_bound();
        if b >= WIN_SCORE { 1.0 } else { self.returns_value(Outcome::Value(b)).abs().max(1.0) }
    }

    /// The most actions a game can last from the start (OpenSpiel's `max_game_length`: moves, chance outcomes and
    /// joint moves each one), a bound the rules guarantee; `None` where the rules give none short enough to state
    /// (draws by repetition or move counters, dice).
    fn max_game_length(&self) -> Option<u32> {
        None
    }

    /// The shape of [`Interop::observation_tensor`] (planes, rows, columns for a board); empty where the game has none.
    fn observation_shape(&self) -> Vec<usize> {
        Vec::new()
    }

    /// What `player` observes of `state` as numbers, written into `out` (as long as the shape's product, zeroed by
    /// the caller). Boards: one plane per kind of piece (first player's, second player's, empty), row `i` the row
    /// the game's notation names `i + 1`.
    fn observation_tensor(&self, state: &Self::State, player: Side, out: &mut [f32]) {
        let _ = (state, player, out);
    }
}
