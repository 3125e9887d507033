//! The article's ratio search (GOGC 100 to 20 000 in steps of 100; 11 300 was best) on
//! this machine's cells, the model's and Go's alike: per thread count the fastest ratio
//! with its interval, its gain over ratio 100, and the smallest ratio that no larger ratio
//! beat beyond the noise ("no ratio beyond 2 400 was measurably faster"). A search claims
//! nothing below the minimum evidence: three trials per cell. A cell whose ratio ran too
//! few cycles to judge the collector still measured the program's throughput without it,
//! which is what the search compares, so it counts here.

use serde::{Deserialize, Serialize};

use super::compare::CellFigures;
use super::config::GcRatio;
use crate::format;
use crate::stats::{Ratio, Summary};

/// Trials every cell of a search needs before it claims anything.
pub const MIN_TRIALS_PER_CELL: usize = 3;

/// The search at one thread count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatioSearch {
    pub threads: u64,
    /// Ratios measured at this thread count.
    pub ratios: usize,
    /// The fastest median, with its trials' interval.
    pub best: GcRatio,
    pub best_ops_per_sec: Summary,
    /// The best over ratio 100 at the same thread count, when 100 was measured.
    pub over_default: Option<Ratio>,
    /// The smallest ratio no larger ratio beat beyond the noise.
    pub enough_from: GcRatio,
    /// Every cell has the trials a claim needs.
    pub judged: bool,
}

impl RatioSearch {
    /// The best beat ratio 100 beyond the noise.
    pub fn beats_default(&self) -> bool {
        self.judged && self.best != GcRatio::DEFAULT && self.over_default.is_some_and(|r| r.clearly_above_one())
    }

    /// "at 8 threads the best of 20 ratios was 1300 (30 512 ops/s, interval ...), 2.10x ratio
    /// 100 (...); no ratio beyond 600 was measurably faster"; below the evidence rule, says so.
    pub fn sentence(&self) -> String {
        let over = self.over_default.map_or(String::new(), |r| {
            format!(", {} ratio 100 ({})", format::ratio(r.value), format::ratio_interval(r.low, r.high))
        });
        let best = format!(
            "at {} the best of {} ratios was {} ({} ops/s, interval {}){over}",
            super::summary::threads_text(self.threads),
            self.ratios,
            self.best,
            format::number(self.best_ops_per_sec.median),
            format::interval(self.best_ops_per_sec.median_low, self.best_ops_per_sec.median_high),
        );
        if !self.judged {
            return format!("{best}; too few trials to say which ratios were measurably faster");
        }
        format!("{best}; {}", self.beyond())
    }

    /// "no ratio beyond 600 was measurably faster" (or than ratio X, when X is the smallest).
    pub fn beyond(&self) -> String {
        format!("no ratio beyond {} was measurably faster", self.enough_from)
    }
}

/// The search at every thread count of `cells`, in thread order.
pub fn search<C: CellFigures>(cells: &[C]) -> Vec<RatioSearch> {
    let mut threads: Vec<u64> = cells.iter().map(CellFigures::threads).collect();
    threads.sort_unstable();
    threads.dedup();
    threads.into_iter().filter_map(|count| search_at(cells, count)).collect()
}

/// The search at `threads`.
pub fn search_at<C: CellFigures>(cells: &[C], threads: u64) -> Option<RatioSearch> {
    let mut at: Vec<&C> = cells.iter().filter(|cell| cell.threads() == threads).collect();
    at.sort_by_key(|cell| cell.ratio().order_key());
    let best = at.iter().copied().max_by(|a, b| a.ops_per_sec().median.total_cmp(&b.ops_per_sec().median))?;
    let default = at.iter().find(|cell| cell.ratio() == GcRatio::DEFAULT);
    // The first ratio that no larger one beats beyond the noise (the best itself qualifies
    // when nothing earlier does, since no cell's interval lies wholly above the best's).
    let enough_from = at
        .iter()
        .enumerate()
        .find(|(index, cell)| {
            at[index + 1..]
                .iter()
                .all(|larger| !Ratio::between(larger.ops_per_sec(), cell.ops_per_sec()).clearly_above_one())
        })
        .map_or(best.ratio(), |(_, cell)| cell.ratio());
    let judged = at.iter().all(|cell| cell.ops_per_sec().samples >= MIN_TRIALS_PER_CELL);
    Some(RatioSearch {
        threads,
        ratios: at.len(),
        best: best.ratio(),
        best_ops_per_sec: best.ops_per_sec().clone(),
        over_default: default.map(|base| Ratio::between(best.ops_per_sec(), base.ops_per_sec())),
        enough_from,
        judged,
    })
}

#[cfg(test)]
mod tests {
    use super::super::summary::tests::cells;
    use super::*;

    const fn percent(value: u32) -> GcRatio {
        GcRatio::Percent(value)
    }

    #[test]
    fn the_best_and_where_the_gain_stops_follow_the_intervals() {
        let cells = cells(&[
            (8, percent(100), [100.0, 101.0, 102.0]),
            (8, percent(200), [150.0, 151.0, 152.0]),
            (8, percent(400), [198.0, 200.0, 202.0]),
            (8, percent(800), [199.0, 203.0, 205.0]),
            (8, GcRatio::Off, [190.0, 201.0, 210.0]),
            (1, percent(100), [50.0, 51.0, 52.0]),
        ]);
        let found = search(&cells);
        assert_eq!(found.iter().map(|s| s.threads).collect::<Vec<_>>(), [1, 8]);
        let at8 = &found[1];
        assert_eq!((at8.best, at8.enough_from, at8.ratios), (percent(800), percent(400), 5));
        assert!(at8.beats_default());
        assert_eq!(
            at8.sentence(),
            "at 8 threads the best of 5 ratios was 800 (203 ops/s, interval 199–205), 2.01x ratio 100 \
             (1.95x–2.05x); no ratio beyond 400 was measurably faster"
        );
        assert_eq!((found[0].best, found[0].enough_from), (percent(100), percent(100)));
        assert!(!found[0].beats_default(), "100 itself");
    }

    #[test]
    fn too_few_trials_claim_nothing() {
        let mut few = cells(&[(4, percent(100), [10.0, 11.0, 12.0]), (4, percent(400), [20.0, 21.0, 22.0])]);
        few[1].ops_per_sec = Summary::of(&[20.0, 21.0]).unwrap();
        let found = search_at(&few, 4).unwrap();
        assert!(!found.judged && !found.beats_default());
        assert!(found.sentence().ends_with("too few trials to say which ratios were measurably faster"));
        assert!(search_at(&few, 2).is_none());
    }
}
