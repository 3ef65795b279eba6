//! Zero-sum matrix games solved by linear programming (the `microlp` crate, pure Rust).
//!
//! The row player chooses row `i` with probability `x_i`, the column player column `j`; the row player receives
//! `A[i][j]`. The value of the game and an optimal mixed strategy of the row player are the solution of
//!
//! ```text
//! maximise v   subject to   sum_i x_i A[i][j] >= v  for every column j,   sum_i x_i = 1,   x_i >= 0   (v free)
//! ```
//!
//! (von Neumann's minimax theorem: the column player's optimum, the dual, has the same value). The column player's
//! strategy is the row player's of the game `-A` transposed. Before the LP, two exact shortcuts: a single row or column
//! (a pure choice), and a pure saddle point (the largest row minimum equals the smallest column maximum), which most
//! nodes of a game tree have.

use microlp::{ComparisonOp, OptimizationDirection, Problem};

/// A matrix of payoffs to the row player, row-major.
#[derive(Clone, Debug)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    pub a: Vec<f64>,
}

/// A solved matrix game: the value for the row player and an optimal mixed strategy of each player.
#[derive(Clone, Debug)]
pub struct Solution {
    pub value: f64,
    pub row: Vec<f64>,
    pub col: Vec<f64>,
    /// Whether the LP was needed (no pure saddle point).
    pub mixed: bool,
}

impl Matrix {
    pub fn new(rows: usize, cols: usize, a: Vec<f64>) -> Matrix {
        assert_eq!(a.len(), rows * cols, "a {rows}x{cols} matrix needs {} entries", rows * cols);
        Matrix { rows, cols, a }
    }

    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.a[i * self.cols + j]
    }

    /// The game seen by the column player: `-A` transposed.
    pub fn swapped(&self) -> Matrix {
        let a = (0..self.cols).flat_map(|j| (0..self.rows).map(move |i| -self.at(i, j))).collect();
        Matrix { rows: self.cols, cols: self.rows, a }
    }

    /// What the row's mixed strategy `x` guarantees: its worst payoff over the columns.
    pub fn guarantee(&self, x: &[f64]) -> f64 {
        (0..self.cols).map(|j| (0..self.rows).map(|i| x[i] * self.at(i, j)).sum::<f64>()).fold(f64::INFINITY, f64::min)
    }

    /// Solve the game (value, both strategies).
    pub fn solve(&self) -> Result<Solution, String> {
        // A pure saddle point: the row whose minimum is largest, the column whose maximum is smallest.
        let row_min = |i: usize| (0..self.cols).map(|j| self.at(i, j)).fold(f64::INFINITY, f64::min);
        let col_max = |j: usize| (0..self.rows).map(|i| self.at(i, j)).fold(f64::NEG_INFINITY, f64::max);
        let best_row = (0..self.rows).max_by(|&a, &b| row_min(a).total_cmp(&row_min(b))).ok_or("an empty matrix")?;
        let best_col = (0..self.cols).min_by(|&a, &b| col_max(a).total_cmp(&col_max(b))).ok_or("an empty matrix")?;
        if row_min(best_row) == col_max(best_col) {
            return Ok(Solution {
                value: row_min(best_row),
                row: unit(self.rows, best_row),
                col: unit(self.cols, best_col),
                mixed: false,
            });
        }
        let (value, row) = self.row_strategy()?;
        let (_, col) = self.swapped().row_strategy()?;
        Ok(Solution { value, row, col, mixed: true })
    }

    /// The LP of the module documentation: the value and an optimal strategy of the row player.
    fn row_strategy(&self) -> Result<(f64, Vec<f64>), String> {
        let mut lp = Problem::new(OptimizationDirection::Maximize);
        let x: Vec<_> = (0..self.rows).map(|_| lp.add_var(0.0, (0.0, f64::INFINITY))).collect();
        let v = lp.add_var(1.0, (f64::NEG_INFINITY, f64::INFINITY));
        for j in 0..self.cols {
            let mut terms: Vec<_> = (0..self.rows).map(|i| (x[i], self.at(i, j))).collect();
            terms.push((v, -1.0));
            lp.add_constraint(terms.as_slice(), ComparisonOp::Ge, 0.0);
        }
        let ones: Vec<_> = x.iter().map(|&xi| (xi, 1.0)).collect();
        lp.add_constraint(ones.as_slice(), ComparisonOp::Eq, 1.0);
        let sol = lp
            .solve()
            .map_err(|e| format!("linear program: {e}"))?
            .into_solution()
            .map_err(|_| "linear program: interrupted".to_string())?;
        // Clean the round-off: no negative probability, a sum of exactly 1.
        let mut p: Vec<f64> = x.iter().map(|&xi| sol.var_value(xi).max(0.0)).collect();
        let sum: f64 = p.iter().sum();
        p.iter_mut().for_each(|q| *q /= sum);
        Ok((sol.var_value(v), p))
    }
}

fn unit(n: usize, k: usize) -> Vec<f64> {
    (0..n).map(|i| if i == k { 1.0 } else { 0.0 }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_pennies_rock_paper_scissors_and_a_saddle_point() {
        let pennies = Matrix::new(2, 2, vec![1.0, -1.0, -1.0, 1.0]).solve().unwrap();
        assert!(pennies.value.abs() < 1e-9 && pennies.mixed);
        assert!(pennies.row.iter().chain(&pennies.col).all(|p| (p - 0.5).abs() < 1e-9));
        let rps = Matrix::new(3, 3, vec![0.0, -1.0, 1.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0]).solve().unwrap();
        assert!(rps.value.abs() < 1e-9);
        assert!(rps.row.iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-9), "{:?}", rps.row);
        // [[3, -1], [-2, 1]]: the row player equalises the columns, 3x - 2(1-x) = -x + (1-x): x = 3/7, value 1/7.
        let m = Matrix::new(2, 2, vec![3.0, -1.0, -2.0, 1.0]);
        let s = m.solve().unwrap();
        assert!((s.value - 1.0 / 7.0).abs() < 1e-9, "{}", s.value);
        assert!((s.row[0] - 3.0 / 7.0).abs() < 1e-9, "{:?}", s.row);
        assert!((m.guarantee(&s.row) - s.value).abs() < 1e-9);
        assert!((m.swapped().guarantee(&s.col) + s.value).abs() < 1e-9);
        let saddle = Matrix::new(2, 3, vec![1.0, 2.0, 3.0, 0.0, 5.0, -1.0]).solve().unwrap();
        assert_eq!((saddle.value, saddle.mixed, saddle.row[0], saddle.col[0]), (1.0, false, 1.0, 1.0));
    }
}
