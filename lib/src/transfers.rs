//! A false-sharing penalty in the machine's own units: the extra time per add that sharing
//! a line costs, over the time one cache-line transfer takes between two CPUs (the one-way
//! core-to-core latency, [`crate::c2c`], measured in the same run). "0.33 transfers per
//! add" says what a bare "6x slower" cannot: how often an add found the line gone.
//!
//! Each add of a thread whose counter shares a line either finds the line still in its
//! core's cache (no transfer) or waits for it to come back from the other core (one
//! transfer, one-way latency). So the extra time per add over the clean layout's, divided
//! by the one-way latency, counts transfers per add: below 1, a core ran several adds per
//! visit of the line; near or above 1, nearly every add paid a round of the line (queued
//! cores can wait longer than one transfer).

use serde::{Deserialize, Serialize};

use crate::c2c::PairSummary;
use crate::evidence;
use crate::stats::Summary;

/// The typical one-way transfer of a run: the median over measured pairs of each pair's
/// median, with an interval (the median over pairs of each pair's interval ends).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct OneWay {
    pub ns: f64,
    pub low_ns: f64,
    pub high_ns: f64,
    pub pairs: usize,
}

impl OneWay {
    /// The typical transfer of `pairs`; `None` when no pair was measured or any pair has
    /// too few samples for a claim.
    pub fn of(pairs: &[PairSummary]) -> Option<Self> {
        evidence::check(pairs.iter().map(|pair| &pair.one_way_ns)).ok()?;
        let median_of = |value: fn(&Summary) -> f64| {
            let values: Vec<f64> = pairs.iter().map(|pair| value(&pair.one_way_ns)).collect();
            Summary::of(&values).map(|summary| summary.median)
        };
        Some(Self {
            ns: median_of(|s| s.median)?,
            low_ns: median_of(|s| s.median_low)?,
            high_ns: median_of(|s| s.median_high)?,
            pairs: pairs.len(),
        })
        .filter(|one_way| one_way.low_ns > 0.0)
    }
}

/// A penalty as transfers per add, with its interval (the extra time's interval ends over
/// the transfer's: the widest the two intervals allow).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TransfersPerAdd {
    /// Extra nanoseconds per add (penalised median minus clean median).
    pub extra_ns: f64,
    pub value: f64,
    pub low: f64,
    pub high: f64,
    pub one_way: OneWay,
}

impl TransfersPerAdd {
    /// `penalised` and `clean` in nanoseconds per add (as each thread saw it).
    pub fn of(penalised: &Summary, clean: &Summary, one_way: OneWay) -> Self {
        let extra_ns = penalised.median - clean.median;
        Self {
            extra_ns,
            value: extra_ns / one_way.ns,
            low: (penalised.median_low - clean.median_high).max(0.0) / one_way.high_ns,
            high: (penalised.median_high - clean.median_low).max(0.0) / one_way.low_ns,
            one_way,
        }
    }

    /// The extra time lies beyond the noise: the two intervals do not overlap.
    pub fn beyond_the_noise(&self) -> bool {
        self.low > 0.0
    }

    /// "0.33 (0.28–0.38)".
    pub fn cell_text(&self) -> String {
        if self.beyond_the_noise() {
            format!("{:.2} ({:.2}–{:.2})", self.value, self.low, self.high)
        } else {
            "none beyond the noise".into()
        }
    }

    /// The penalty in transfers, and what that means, in a sentence or two. `what` names
    /// the penalised case against the clean one ("counters 8 bytes apart, over the fastest
    /// stride (256 B)").
    pub fn sentence(&self, what: &str) -> String {
        let one_way = format!(
            "{:.1} ns to pass a line one way here (core-to-core latency, median over {} {})",
            self.one_way.ns,
            self.one_way.pairs,
            if self.one_way.pairs == 1 { "pair" } else { "pairs" }
        );
        if !self.beyond_the_noise() {
            return format!(
                "In cache-line transfers: {what} cost no extra time per add beyond the noise ({:.1} ns, intervals \
                 overlap), against {one_way}.",
                self.extra_ns
            );
        }
        let meaning = if self.value < 1.0 {
            format!(
                "most adds found the line already in their core's cache: a core ran about {:.0} adds per visit of the \
                 line",
                1.0 / self.value
            )
        } else {
            "nearly every add waited for the line to come back from another core (and cores queued behind each other \
             for it)"
                .to_string()
        };
        format!(
            "In cache-line transfers: {what} cost {:.1} ns more per add; with {one_way}, that is {:.2} transfers per \
             add (interval {:.2} to {:.2}): {meaning}.",
            self.extra_ns, self.value, self.low, self.high
        )
    }
}

