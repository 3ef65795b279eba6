//! The df-pn table on disk: the solver's table saved when a solve ends (or between the jobs of a split solve) and
//! read back by the next run, so that a long solve goes on across runs ([`super::SolveOptions::table_file`]). The file
//! format, its checks and the atomic write are [`crate::solve::table_file`]; here: which header a table of this solver
//! has (the key scheme), and how entries go back into a table of the same or of another size.

use std::path::Path;
use std::time::Instant;

use super::Solver;
use super::table::Entry;
use crate::game::Game;
use crate::solve::table_file::{self, Header, Record};

impl Solver<'_> {
    /// What a saved table of this solver says about itself (the key scheme: game, symmetry, fingerprint).
    fn table_header(&self) -> Header {
        Header {
            game: self.g.spec(),
            symmetry: !self.mirror.is_empty(),
            fingerprint: self.tkey(&self.g.start()),
            buckets: self.tt.len() as u64,
            nodes: self.earlier_nodes + self.nodes,
        }
    }

    /// Saves the df-pn table to `path` ([`crate::solve::table_file`], atomically: an interrupted save keeps the
    /// previous file). Returns the number of entries saved.
    pub(crate) fn save_table(&mut self, path: &Path) -> Result<u64, String> {
        let t = Instant::now();
        let tt = &self.tt;
        let n = table_file::write(path, &self.table_header(), |i, out| {
            out.extend(tt[i as usize].iter().filter(|e| e.work != 0).map(|e| Record {
                key: e.key,
                pn: e.pn,
                dn: e.dn,
                work: e.work,
            }))
        })?;
        self.last_save = self.start.elapsed().as_secs_f64();
        if self.options.progress_seconds > 0 {
            eprintln!("df-pn: table saved to {} ({n} entries, {:.1} s)", path.display(), t.elapsed().as_secs_f64());
        }
        Ok(n)
    }

    /// last save (a failed save is reported on stderr; the final save reports its error).
    pub(super) fn checkpoint(&mut self) {
        let (Some(path), Some(every)) = (self.options.table_file.clone(), self.options.save_every_seconds) else {
            return;
        };
        if self.start.elapsed().as_secs_f64() - self.last_save >= every
            && let Err(e) = self.save_table(&path)
        {
            eprintln!("df-pn: could not save the table: {e}");
        }
    }

    /// Reads a table saved by [`Solver::save_table`] for the same game and key scheme into the (empty) table; a table
    /// of another size is re-bucketed (a smaller one keeps, per bucket, the entries of the largest subtrees). On an
    /// error the table is left empty. Returns the number of entries read.
    pub(crate) fn load_table(&mut self, path: &Path) -> Result<u64, String> {
        let expected = self.table_header();
        let direct = table_file::read_header(path).map_err(|e| format!("df-pn table {}: {e}", path.display()))?.buckets
            == expected.buckets;
        let mut count = 0u64;
        let mut last = (u64::MAX, 0usize);
        let result = table_file::read(path, &expected, |i, r| {
            count += 1;
            if direct {
                // Same size: each entry goes back to its bucket, in the order saved.
                let slot = if last.0 == i { last.1 + 1 } else { 0 };
                last = (i, slot);
                self.tt[i as usize][slot] = Entry { key: r.key, pn: r.pn, dn: r.dn, work: r.work };
            } else {
                self.store(r.key, r.pn, r.dn, r.work as u64);
            }
        });
        match result {
            Ok(h) => {
                self.earlier_nodes = h.nodes;
                if self.options.progress_seconds > 0 {
                    eprintln!(
                        "df-pn: table read from {} ({count} entries, {} earlier expansions)",
                        path.display(),
                        h.nodes
                    );
                }
                Ok(count)
            }
            Err(e) => {
                self.tt.fill([Entry::default(); 4]);
                Err(format!("df-pn table {}: {e}", path.display()))
            }
        }
    }
}
