//! The split solve: the root moves solved one by one as jobs of a growing budget on one shared table (job-level
//! proof-number search), each job's outcome reported as a [`Job`] line.

use super::jobs::Job;
use super::{INF, Solution, Solver};
use crate::game::{Game, MoveList};
use crate::games::breakthrough::BtState;

impl Solver<'_> {
    /// The root moves of `s` grouped as [`Self::split`] groups them: the moves that lead to the same position up to
    /// mirror symmetry, in the order they are generated (the cluster's split solve gives each group a job).
    pub(crate) fn root_groups(&self, s: &BtState) -> Vec<Vec<String>> {
        let mut list = MoveList::new();
        self.g.generate_moves(s, &mut list);
        let mut groups: Vec<(u64, Vec<String>)> = Vec::new();
        for &m in &list {
            let mut c = *s;
            self.g.play(&mut c, m);
            let key = self.tkey(&c);
            let name = self.g.format_move(s, m);
            match groups.iter_mut().find(|g| g.0 == key) {
                Some(g) => g.1.push(name),
                None => groups.push((key, vec![name])),
            }
        }
        groups.into_iter().map(|g| g.1).collect()
    }

    /// Job-level solving of the root, one root move at a time (the "jobs" of Saffidine, Jouandeau and Cazenave's
    /// job-level proof-number search, run in turn on one table instead of on a cluster). The root moves are grouped by
    /// the position they lead to up to mirror symmetry; each group gets a df-pn run of `budget` expansions on that
    /// position, round after round, the budget doubling every round, until every root move is decided (with
    /// [`super::SolveOptions::all_winning_moves`]; without it, until one root move is proven to win, which decides the
    /// root), or [`super::SolveOptions::max_seconds`] runs out. Work is kept between rounds in the shared table, so a move
    /// taken up again resumes where it stopped, and a proof found for one move serves the others through
    /// transpositions.
    ///
    /// `first` names root moves to work on before the others (the others are taken up only when these are all
    /// decided); empty: all at once. `known(move)` is asked before each job: `Some(true)` / `Some(false)` is a result
    /// for the root's side to move obtained elsewhere (another process working on other moves), taken as it is.
    /// `report` gets every job's outcome as it ends.
    pub fn split(
        &mut self,
        s: &BtState,
        first: &[String],
        budget: u64,
        known: &mut dyn FnMut(&str) -> Option<bool>,
        report: &mut dyn FnMut(&Job),
    ) -> Solution {
        struct Group {
            moves: Vec<String>,
            child: BtState,
            key: u64,
            result: Option<bool>,
            nodes: u64,
            pn_dn: (u32, u32),
        }
        let mut list = MoveList::new();
        self.g.generate_moves(s, &mut list);
        let mut groups: Vec<Group> = Vec::new();
        for &m in &list {
            let mut c = *s;
            self.g.play(&mut c, m);
            let key = self.tkey(&c);
            let name = self.g.format_move(s, m);
            match groups.iter_mut().find(|g| g.key == key) {
                Some(g) => g.moves.push(name),
                None => groups.push(Group {
                    moves: vec![name],
                    child: c,
                    key,
                    result: None,
                    nodes: 0,
                    pn_dn: self.initial(&c),
                }),
            }
        }
        let priority = |g: &Group| first.iter().position(|f| g.moves.contains(f)).unwrap_or(usize::MAX);
        groups.sort_by_key(|g| priority(g));
        let root = format!("{} {}", self.g.spec(), self.g.format_position(s));
        let own =
            if first.is_empty() { groups.len() } else { groups.iter().filter(|g| priority(g) != usize::MAX).count() };
        let deadline = self.options.max_seconds.unwrap_or(f64::INFINITY);
        // Ctrl-C / SIGTERM ([`super::SolveOptions::interrupt`]): no new job, and the job it cut is not reported (its
        // work stays in the table).
        let stop = self.options.interrupt;
        let interrupted = move || stop.is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed));
        'phases: for phase in [own, groups.len()] {
            let mut round = 0u32;
            while groups[..phase].iter().any(|g| g.result.is_none()) {
                let job_budget = budget.max(1).saturating_mul(1u64 << round.min(40));
                for g in groups[..phase].iter_mut().filter(|g| g.result.is_none()) {
                    let t = self.start.elapsed().as_secs_f64();
                    let mut job = Job {
                        root: root.clone(),
                        round: Some(round),
                        mv: g.moves[0].clone(),
                        mirrors: g.moves[1..].to_vec(),
                        result: None,
                        job_nodes: 0,
                        move_nodes: g.nodes,
                        pn: g.pn_dn.0,
                        dn: g.pn_dn.1,
                        total_nodes: self.nodes,
                        seconds: t,
                    };
                    if let Some(r) = g.moves.iter().find_map(|m| known(m)) {
                        g.result = Some(r);
                        job.round = None;
                    } else {
                        // The deadline, a signal, or a stop from outside ([`super::SolveOptions::stop`]): each job would
                        // abort at once.
                        if t >= deadline || interrupted() || self.stop_asked() {
                            break 'phases;
                        }
                        let before = self.nodes;
                        self.aborted = false;
                        self.max_nodes = before.saturating_add(job_budget);
                        let (pn, dn) = self.prove(&g.child);
                        g.nodes += self.nodes - before;
                        if interrupted() && pn != 0 && dn != 0 {
                            g.pn_dn = (pn, dn);
                            break 'phases;
                        }
                        g.pn_dn = (pn, dn);
                        g.result = if pn == 0 {
                            Some(false)
                        } else if dn == 0 {
                            Some(true)
                        } else {
                            None
                        };
                        job.job_nodes = self.nodes - before;
                        job.move_nodes = g.nodes;
                        job.pn = pn;
                        job.dn = dn;
                        job.total_nodes = self.nodes;
                        job.seconds = self.start.elapsed().as_secs_f64();
                    }
                    job.result = g.result.map(|w| if w { "win" } else { "loss" }.to_string());
                    report(&job);
                    self.checkpoint();
                    if g.result == Some(true) && !self.options.all_winning_moves {
                        break 'phases;
                    }
                }
                round += 1;
            }
        }
        self.aborted = false;
        let won: Vec<String> = groups.iter().filter(|g| g.result == Some(true)).flat_map(|g| g.moves.clone()).collect();
        let all_lost = groups.iter().all(|g| g.result == Some(false));
        let (root_pn, root_dn) = if !won.is_empty() {
            (0, INF)
        } else if all_lost {
            (INF, 0)
        } else {
            let pn = groups.iter().map(|g| g.pn_dn.1).min().unwrap_or(INF);
            let dn = groups.iter().map(|g| g.pn_dn.0 as u64).sum::<u64>().min(INF as u64 - 1) as u32;
            (pn, dn)
        };
        Solution {
            result: if !won.is_empty() {
                Some("win".to_string())
            } else if all_lost {
                Some("loss".to_string())
            } else {
                None
            },
            plies: None,
            best_move: won.first().cloned(),
            winning_moves: won,
            nodes: self.nodes,
            distance_nodes: 0,
            seconds: self.start.elapsed().as_secs_f64(),
            race_table_seconds: 0.0,
            root_pn,
            root_dn,
            undecided_moves: groups.iter().filter(|g| g.result.is_none()).flat_map(|g| g.moves.clone()).collect(),
            earlier_nodes: 0,
            proof_check: None,
        }
    }
}