/// The sentence for a penalty (`penalised` over `clean`, ns per add) in `one_way`'s units,
/// or [`NO_ONE_WAY`]; `None` when either side has too few trials for a claim (the section's
/// finding says so).
pub fn penalty_sentence(what: &str, penalised: &Summary, clean: &Summary, one_way: Option<OneWay>) -> Option<String> {
    evidence::check([penalised, clean]).ok()?;
    Some(match one_way {
        Some(one_way) => TransfersPerAdd::of(penalised, clean, one_way).sentence(what),
        None => NO_ONE_WAY.into(),
    })
}

/// Said where a run has a penalty but no core-to-core latency to count it in.
pub const NO_ONE_WAY: &str = "In cache-line transfers: not counted, because this run has no core-to-core latency \
                              with enough samples (measure it beside: `contention run c2c`).";

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(samples: &[f64]) -> Summary {
        Summary::of(samples).unwrap()
    }

    fn pair(samples: &[f64]) -> PairSummary {
        PairSummary {
            cpu_a: 0,
            cpu_b: 1,
            one_way_ns: summary(samples),
            cas_one_way_ns: None,
            all_pinned: true,
            unpinned: false,
            dropped: 0,
            kinds: String::new(),
        }
    }

    #[test]
    fn the_issue_example_is_a_third_of_a_transfer_per_add() {
        let one_way = OneWay::of(&[pair(&[94.8; 5])]).unwrap();
        let transfers = TransfersPerAdd::of(&summary(&[37.1; 5]), &summary(&[6.3; 5]), one_way);
        assert!((transfers.value - 0.325).abs() < 1e-3, "{transfers:?}");
        assert!(transfers.beyond_the_noise());
        let sentence = transfers.sentence("counters 8 bytes apart, over 256 bytes apart");
        assert!(sentence.contains("30.8 ns more per add"), "{sentence}");
        assert!(sentence.contains("0.32 transfers per add"), "{sentence}");
        assert!(sentence.contains("about 3 adds per visit"), "{sentence}");
        assert_eq!(transfers.cell_text(), "0.32 (0.32–0.32)");
    }

    #[test]
    fn overlapping_intervals_count_no_transfer_and_too_few_samples_no_latency() {
        let one_way = OneWay::of(&[pair(&[90.0, 95.0, 100.0, 92.0, 98.0])]).unwrap();
        assert_eq!((one_way.ns, one_way.low_ns, one_way.high_ns), (95.0, 90.0, 100.0));
        let overlapping = TransfersPerAdd::of(&summary(&[10.0, 12.0, 14.0]), &summary(&[9.0, 11.0, 13.0]), one_way);
        assert!(!overlapping.beyond_the_noise());
        assert!(overlapping.sentence("x").contains("no extra time per add beyond the noise"));
        assert_eq!(OneWay::of(&[pair(&[90.0, 95.0])]), None);
        assert_eq!(OneWay::of(&[]), None);
    }

    #[test]
    fn more_than_one_transfer_per_add_says_every_add_waited() {
        let one_way = OneWay::of(&[pair(&[50.0; 5]), pair(&[70.0; 5]), pair(&[60.0; 5])]).unwrap();
        assert_eq!((one_way.ns, one_way.pairs), (60.0, 3));
        let transfers = TransfersPerAdd::of(&summary(&[200.0; 5]), &summary(&[5.0; 5]), one_way);
        assert!(transfers.value > 3.0);
        assert!(transfers.sentence("x").contains("nearly every add waited"), "{}", transfers.sentence("x"));
    }
}
