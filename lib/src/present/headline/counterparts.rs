//! Each article's counterpart in a run: what the run measured of the headline, in words with
//! its interval, and the ratio when the run's evidence allows a claim (else why not).

use super::{Counterpart, Status};
use crate::counters::format_count;
use crate::format;
use crate::gc::compare::CellFigures;
use crate::gc::summary::MIN_TRIALS_FOR_A_CLAIM as GC_MIN_TRIALS;
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

/// The fastest ratio over ratio 100 at the most threads measured. The fastest is chosen
/// among the cells that can be judged (enough trials, and enough collections unless the
/// ratio is off): a ratio that collected a few times in its trials ran fast for a reason its
/// steady state would not share. A faster median left out for that is named.
fn best_over_default<C: CellFigures>(cells: &[C], who: &str, unit: &str) -> Option<Counterpart> {
    let most = cells.iter().map(CellFigures::threads).max()?;
    let at_most = || cells.iter().filter(|cell| cell.threads() == most);
    let base = at_most().find(|cell| cell.ratio() == GcRatio::DEFAULT)?;
    let shortfall = |cell: &C| {
        if cell.ops_per_sec().samples < GC_MIN_TRIALS {
            Some(Status::TooFewTrials)
        } else {
            (cell.too_few_cycles() && cell.ratio() != GcRatio::Off).then_some(Status::TooFewCycles)
        }
    };
    let fastest = |cell: &&C, other: &&C| cell.ops_per_sec().median.total_cmp(&other.ops_per_sec().median);
    let fastest_of_all = at_most().max_by(fastest)?;
    // Ratio 100 is the reference: always a candidate, judged or not (its own shortfall
    // decides the claim below).
    let candidate = |cell: &&C| cell.ratio() == GcRatio::DEFAULT || shortfall(cell).is_none();
    let best = at_most().filter(candidate).max_by(fastest).unwrap_or(base);
    let ratio = Ratio::between(best.ops_per_sec(), base.ops_per_sec());
    // Only ratio 100 itself left to compare: the faster ratio left out decides that nothing is
    // claimed, and why.
    let left_out = (best.ratio() == GcRatio::DEFAULT).then(|| shortfall(fastest_of_all)).flatten();
    let claim = match shortfall(base).or_else(|| shortfall(best)).or(left_out) {
        Some(short) => Err(short),
        None => Ok(ratio),
    };
    let mut text = if best.ratio() == GcRatio::DEFAULT {
        format!("{who}, {most} {unit}: no ratio ran faster than 100 ({} operations/s)", per_second(base))
    } else {
        format!(
            "{who}, {most} {unit}: ratio {} ran {} ratio 100 ({} vs {} operations/s)",
            best.ratio(),
            with_interval(&ratio),
            per_second(best),
            per_second(base)
        )
    };
    if fastest_of_all.ratio() != best.ratio() {
        text.push_str(&format!(
            "; ratio {}'s median was higher ({} operations/s) from too few collections to judge",
            fastest_of_all.ratio(),
            per_second(fastest_of_all)
        ));
    }
    Some(Counterpart { text, ratio: claim })
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

/// A cell's median throughput as the article writes it: "78 941".
fn per_second<C: CellFigures>(cell: &C) -> String {
    format_count(cell.ops_per_sec().median.round() as u64)
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
    fn the_collector_claims_nothing_from_too_few_trials_or_too_few_collections() {
        let cell = |ratio, per_s: f64, trials: usize, too_few_cycles| Cell {
            ratio,
            ops: crate::stats::Summary::of(&vec![per_s; trials]).unwrap(),
            too_few_cycles,
        };
        let claim = |cells: &[Cell]| best_over_default(cells, "Go", "goroutines").unwrap().ratio;
        let base = || cell(GcRatio::DEFAULT, 100.0, 5, false);
        assert!(claim(&[base(), cell(GcRatio::Percent(2400), 150.0, 5, false)]).is_ok());
        assert!(claim(&[base(), cell(GcRatio::Off, 150.0, 5, true)]).is_ok(), "off never collects");
        // The fastest median collected too seldom: the fastest that can be judged is taken,
        // and the other named.
        let skipped =
            [base(), cell(GcRatio::Percent(800), 120.0, 5, false), cell(GcRatio::Percent(2400), 150.0, 5, true)];
        let counterpart = best_over_default(&skipped, "Go", "goroutines").unwrap();
        assert!((counterpart.ratio.unwrap().value - 1.2).abs() < 1e-9);
        assert!(counterpart.text.starts_with("Go, 8 goroutines: ratio 800 ran 1.20x"), "{}", counterpart.text);
        assert!(counterpart
            .text
            .ends_with("ratio 2400's median was higher (150 operations/s) from too few collections to judge"));
        // Nothing else to take: no claim, and why.
        assert_eq!(claim(&[base(), cell(GcRatio::Percent(2400), 150.0, 5, true)]), Err(Status::TooFewCycles));
        let sparse_base = [cell(GcRatio::DEFAULT, 100.0, 5, true), cell(GcRatio::Off, 150.0, 5, true)];
        assert_eq!(claim(&sparse_base), Err(Status::TooFewCycles), "ratio 100 itself collected too seldom");
        let slower_off = [cell(GcRatio::DEFAULT, 100.0, 5, true), cell(GcRatio::Off, 70.0, 5, true)];
        let counterpart = best_over_default(&slower_off, "Go", "goroutines").unwrap();
        assert_eq!(counterpart.text, "Go, 8 goroutines: no ratio ran faster than 100 (100 operations/s)");
        assert_eq!(counterpart.ratio, Err(Status::TooFewCycles));
        assert_eq!(claim(&[base(), cell(GcRatio::Percent(2400), 150.0, 1, true)]), Err(Status::TooFewTrials));
        assert!(Status::TooFewCycles.text(2).starts_with("claims nothing: under 10 collections"));
    }
}
