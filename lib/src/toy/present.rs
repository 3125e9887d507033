//! The toy as a [`Section`]: one sentence per machine computed from its rows, and one number
//! the room compares.

use super::{summarize, Row, EXPERIMENT};
use crate::format;
use crate::kit::{Effect, EffectValue, Plausible};
use crate::present::{Finding, Present, PresentError, Section};
use crate::runs::Run;
use crate::stats::Ratio;

pub const TITLE: &str = "A toy: summing numbers";

pub const EFFECT: Effect = Effect { id: "toy", name: "toy: ns per value summed", unit: "ns", claim: None, plausible: Plausible::NANOSECONDS };

impl Present for super::Toy {
    const TITLE: &'static str = TITLE;
    const PROSE: &'static str = include_str!("prose.md");
    const EFFECTS: &'static [Effect] = &[EFFECT];

    fn section(runs: &[Run]) -> Result<Option<Section>, PresentError> {
        let mut section = Section::new(EXPERIMENT, TITLE);
        for run in runs {
            let Some(summary) = run.rows::<Row>().and_then(|rows| summarize(rows).into_iter().next()) else { continue };
            let label = run.label();
            let sentence =
                format!("{} ns per value (median of {} trials).", format::number(summary.median), summary.samples);
            section.findings.push(Finding::about(&label, sentence));
            section.machines.push(label);
        }
        section.status = crate::kit::status(runs, &[EXPERIMENT]);
        Ok(Some(section))
    }

    fn effect_values(run: &Run) -> Vec<EffectValue> {
        let summary = run.rows::<Row>().and_then(|rows| summarize(rows).into_iter().next());
        let value = summary.map(|s| Ratio { value: s.median, low: s.median_low, high: s.median_high });
        vec![EffectValue::of(EFFECT, value)]
    }
}
