//! The model and the real Go collector, compared like with like: the same cells, the same
//! figures (signatures/s at one thread, cycles/s and pause share at ratio 100, the gain of
//! ratio 2400 over 100 at the most threads), and one computed sentence saying where the
//! two agree and where they differ.

use serde::{Deserialize, Serialize};

use super::config::GcRatio;
use super::go::GoCell;
use super::summary::CellSummary;
use crate::stats::{Ratio, Summary};

/// The ratio the article found most of the gain at (24 cores x 100).
pub const HIGH_RATIO: GcRatio = GcRatio::Percent(2400);

/// What both the model's and Go's cells can answer.
pub trait CellFigures {
    fn threads(&self) -> u64;
    fn ratio(&self) -> GcRatio;
    fn ops_per_sec(&self) -> &Summary;
    fn cycles_per_sec(&self) -> &Summary;
    fn pause_share(&self) -> &Summary;
    fn cpu_share(&self) -> Option<&Summary>;
    fn too_few_cycles(&self) -> bool;
}

macro_rules! cell_figures {
    ($cell:ty) => {
        impl CellFigures for $cell {
            fn threads(&self) -> u64 {
                self.threads
            }
            fn ratio(&self) -> GcRatio {
                self.ratio
            }
            fn ops_per_sec(&self) -> &Summary {
                &self.ops_per_sec
            }
            fn cycles_per_sec(&self) -> &Summary {
                &self.cycles_per_sec
            }
            fn pause_share(&self) -> &Summary {
                &self.pause_share
            }
            fn cpu_share(&self) -> Option<&Summary> {
                self.cpu_share.as_ref()
            }
            fn too_few_cycles(&self) -> bool {
                self.too_few_cycles
            }
        }
    };
}
cell_figures!(CellSummary);
cell_figures!(GoCell);

/// Cycles and pauses of one thread count at ratio 100.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DefaultRatioPoint {
    pub threads: u64,
    pub ops_per_sec: f64,
    pub cycles_per_sec: f64,
    pub pause_share: f64,
    pub too_few_cycles: bool,
}

/// The high ratio over ratio 100 at one thread count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatioGain {
    pub threads: u64,
    pub gain: Ratio,
    /// The high-ratio cell ran too few cycles to judge (it then measures "no collector").
    pub too_few_cycles: bool,
}

/// One side's figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    pub one_thread_ops_per_sec: Option<f64>,
    pub at_default: Vec<DefaultRatioPoint>,
    /// Thread count where ratio 100 ran fastest.
    pub default_peak_threads: Option<u64>,
    pub high_ratio_gain: Option<RatioGain>,
}

/// The thread count to set beside the article's 48 goroutines (its hardware threads): this
/// machine's logical CPUs when measured, else the most threads measured below them, else
/// the fewest above (then oversubscribed, and to be marked so).
pub fn like_for_like_threads<C: CellFigures>(cells: &[C], logical_cpus: u64) -> Option<u64> {
    let threads = || cells.iter().map(CellFigures::threads);
    threads().filter(|&threads| threads <= logical_cpus).max().or_else(|| threads().min())
}

fn find<C: CellFigures>(cells: &[C], threads: u64, ratio: GcRatio) -> Option<&C> {
    cells.iter().find(|cell| cell.threads() == threads && cell.ratio() == ratio)
}

/// The figures of `cells`, with the high-ratio gain taken at `gain_threads` (4 x the CPUs),
/// or at the most threads measured when that count was not.
pub fn figures<C: CellFigures>(cells: &[C], gain_threads: u64) -> Figures {
    let at_default: Vec<DefaultRatioPoint> = cells
        .iter()
        .filter(|cell| cell.ratio() == GcRatio::DEFAULT)
        .map(|cell| DefaultRatioPoint {
            threads: cell.threads(),
            ops_per_sec: cell.ops_per_sec().median,
            cycles_per_sec: cell.cycles_per_sec().median,
            pause_share: cell.pause_share().median,
            too_few_cycles: cell.too_few_cycles(),
        })
        .collect();
    let most = cells.iter().map(CellFigures::threads).filter(|&threads| threads <= gain_threads).max();
    let gain_at = if find(cells, gain_threads, HIGH_RATIO).is_some() { Some(gain_threads) } else { most };
    let high_ratio_gain = gain_at.and_then(|threads| {
        let high = find(cells, threads, HIGH_RATIO)?;
        let base = find(cells, threads, GcRatio::DEFAULT)?;
        let gain = Ratio::between(high.ops_per_sec(), base.ops_per_sec());
        Some(RatioGain { threads, gain, too_few_cycles: high.too_few_cycles() })
    });
    Figures {
        one_thread_ops_per_sec: find(cells, 1, GcRatio::DEFAULT).map(|cell| cell.ops_per_sec().median),
        default_peak_threads: at_default
            .iter()
            .max_by(|a, b| a.ops_per_sec.total_cmp(&b.ops_per_sec))
            .map(|p| p.threads),
        at_default,
        high_ratio_gain,
    }
}

/// What the high ratio did to throughput, as far as the interval can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GainKind {
    Faster,
    Slower,
    NoMeasurableChange,
    TooFewCycles,
}

impl GainKind {
    fn of(gain: &RatioGain) -> Self {
        if gain.too_few_cycles {
            GainKind::TooFewCycles
        } else if gain.gain.clearly_above_one() {
            GainKind::Faster
        } else if gain.gain.clearly_below_one() {
            GainKind::Slower
        } else {
            GainKind::NoMeasurableChange
        }
    }

