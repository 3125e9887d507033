//! The toy as a [`Section`]: one sentence per machine computed from its rows, its chart, one
//! number the room compares, and its claim answered from its measured summary.

use super::chart::{series, toy_chart};
use super::{summarize, Row, EXPERIMENT};
use crate::evidence;
use crate::format;
use crate::kit::{figure, summary_text, Answer, Context, Effect, EffectValue, Plausible, Present, PresentError};
use crate::run_format::Run;
use crate::stats::Ratio;
use crate::view::{Figure, Finding, NotDrawn, Section};

pub const TITLE: &str = "A toy: summing numbers";
/// The figure's title (also the note's, when it cannot be drawn).
const FIGURE: &str = "toy: time per value";

pub const EFFECT: Effect =
    Effect { id: "toy", name: "toy: ns per value summed", unit: "ns", claim: None, plausible: Plausible::NANOSECONDS };

/// The toy's one claim, judged like the articles' (its row: `claim.csv`, beside this file).
pub const CLAIM: &str = "T1";

impl Present for super::Toy {
    const TITLE: &'static str = TITLE;
    const PROSE: &'static str = include_str!("prose.md");
    const EFFECTS: &'static [Effect] = &[EFFECT];
    const CLAIMS: &'static [&'static str] = &[CLAIM];

    fn section(runs: &[Run]) -> Result<Option<Section>, PresentError> {
        let mut section = Section::new(EXPERIMENT, TITLE);
        let mut measured = Vec::new();
        for run in runs {
            let Some(rows) = run.rows::<Row>() else { continue };
            let Some(summary) = summarize(rows).into_iter().next() else { continue };
            let label = run.label();
            let sentence =
                format!("{} ns per value (median of {} trials).", format::number(summary.median), summary.samples);
            section.findings.push(Finding::about(&label, sentence));
            measured.push((label.clone(), rows));
            section.machines.push(label);
        }
        if !measured.is_empty() {
            section.add_figure(chart(&measured));
        }
        Ok(Some(section))
    }

    fn effect_values(run: &Run) -> Vec<EffectValue> {
        let summary = run.rows::<Row>().and_then(|rows| summarize(rows).into_iter().next());
        let value = summary.map(|s| Ratio { value: s.median, low: s.median_low, high: s.median_high });
        vec![EffectValue::of(EFFECT, value)]
    }

    /// T1: the median's interval against the claim's range of nanoseconds per value.
    fn answer(claim: &str, context: &Context) -> Answer {
        let Some(rows) = context.run.rows::<Row>() else { return Answer::not_in_run(EXPERIMENT) };
        let (Some(summary), Some(target), CLAIM) = (summarize(rows).into_iter().next(), context.target, claim) else {
            return Answer::unanswered();
        };
        figure(summary_text(&summary, " ns per value"), &summary, evidence::sufficient(&summary), target)
    }
}

fn chart(measured: &[(String, &[Row])]) -> Result<Figure, NotDrawn> {
    let all: Vec<_> = measured.iter().map(|(label, rows)| series(label.as_str(), rows)).collect();
    let chart = toy_chart("Toy: time per value summed", &all).map_err(|error| NotDrawn::new(FIGURE, error))?;
    let points: Vec<String> = all
        .iter()
        .flat_map(|one| one.points.iter().map(move |p| format!("{}: {} ns", one.label, format::number(p.median))))
        .collect();
    Ok(Figure {
        id: "toy-chart",
        title: FIGURE.into(),
        svg: chart.svg,
        legend: chart.legend,
        caption: "Median time per value summed (dots) with the median's interval (bars), one per machine.".into(),
        text: format!("Median time per value summed. {}", points.join("; ")),
    })
}
