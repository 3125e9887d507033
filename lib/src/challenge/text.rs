//! A check's answer in lines of text, the same in the terminal, an example and a notebook:
//! the goal first, then the speed-up, then how the rule reads it (or what a wrong fix lost).

use super::check::{reading, Checked, Sample, Side};
use crate::format::{number, ratio_with_interval};
use crate::stats::Summary;

/// The lines of `checked`, goal first.
pub fn lines(checked: &Checked) -> Vec<String> {
    let challenge = checked.challenge;
    let mut lines = vec![format!("challenge {} (article {}): {}", challenge, challenge.article(), challenge.task())];
    if let Some(wrong) = &checked.wrong {
        lines.push(format!("wrong: {wrong}"));
        lines.push("refused on correctness: nothing was timed; fix it and check again".into());
        return lines;
    }
    let Some(verdict) = &checked.verdict else { return lines };
    lines.push("correct: passed the correctness check".into());
    if let Some(goal) = &verdict.goal {
        lines.push(format!(
            "goal: {}, what the reference fix gives over the baseline on this machine",
            ratio_with_interval(goal)
        ));
    }
    for side in Side::ALL {
        lines.push(side_line(&verdict.samples, side, challenge.unit()));
    }
    if let Some(speedup) = &verdict.speedup {
        lines.push(format!("your speed-up over the baseline: {}", ratio_with_interval(speedup)));
    }
    let judgement = &verdict.judgement;
    let why = if judgement.why.is_empty() { String::new() } else { format!(" ({})", judgement.why) };
    lines.push(format!("reading: {}{why}", reading(judgement.status)));
    if verdict.budget_cut {
        lines.push("the time budget ran out before every planned trial ran".into());
    }
    lines
}

/// "baseline: 41.2M adds per second (39.8M–42.0M, 10 trials), 31.0 collector cycles per second".
fn side_line(samples: &[Sample], side: Side, unit: &str) -> String {
    let of = |value: fn(&Sample) -> Option<f64>| {
        let values: Vec<f64> = samples.iter().filter(|sample| sample.side == side).filter_map(value).collect();
        Summary::of(&values)
    };
    let Some(rate) = of(|sample| Some(sample.per_sec)) else {
        return format!("{}: no trial", side.label());
    };
    let mut line = format!(
        "{}: {} {unit} (median; interval {}, {} trials)",
        side.label(),
        number(rate.median),
        crate::format::interval(rate.median_low, rate.median_high),
        rate.samples
    );
    if let Some(cycles) = of(|sample| sample.cycles_per_sec) {
        line.push_str(&format!(", {} collector cycles per second", number(cycles.median)));
    }
    line
}
