//! The cells a config asks for: each case's primitives at its thread counts (and, for
//! read-mostly, at each read share). A cell is what one row measures once per trial.

use super::{Case, Config, Primitive};

/// One measured combination: a case, a primitive, a thread count and a read share.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    pub case: Case,
    pub primitive: Primitive,
    pub threads: usize,
    /// The share of operations that only read: the configured share in read-mostly; 1 for
    /// the uncontended `RwLock` read; 0 for every case whose operations write.
    pub read_share: f64,
}

impl Cell {
    /// Its work is reads and writes, counted per thread (read-mostly, and the uncontended
    /// `RwLock` read); every other cell's is acquisitions shared by its threads.
    pub fn reads_and_writes(&self) -> bool {
        matches!((self.case, self.primitive), (Case::ReadMostly, _) | (Case::Uncontended, Primitive::StdRwLock))
    }

    /// "read-mostly std-rwlock, 2 threads, 99% reads": for progress and errors.
    pub fn label(&self) -> String {
        let threads = if self.threads == 1 { "1 thread".to_string() } else { format!("{} threads", self.threads) };
        match self.case {
            Case::ReadMostly => format!(
                "{} {}, {threads}, {}% reads",
                self.case,
                self.primitive,
                crate::format::short_number(self.read_share * 100.0)
            ),
            _ => format!("{} {}, {threads}", self.case, self.primitive),
        }
    }
}

/// Every cell of `config`, case by case in [`Case::ALL`] order, primitives in each case's
/// order. Contended needs 2 threads or more (thread counts below are left out; with none
/// left the case has no cells and its finding says so); fair-vs-barging runs at the
/// smallest such count and at the largest.
pub fn cells(config: &Config) -> Vec<Cell> {
    let mut cells = Vec::new();
    for case in Case::ALL.into_iter().filter(|case| config.cases.contains(case)) {
        for (threads, read_share) in case_points(config, case) {
            for &primitive in case.primitives() {
                let read_share = match (case, primitive) {
                    (Case::ReadMostly, _) => read_share,
                    (Case::Uncontended, Primitive::StdRwLock) => 1.0,
                    _ => 0.0,
                };
                cells.push(Cell { case, primitive, threads, read_share });
            }
        }
    }
    cells
}

/// The (threads, read share) points one case runs at.
fn case_points(config: &Config, case: Case) -> Vec<(usize, f64)> {
    let mut threads: Vec<usize> = config.threads.clone();
    threads.sort_unstable();
    threads.dedup();
    let several: Vec<usize> = threads.iter().copied().filter(|&t| t >= 2).collect();
    match case {
        Case::Uncontended => vec![(1, 0.0)],
        Case::Contended => several.into_iter().map(|t| (t, 0.0)).collect(),
        Case::FairVsBarging => {
            let mut ends: Vec<usize> = several.first().into_iter().chain(several.last()).copied().collect();
            ends.dedup();
            ends.into_iter().map(|t| (t, 0.0)).collect()
        }
        Case::ReadMostly => {
            config.read_shares.iter().flat_map(|&share| threads.iter().map(move |&t| (t, share))).collect()
        }
        Case::LockAcrossWait => vec![(config.wait_threads, 0.0)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_case_gets_its_thread_counts() {
        let config = Config { threads: vec![4, 1, 2, 8], read_shares: vec![1.0, 0.9], ..Config::quick() };
        let cells = cells(&config);
        let of = |case: Case| cells.iter().filter(|cell| cell.case == case).collect::<Vec<_>>();
        assert_eq!(of(Case::Uncontended).len(), 6);
        assert!(of(Case::Uncontended).iter().all(|cell| cell.threads == 1));
        let contended: Vec<usize> = of(Case::Contended).iter().map(|c| c.threads).collect();
        assert_eq!(contended, [[2; 5], [4; 5], [8; 5]].concat());
        assert_eq!(of(Case::FairVsBarging).iter().map(|c| c.threads).collect::<Vec<_>>(), [2, 2, 2, 8, 8, 8]);
        assert_eq!(of(Case::ReadMostly).len(), 4 * 2 * 4);
        assert_eq!(of(Case::LockAcrossWait).len(), 2);
        let rwlock = cells.iter().find(|c| c.case == Case::Uncontended && c.primitive == Primitive::StdRwLock);
        assert_eq!(rwlock.map(|c| c.read_share), Some(1.0));
    }

    #[test]
    fn one_thread_leaves_the_contended_cases_empty() {
        let cells = cells(&Config { threads: vec![1], ..Config::quick() });
        assert!(cells.iter().all(|cell| !matches!(cell.case, Case::Contended | Case::FairVsBarging)));
        let read = cells.iter().find(|c| c.case == Case::ReadMostly).unwrap();
        assert_eq!(read.label(), "read-mostly std-rwlock, 1 thread, 100% reads");
    }
}
