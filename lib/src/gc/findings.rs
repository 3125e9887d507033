//! The two facts notebook 04's prose turns on, computed from the cells so no sentence can
//! contradict the outputs: where the ratio-100 curve peaks, and whether any ratio beat 100.

use serde::{Deserialize, Serialize};

use super::summary::{best_ratio_per_threads, peak_threads, threads_text, CellSummary};
use super::GcRatio;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CurveFindings {
    /// Thread count where ratio 100 ran fastest (`None` when ratio 100 was not measured).
    pub default_peak_threads: Option<u64>,
    /// The peak is below the most threads measured: the curve rises, then falls or flattens.
    pub peaks_before_the_end: bool,
    /// Thread counts where some ratio beat 100 beyond the noise (enough trials and cycles).
    pub ratio_beat_default_at: Vec<u64>,
    /// Both facts in a sentence.
    pub sentence: String,
}

pub fn curve_findings(cells: &[CellSummary]) -> CurveFindings {
    let peak = peak_threads(cells, GcRatio::DEFAULT).map(|cell| cell.threads);
    let most = cells.iter().map(|cell| cell.threads).max();
    let beat: Vec<u64> =
        best_ratio_per_threads(cells).into_iter().filter(|b| b.beats_default).map(|b| b.threads).collect();
    let peak_text = match (peak, most) {
        (Some(peak), Some(most)) if peak < most => {
            format!("The ratio-100 curve peaks at {} and does not rise after it", threads_text(peak))
        }
        (Some(peak), _) => format!("The ratio-100 curve is highest at {}, the most measured", threads_text(peak)),
        _ => "Ratio 100 was not measured".into(),
    };
    let beat_text = match beat.as_slice() {
        [] => "no ratio beat 100 beyond the noise".to_string(),
        counts => {
            let counts: Vec<String> = counts.iter().map(|&threads| threads_text(threads)).collect();
            format!("a higher ratio beat 100 beyond the noise at {}", counts.join(", "))
        }
    };
    CurveFindings {
        default_peak_threads: peak,
        peaks_before_the_end: peak.zip(most).is_some_and(|(peak, most)| peak < most),
        sentence: format!("{peak_text}; {beat_text}."),
        ratio_beat_default_at: beat,
    }
}