    fn words(self) -> &'static str {
        match self {
            GainKind::Faster => "faster",
            GainKind::Slower => "slower",
            GainKind::NoMeasurableChange => "no measurable change",
            GainKind::TooFewCycles => "too few cycles to judge",
        }
    }
}

/// Where the model and Go agree and differ, in one sentence: the thread count where
/// ratio 100 peaks, and what the high ratio did (faster, slower, or no change beyond the
/// noise); a cell with too few cycles is compared with nothing.
pub fn agreement(model: &Figures, go: &Figures) -> String {
    let mut agree = Vec::new();
    let mut differ = Vec::new();
    let mut unjudged = Vec::new();
    if let (Some(model_peak), Some(go_peak)) = (model.default_peak_threads, go.default_peak_threads) {
        if model_peak == go_peak {
            agree.push(format!("where ratio 100 peaks ({model_peak} threads in both)"));
        } else {
            differ.push(format!("where ratio 100 peaks ({model_peak} threads in the model, {go_peak} in Go)"));
        }
    }
    if let (Some(model_gain), Some(go_gain)) = (&model.high_ratio_gain, &go.high_ratio_gain) {
        let (model_kind, go_kind) = (GainKind::of(model_gain), GainKind::of(go_gain));
        let text = format!(
            "what ratio {HIGH_RATIO} does at {} threads (the model {:.2}x, {}; Go {:.2}x, {})",
            go_gain.threads,
            model_gain.gain.value,
            model_kind.words(),
            go_gain.gain.value,
            go_kind.words()
        );
        match (model_kind, go_kind) {
            (GainKind::TooFewCycles, _) | (_, GainKind::TooFewCycles) => unjudged.push(text),
            _ if model_kind == go_kind => agree.push(text),
            _ => differ.push(text),
        }
    }
    let mut clauses = Vec::new();
    if !agree.is_empty() {
        clauses.push(format!("agree on {}", agree.join(" and ")));
    }
    if !differ.is_empty() {
        clauses.push(format!("differ on {}", differ.join(" and ")));
    }
    if !unjudged.is_empty() {
        clauses.push(format!("cannot be compared on {}", unjudged.join(" and ")));
    }
    if clauses.is_empty() {
        return "The model and Go share no cells to compare.".into();
    }
    format!("The model and Go {}.", clauses.join("; they "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gc::go::{summarize_go, GoRow};

    fn rows(samples: &[(u64, GcRatio, f64)]) -> Vec<GoRow> {
        samples
            .iter()
            .flat_map(|&(threads, ratio, ops)| {
                (0..3).map(move |trial| GoRow {
                    threads,
                    ratio,
                    trial,
                    go_version: "go1.19.8".into(),
                    elapsed_ns: 1_000_000_000,
                    operations: ops as u64,
                    ops_per_sec: ops + trial as f64,
                    cycles: 20,
                    cycles_per_sec: 20.0,
                    pause_total_ns: 0,
                    pause_share: 0.01,
                    pause_metric: String::new(),
                    alloc_bytes_per_op: 2573.0,
                    alloc_objects_per_op: 33.5,
                    verified: true,
                    cpu_share: 0.5,
                    heap_goal_bytes: 4_194_304.0,
                })
            })
            .collect()
    }

    #[test]
    fn figures_and_the_sentence_follow_the_cells() {
        let r100 = GcRatio::DEFAULT;
        let go = summarize_go(&rows(&[(1, r100, 100.0), (2, r100, 190.0), (8, r100, 120.0), (8, HIGH_RATIO, 400.0)]));
        let flat = summarize_go(&rows(&[(1, r100, 100.0), (8, r100, 200.0), (8, HIGH_RATIO, 201.0)]));
        let go_figures = figures(&go, 8);
        assert_eq!(go_figures.one_thread_ops_per_sec, Some(101.0));
        assert_eq!(go_figures.default_peak_threads, Some(2));
        assert_eq!(go_figures.high_ratio_gain.as_ref().map(|gain| gain.threads), Some(8));
        let text = agreement(&figures(&flat, 8), &go_figures);
        assert_eq!(
            text,
            "The model and Go differ on where ratio 100 peaks (8 threads in the model, 2 in Go) and what ratio 2400 \
             does at 8 threads (the model 1.00x, no measurable change; Go 3.31x, faster)."
        );
        assert_eq!(
            agreement(&go_figures, &go_figures),
            "The model and Go agree on where ratio 100 peaks (2 threads in both) and what ratio 2400 does at 8 \
             threads (the model 3.31x, faster; Go 3.31x, faster)."
        );
        let slower = summarize_go(&rows(&[(1, r100, 100.0), (8, r100, 200.0), (8, HIGH_RATIO, 120.0)]));
        assert!(
            agreement(&figures(&flat, 8), &figures(&slower, 8)).contains(
                "differ on what ratio 2400 does at 8 threads (the model 1.00x, no measurable change; Go 0.60x, slower)"
            ),
            "a loss and no change are not agreement"
        );
        assert_eq!(figures(&go, 4).high_ratio_gain, None, "no ratio 2400 at 4 threads or fewer but 8");
        assert_eq!([2, 4, 16, 1].map(|cpus| like_for_like_threads(&go, cpus)), [Some(2), Some(2), Some(8), Some(1)]);
        assert_eq!(like_for_like_threads(&go[2..], 1), Some(8), "only 8 measured: oversubscribed");
    }
}
