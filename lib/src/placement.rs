//! Where a team's workers run. SMT siblings share one core's L1 cache, so two workers on
//! siblings pass a cache line without it ever leaving the core, and a false-sharing penalty
//! shrinks or vanishes. Workers therefore go to distinct physical cores first, one CPU of
//! each core, and onto siblings only when the cores run out. Siblings are often numbered
//! next to each other (0,1 on one core): taking the first N CPUs of the mask would then
//! put a 2-thread team on one core.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use crate::machine::parse_cpu_list;

/// Which logical CPUs share a physical core (each group one core), from the OS or a test.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Topology {
    cores: Vec<Vec<usize>>,
}

impl Topology {
    /// From sysfs sibling lists such as ["0-1", "2,3"]; unreadable lists are skipped.
    pub fn from_sibling_lists<S: AsRef<str>>(lists: &[S]) -> Self {
        let mut cores: Vec<Vec<usize>> =
            lists.iter().filter_map(|list| parse_cpu_list(list.as_ref())).filter(|cpus| !cpus.is_empty()).collect();
        cores.iter_mut().for_each(|cpus| cpus.sort_unstable());
        cores.sort();
        cores.dedup();
        Self { cores }
    }

    /// This machine's topology, read once (empty where the OS names no siblings: every CPU
    /// is then treated as its own core).
    pub fn of_this_machine() -> &'static Self {
        static TOPOLOGY: OnceLock<Topology> = OnceLock::new();
        TOPOLOGY.get_or_init(|| Self::from_sibling_lists(&crate::platform::cpu_facts().smt_sibling_groups))
    }

    /// The index of the core `cpu` belongs to, when the topology names it.
    fn core_of(&self, cpu: usize) -> Option<usize> {
        self.cores.iter().position(|cpus| cpus.contains(&cpu))
    }

    /// `available` reordered so that a team taking the first N CPUs sits on N distinct
    /// cores when there are N: the first CPU of every core (cores in order of their first
    /// CPU), then the second of every core, and so on. A CPU the topology does not name
    /// counts as a core of its own.
    pub fn spread_order(&self, available: &[usize]) -> Vec<usize> {
        let mut sorted = available.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut by_core: Vec<(Option<usize>, Vec<usize>)> = Vec::new();
        for cpu in sorted {
            let core = self.core_of(cpu);
            match by_core.iter_mut().find(|(known, _)| core.is_some() && *known == core) {
                Some((_, cpus)) => cpus.push(cpu),
                None => by_core.push((core, vec![cpu])),
            }
        }
        let deepest = by_core.iter().map(|(_, cpus)| cpus.len()).max().unwrap_or(0);
        (0..deepest).flat_map(|depth| by_core.iter().filter_map(move |(_, cpus)| cpus.get(depth).copied())).collect()
    }

    /// True when two of `cpus` are the same CPU or SMT siblings of one core. Linear in the
    /// CPUs and the topology (a saved row's list may be long).
    pub fn shares_a_core(&self, cpus: &[usize]) -> bool {
        let core_of: HashMap<usize, usize> =
            self.cores.iter().enumerate().flat_map(|(core, cpus)| cpus.iter().map(move |&cpu| (cpu, core))).collect();
        let mut cpus_seen = HashSet::new();
        let mut cores_seen = HashSet::new();
        cpus.iter().any(|&cpu| {
            let repeated_core = core_of.get(&cpu).is_some_and(|&core| !cores_seen.insert(core));
            !cpus_seen.insert(cpu) || repeated_core
        })
    }
}

/// CPU ids as a row records them: "0,2,4,6" (sysfs list syntax, read back by
/// [`parse_cpu_list`]); empty when no CPU was recorded.
pub fn cpu_list(cpus: &[usize]) -> String {
    cpus.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacent_siblings_are_used_last() {
        let topology = Topology::from_sibling_lists(&["0-1", "2-3", "4-5", "6-7"]);
        let order = topology.spread_order(&(0..8).collect::<Vec<_>>());
        assert_eq!(order, vec![0, 2, 4, 6, 1, 3, 5, 7]);
        assert!(!topology.shares_a_core(&order[..4]));
        assert!(topology.shares_a_core(&order[..5]));
    }

    #[test]
    fn far_apart_siblings_keep_the_mask_order() {
        let topology = Topology::from_sibling_lists(&["0,4", "1,5", "2,6", "3,7"]);
        assert_eq!(topology.spread_order(&(0..8).collect::<Vec<_>>()), vec![0, 1, 2, 3, 4, 5, 6, 7]);
        assert!(topology.shares_a_core(&[1, 5]));
        assert!(!topology.shares_a_core(&[0, 1, 2, 3]));
    }

    #[test]
    fn without_smt_every_cpu_is_a_core() {
        let topology = Topology::from_sibling_lists(&["0", "1", "2", "3"]);
        assert_eq!(topology.spread_order(&[3, 1, 0, 2]), vec![0, 1, 2, 3]);
        assert!(!topology.shares_a_core(&[0, 1, 2, 3]));
        assert!(topology.shares_a_core(&[2, 2]), "one CPU twice shares its core");
    }

    #[test]
    fn a_restricted_mask_and_an_unknown_topology_still_spread() {
        let topology = Topology::from_sibling_lists(&["0-1", "2-3"]);
        assert_eq!(topology.spread_order(&[1, 2, 3]), vec![1, 2, 3]);
        assert_eq!(Topology::default().spread_order(&[5, 4]), vec![4, 5]);
        assert!(!Topology::default().shares_a_core(&[4, 5]));
    }

    #[test]
    fn cpu_lists_round_trip() {
        assert_eq!(cpu_list(&[0, 2, 4]), "0,2,4");
        assert_eq!(parse_cpu_list(&cpu_list(&[0, 2, 4])), Some(vec![0, 2, 4]));
        assert_eq!(cpu_list(&[]), "");
    }
}
