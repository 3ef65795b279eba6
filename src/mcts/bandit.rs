//! The selection at a node of simultaneous-move MCTS: each player runs its own bandit over its own moves, without
//! seeing the other's choice (Lanctot, Lisý, Winands, "Monte Carlo tree search in simultaneous move games", 2013;
//! Lisý, Kovařík, Lanctot, Bošanský, "Convergence of Monte Carlo tree search in simultaneous move games", 2013).
//!
//! ```text
//! rewards u in [0, 1] for the player (win 1, draw 1/2, loss 0); K moves; gamma the exploration share
//!
//! DUCT (decoupled UCT)   choose: an unvisited move, else argmax  mean(a) + c * sqrt(ln N / n(a))
//!                        update: n(a) += 1, sum(a) += u
//!                        play:   the most visited move
//! RM (regret matching)   sigma(a) = R+(a) / sum R+ (uniform if no regret is positive)
//!                        choose: a ~ sigma' = (1 - gamma) sigma + gamma / K;   avg(a) += sigma(a) for every a
//!                        update: for every a': R(a') += [a' = a] u / sigma'(a) - u      (importance-sampled regret)
//!                        play:   a move drawn from the average strategy avg / sum avg
//! EXP3                   sigma'(a) = (1 - gamma) exp(eta S(a)) / sum exp(eta S) + gamma / K,   eta = gamma / K
//!                        choose: a ~ sigma';   avg(a) += sigma'(a)
//!                        update: S(a) += u / sigma'(a)
//!                        play:   a move drawn from the average strategy
//! ```
//!
//! Regret matching and EXP3 make the average strategy converge towards a Nash equilibrium of the matrix game at the
//! node (for RM, to a subgame-perfect one in the limit, Lisý et al.); DUCT converges in many games but not in general.

use rand::{Rng, RngExt};

/// The selection rule of every node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Select {
    Duct,
    Rm,
    Exp3,
}

impl Select {
    /// The selection rule named `text`, if there is one.
    pub fn parse(text: &str) -> Option<Select> {
        match text {
            "duct" | "uct" => Some(Select::Duct),
            "rm" | "regret" => Some(Select::Rm),
            "exp3" => Some(Select::Exp3),
            _ => None,
        }
    }
    /// The selection rule's name, as `parse` reads it.
    pub fn name(self) -> &'static str {
        match self {
            Select::Duct => "duct",
            Select::Rm => "rm",
            Select::Exp3 => "exp3",
        }
    }
}

/// One player's statistics over its moves at one node.
#[derive(Clone, Debug)]
pub(crate) struct Bandit {
    pub visits: Vec<u32>,
    pub reward: Vec<f64>,
    /// RM: cumulative regrets; EXP3: cumulative reward estimates `S`.
    score: Vec<f64>,
    /// The sum of the strategies played (RM, EXP3).
    pub average: Vec<f64>,
    pub total: u32,
}

impl Bandit {
    pub fn new(moves: usize) -> Bandit {
        Bandit {
            visits: vec![0; moves],
            reward: vec![0.0; moves],
            score: vec![0.0; moves],
            average: vec![0.0; moves],
            total: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.visits.len()
    }

    /// The current strategy with exploration (RM, EXP3), into `out`.
    fn strategy(&self, select: Select, gamma: f64, out: &mut Vec<f64>) {
        let k = self.len() as f64;
        out.clear();
        match select {
            Select::Rm => {
                let positive: f64 = self.score.iter().map(|r| r.max(0.0)).sum();
                out.extend(self.score.iter().map(|r| {
                    let s = if positive > 0.0 { r.max(0.0) / positive } else { 1.0 / k };
                    (1.0 - gamma) * s + gamma / k
                }));
            }
            Select::Exp3 | Select::Duct => {
                let eta = gamma / k;
                let top = self.score.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                out.extend(self.score.iter().map(|s| (eta * (s - top)).exp()));
                let sum: f64 = out.iter().sum();
                out.iter_mut().for_each(|p| *p = (1.0 - gamma) * *p / sum + gamma / k);
            }
        }
    }

    /// Choose a move: its index and the probability it had of being chosen (1 for DUCT).
    pub fn choose<R: Rng + ?Sized>(
        &mut self,
        select: Select,
        c: f64,
        gamma: f64,
        scratch: &mut Vec<f64>,
        rng: &mut R,
    ) -> (usize, f64) {
        let k = self.len();
        if k == 1 {
            return (0, 1.0);
        }
        if select == Select::Duct {
            let unvisited = self.visits.iter().filter(|&&n| n == 0).count();
            if unvisited > 0 {
                let pick = rng.random_range(0..unvisited);
                let a = self.visits.iter().enumerate().filter(|(_, n)| **n == 0).nth(pick).map_or(0, |(a, _)| a);
                return (a, 1.0);
            }
            let log = (self.total as f64).ln();
            let ucb = |a: usize| {
                let n = self.visits[a] as f64;
                self.reward[a] / n + c * (log / n).sqrt()
            };
            let a = (0..k).max_by(|&x, &y| ucb(x).total_cmp(&ucb(y))).unwrap_or(0);
            return (a, 1.0);
        }
        self.strategy(select, gamma, scratch);
        if select == Select::Rm {
            // The average strategy sums sigma, the strategy without the exploration share.
            for (avg, p) in self.average.iter_mut().zip(scratch.iter()) {
                *avg += (p - gamma / k as f64) / (1.0 - gamma);
            }
        } else {
            self.average.iter_mut().zip(scratch.iter()).for_each(|(avg, p)| *avg += p);
        }
        let mut x: f64 = rng.random();
        for (a, &p) in scratch.iter().enumerate() {
            if x < p {
                return (a, p);
            }
            x -= p;
        }
        (k - 1, scratch[k - 1])
    }

    /// Record reward `u` (in `[0, 1]`) for move `a`, chosen with probability `p`.
    pub fn update(&mut self, select: Select, a: usize, p: f64, u: f64) {
        self.visits[a] += 1;
        self.reward[a] += u;
        self.total += 1;
        match select {
            Select::Duct => {}
            Select::Rm => {
                for (b, r) in self.score.iter_mut().enumerate() {
                    *r += if b == a { u / p } else { 0.0 } - u;
                }
            }
            Select::Exp3 => self.score[a] += u / p,
        }
    }

    /// The strategy to play after the search: the most visited move for DUCT, the average strategy otherwise.
    pub(crate) fn final_strategy(&self, select: Select) -> Vec<f64> {
        let k = self.len();
        if select == Select::Duct {
            let best = (0..k).max_by_key(|&a| (self.visits[a], std::cmp::Reverse(a))).unwrap_or(0);
            return (0..k).map(|a| if a == best { 1.0 } else { 0.0 }).collect();
        }
        let sum: f64 = self.average.iter().sum();
        if sum <= 0.0 {
            return vec![1.0 / k as f64; k];
        }
        self.average.iter().map(|a| a / sum).collect()
    }
}
