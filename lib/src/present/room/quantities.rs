//! The predictable quantities: every figure the room compares across seats ([`effects`]),
//! each with the question a student answers before measuring, the range a guess may
//! sensibly take, and the part of the workshop (and the notebook cell) that asks it. The
//! room's effects, `room predict`, the class page's form, the notebooks' prediction cells
//! and `notebooks/predictions.json` all use this one list (`lib/tests/quantities.rs` fails
//! when a notebook asks for a quantity the room cannot show).
//!
//! The [`PARTS`] follow the guide's order (`docs/workshop.md`): the teacher opens each in
//! turn on the projector.

use super::{effects, Effect};

/// One figure a student predicts, keyed by its room effect's id (so one id, one unit).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quantity {
    /// The room effect's id.
    pub id: &'static str,
    /// Asked before measuring, in the effect's unit.
    pub question: &'static str,
    /// The figures a guess may sensibly take (the form's hint; the room takes any positive one).
    pub plausible: (f64, f64),
    /// The notebook whose prediction cell asks it, and the cell's variable (`room predict`
    /// and the class page's form ask it too).
    pub cell: (&'static str, &'static str),
}

impl Quantity {
    /// The room's effect this quantity is.
    pub fn effect(&self) -> Option<Effect> {
        effects().into_iter().find(|effect| effect.id == self.id)
    }
}

/// One part of the workshop: a notebook, what its send cell sends, what it asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    /// Its key in URLs ("sharing").
    pub id: &'static str,
    pub title: &'static str,
    pub notebook: &'static str,
    /// The experiments its send cell runs and sends (`contention run` names).
    pub experiments: &'static [&'static str],
    /// The quantities it asks, by id, in the order the projector shows them.
    pub quantities: &'static [&'static str],
}

/// The quantities, in the room's column order.
pub const QUANTITIES: &[Quantity] = &[
    Quantity {
        id: "two-threads",
        question: "How many times one thread's work do two threads that share nothing do in the same time?",
        plausible: (0.5, 2.5),
        cell: ("00-your-machine", "predicted_speedup"),
    },
    Quantity {
        id: "stride",
        question: "How many times slower is the smallest stride (8 B) than the best one?",
        plausible: (1.0, 100.0),
        cell: ("01-false-sharing-stride-sweep", "predicted_penalty"),
    },
    Quantity {
        id: "false-sharing",
        question: "How many times slower is false sharing than no sharing?",
        plausible: (1.0, 50.0),
        cell: ("02-four-way-control", "predicted_false_over_none"),
    },
    Quantity {
        id: "false-over-true",
        question: "Two threads adding to two words of one cache line (false sharing) against two adding to the same \
                   word (true sharing): how many times true sharing's time does false sharing take?",
        plausible: (0.2, 5.0),
        cell: ("02-four-way-control", "predicted_false_over_true"),
    },
    Quantity {
        id: "padded",
        question: "How many times faster than the compact array are cache-padded counters?",
        plausible: (1.0, 100.0),
        cell: ("03-padded-counters", "predicted_padded_gain"),
    },
    Quantity {
        id: "gc-ratio",
        question: "At the most threads, how many times ratio 100's throughput will the fastest ratio give?",
        plausible: (1.0, 5.0),
        cell: ("04-gc-ratio", "predicted_best_ratio_gain"),
    },
    Quantity {
        id: "pool-p99-8",
        question: "What p99 latency, in ms, will a pool of 8 threads per CPU (the fix's size) give?",
        plausible: (1.0, 10_000.0),
        cell: ("05-pool-sizing", "predicted_fix_pool_p99"),
    },
    Quantity {
        id: "pool-p99-40",
        question: "What p99 latency, in ms, will a pool of 40 threads per CPU (the incident's 320 threads on 8 CPUs) \
                   give?",
        plausible: (1.0, 10_000.0),
        cell: ("05-pool-sizing", "predicted_big_pool_p99"),
    },
    Quantity {
        id: "optimistic-reads",
        question: "How many times the reads of an RwLock will optimistic (version-checked) reads do?",
        plausible: (0.5, 100.0),
        cell: ("07-locks", "predicted_optimistic_gain"),
    },
    Quantity {
        id: "lock-across-wait",
        question: "How many times the throughput of work done under a lock across a wait will the same work outside \
                   the lock give?",
        plausible: (1.0, 100.0),
        cell: ("07-locks", "predicted_outside_lock_gain"),
    },
];

/// The workshop's parts in the guide's order.
pub const PARTS: &[Part] = &[
    Part {
        id: "machine",
        title: "Your machine",
        notebook: "00-your-machine",
        experiments: &["machine", "c2c"],
        quantities: &["two-threads"],
    },
    Part {
        id: "stride",
        title: "Article A: the stride sweep",
        notebook: "01-false-sharing-stride-sweep",
        experiments: &["stride"],
        quantities: &["stride"],
    },
    Part {
        id: "sharing",
        title: "Article A: the four-way control",
        notebook: "02-four-way-control",
        experiments: &["sharing"],
        quantities: &["false-over-true", "false-sharing"],
    },
    Part {
        id: "counters",
        title: "Article A: padded counters",
        notebook: "03-padded-counters",
        experiments: &["counters"],
        quantities: &["padded"],
    },
    Part {
        id: "gc",
        title: "Article B: the GC trigger ratio",
        notebook: "04-gc-ratio",
        experiments: &["gc"],
        quantities: &["gc-ratio"],
    },
    Part {
        id: "pool",
        title: "Article C: the pool of 320 threads",
        notebook: "05-pool-sizing",
        experiments: &["pool", "refill"],
        quantities: &["pool-p99-40", "pool-p99-8"],
    },
    Part {
        id: "locks",
        title: "Article C: the locks",
        notebook: "07-locks",
        experiments: &["locks"],
        quantities: &["optimistic-reads", "lock-across-wait"],
    },
];

/// The quantity keyed `id`.
pub fn quantity(id: &str) -> Option<&'static Quantity> {
    QUANTITIES.iter().find(|quantity| quantity.id == id)
}

/// The part keyed `id`.
pub fn part(id: &str) -> Option<&'static Part> {
    PARTS.iter().find(|part| part.id == id)
}

/// The part that asks the quantity `id`.
pub fn part_of(id: &str) -> Option<&'static Part> {
    PARTS.iter().find(|part| part.quantities.contains(&id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_quantity_is_an_effect_asked_by_one_part() {
        // That they are all the room's effects, in its order, is checked on the lib as the
        // report builds it (`lib/tests/quantities.rs`): here an experiment compiled only in
        // tests may add effects of its own.
        for quantity in QUANTITIES {
            assert!(quantity.effect().is_some(), "{} is no effect of the room", quantity.id);
            let parts = PARTS.iter().filter(|part| part.quantities.contains(&quantity.id)).count();
            assert_eq!(parts, 1, "{} is asked by one part", quantity.id);
            let (low, high) = quantity.plausible;
            assert!(0.0 < low && low < high, "{}", quantity.id);
            assert!(quantity.question.ends_with('?'), "{}", quantity.id);
        }
        for part in PARTS {
            assert!(part.quantities.iter().all(|id| quantity(id).is_some()), "{}", part.id);
        }
    }
}
