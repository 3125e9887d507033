//! Each article's counterpart in a run: what the run measured of the headline, in words with
//! its interval, and the ratio when the run's evidence allows a claim (else why not).

use super::{Counterpart, Status};
use crate::counters::format_count;
use crate::format;
use crate::gc::compare::CellFigures;
use crate::gc::search::search_at;
use crate::gc::{GcRatio, GoRow};
use crate::pool::{format_ms, PoolSummary, Variant, MIN_TRIALS_FOR_CLAIM as POOL_MIN_TRIALS};
use crate::runs::Run;
use crate::stats::Ratio;

/// A: N threads on N adjacent shards against one thread doing the whole total (the
/// four-way control's false-sharing and single cases).
pub(super) fn false_sharing(run: &Run) -> Option<Counterpart> {
    let summaries = crate::sharing::summarize(run.rows::<crate::sharing::Row>()?);
    let headline = crate::sharing::article_headline(&summaries)?;
    let threads = summaries.iter().map(|s| s.threads).max().unwrap_or(0);
    let ratio = headline.measured;
    let text = match ratio {
        Some(r) => {
            format!("{threads} threads on {threads} adjacent shards took {} as long as 1 thread", with_interval(&r))
        }
        None => format!("{threads} threads on {threads} adjacent shards: {}", headline.measured_text),
    };
    Some(Counterpart { text, ratio: ratio.ok_or(Status::TooFewTrials) })
}

/// B: the best ratio over ratio 100 at the most threads measured, from real Go where it ran
/// beside the model (the article's own runtime), else from the model.
pub(super) fn collector_ratio(run: &Run) -> Option<Counterpart> {
    if let Some(go) = run.beside::<GoRow>().filter(|rows| !rows.is_empty()) {
        return best_over_default(&crate::gc::summarize_go(go), "Go", "goroutines");
    }
    best_over_default(&crate::gc::summarize(run.rows::<crate::gc::Row>()?), "the model", "threads")
}

/// The fastest ratio over ratio 100 at the most threads measured: the GC section's own ratio
/// search there ([`search_at`]), so the headline and the section name the same ratio. A cell
/// that collected only a few times still measured the program's throughput, which is what
/// is compared; a claim needs the search's trials in every cell.
fn best_over_default<C: CellFigures>(cells: &[C], who: &str, unit: &str) -> Option<Counterpart> {
    let most = cells.iter().map(CellFigures::threads).max()?;
    let search = search_at(cells, most)?;
    let ratio = search.over_default?;
    let base = cells.iter().find(|cell| cell.threads() == most && cell.ratio() == GcRatio::DEFAULT)?;
    let base = base.ops_per_sec().median;
    let text = if search.best == GcRatio::DEFAULT {
        format!("{who}, {most} {unit}: no ratio ran faster than 100 ({} operations/s)", per_second(base))
    } else {
        format!(
            "{who}, {most} {unit}: ratio {} ran {} ratio 100 ({} vs {} operations/s)",
            search.best,
            with_interval(&ratio),
            per_second(search.best_ops_per_sec.median),
            per_second(base)
        )
    };
    Some(Counterpart { text, ratio: if search.judged { Ok(ratio) } else { Err(Status::TooFewTrials) } })
}

/// C: p99 of the fixed pool at the incident's 40 threads per CPU over the fix's 8 per CPU
/// (the experiment scales the article's load per CPU, so any machine has both pools).
pub(super) fn pool_sizing(run: &Run) -> Option<Counterpart> {
    let summaries = crate::pool::summarize(run.rows::<crate::pool::Row>()?);
    let first_hit = summaries.iter().find(|s| s.key.variant == Variant::Fixed).map(|s| s.key.hit_rate);
    let at = |per_cpu: u64| -> Option<&PoolSummary> {
        summaries.iter().find(|s| {
            s.key.variant == Variant::Fixed
                && Some(s.key.hit_rate) == first_hit
                && s.key.pool_threads == per_cpu * s.cpus
        })
    };
    let (incident, fix) = (at(40)?, at(8)?);
    let ratio = Ratio::between(&incident.p99_ms, &fix.p99_ms);
    let bound = |s: &PoolSummary| if s.p99_lower_bound { "at least " } else { "" };
    let text = format!(
        "p99 at {} threads {}{} vs {}{} at {}: {}",
        incident.key.pool_threads,
        bound(incident),
        format_ms(incident.p99_ms.median),
        bound(fix),
        format_ms(fix.p99_ms.median),
        fix.key.pool_threads,
        with_interval(&ratio)
    );
    let enough = incident.trials.min(fix.trials) >= POOL_MIN_TRIALS;
    Some(Counterpart { text, ratio: if enough { Ok(ratio) } else { Err(Status::TooFewTrials) } })
}

/// A median throughput as the article writes it: "78 941".
fn per_second(per_s: f64) -> String {
    format_count(per_s.round() as u64)
}

/// "1.36x (1.05x–4.05x)".
fn with_interval(ratio: &Ratio) -> String {
    format::ratio_with_interval(ratio)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A collector cell with only what the headline reads.
    struct Cell {
        ratio: GcRatio,
        ops: crate::stats::Summary,
        too_few_cycles: bool,
    }

    impl CellFigures for Cell {
        fn threads(&self) -> u64 {
            8
        }
        fn ratio(&self) -> GcRatio {
            self.ratio
        }
        fn ops_per_sec(&self) -> &crate::stats::Summary {
            &self.ops
        }
        fn cycles_per_sec(&self) -> &crate::stats::Summary {
            &self.ops
        }
        fn pause_share(&self) -> &crate::stats::Summary {
            &self.ops
        }
        fn cpu_share(&self) -> Option<&crate::stats::Summary> {
            None
        }
        fn too_few_cycles(&self) -> bool {
            self.too_few_cycles
        }
    }

    #[test]
    fn the_collector_headline_is_the_sections_ratio_search() {
        let cell = |ratio, per_s: f64, trials: usize, too_few_cycles| Cell {
            ratio,
            ops: crate::stats::Summary::of(&vec![per_s; trials]).unwrap(),
            too_few_cycles,
        };
        let counterpart = |cells: &[Cell]| best_over_default(cells, "Go", "goroutines").unwrap();
        let base = || cell(GcRatio::DEFAULT, 100.0, 5, false);
        // A ratio that collected a few times still measured the program's throughput.
        let few = counterpart(&[
            base(),
            cell(GcRatio::Percent(800), 120.0, 5, false),
            cell(GcRatio::Percent(2400), 150.0, 5, true),
        ]);
        assert_eq!(
            few.text,
            "Go, 8 goroutines: ratio 2400 ran 1.50x (1.50x–1.50x) ratio 100 (150 vs 100 operations/s)"
        );
        assert!((few.ratio.unwrap().value - 1.5).abs() < 1e-9);
        let slower = counterpart(&[base(), cell(GcRatio::Off, 70.0, 5, true)]);
        assert_eq!(slower.text, "Go, 8 goroutines: no ratio ran faster than 100 (100 operations/s)");
        // Too few trials in any cell of the search: nothing is claimed.
        let thin = counterpart(&[base(), cell(GcRatio::Percent(2400), 150.0, 2, false)]);
        assert_eq!(thin.ratio, Err(Status::TooFewTrials));
        assert!(best_over_default(&[cell(GcRatio::Off, 70.0, 5, true)], "Go", "goroutines").is_none(), "no ratio 100");
    }
}
