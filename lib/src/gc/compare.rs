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

/// Where the model and Go agree and differ, in one sentence: the thread count where
/// ratio 100 peaks, and whether the high ratio gained beyond the noise.
pub fn agreement(model: &Figures, go: &Figures) -> String {
    let mut agree = Vec::new();
    let mut differ = Vec::new();
    if let (Some(model_peak), Some(go_peak)) = (model.default_peak_threads, go.default_peak_threads) {
        let text = if model_peak == go_peak {
            format!("ratio 100 peaks at {model_peak} threads in both")
        } else {
            format!("ratio 100 peaks at {model_peak} threads in the model and {go_peak} in Go")
        };
        if model_peak == go_peak {
            agree.push(text)
        } else {
            differ.push(text)
        }
    }
    if let (Some(model_gain), Some(go_gain)) = (&model.high_ratio_gain, &go.high_ratio_gain) {
        let (model_gained, go_gained) = (model_gain.gain.clearly_above_one(), go_gain.gain.clearly_above_one());
        let text = format!(
            "ratio {HIGH_RATIO} at {} threads {} the model {:.2}x and Go {:.2}x",
            go_gain.threads,
            if model_gained || go_gained { "gave" } else { "left" },
            model_gain.gain.value,
            go_gain.gain.value
        );
        if model_gained == go_gained {
            agree.push(text)
        } else {
            differ.push(text)
        }
    }
    match (agree.is_empty(), differ.is_empty()) {
        (true, true) => "The model and Go share no cells to compare.".into(),
        (false, true) => format!("The model and Go agree: {}.", agree.join("; ")),
        (true, false) => format!("The model and Go differ: {}.", differ.join("; ")),
        (false, false) => {
            format!("The model and Go agree that {}, and differ: {}.", agree.join("; "), differ.join("; "))
        }
    }
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
            "The model and Go differ: ratio 100 peaks at 8 threads in the model and 2 in Go; ratio 2400 at 8 threads \
             gave the model 1.00x and Go 3.31x."
        );
        assert!(agreement(&go_figures, &go_figures).starts_with("The model and Go agree: ratio 100 peaks at 2"));
        assert_eq!(figures(&go, 4).high_ratio_gain, None, "no ratio 2400 at 4 threads or fewer but 8");
        assert_eq!([2, 4, 16, 1].map(|cpus| like_for_like_threads(&go, cpus)), [Some(2), Some(2), Some(8), Some(1)]);
        assert_eq!(like_for_like_threads(&go[2..], 1), Some(8), "only 8 measured: oversubscribed");
    }
}
