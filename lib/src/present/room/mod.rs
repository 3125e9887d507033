//! The room: a workshop's machines side by side, in this one folder (the report's server,
//! pages and client of the live room are `report/src/room/`). Per run, one row of key
//! effects, each experiment's own ([`super::Present::effect_values`]); across the room,
//! their medians and ranges ([`summary`]) and one chart per effect ([`chart`]); for two
//! runs, each effect's ratio between them with its interval; for a workshop's class, the
//! class page's summary ([`class`]), the projector's screens ([`projector`],
//! [`part_screen`], [`challenge_board`]), the roster ([`roster`], [`seat_name`]) and the
//! quantities a seat may guess ([`quantities`]). The cells' text is written here, once.

pub mod challenge_board;
pub mod chart;
pub mod class;
pub mod hardware;
pub mod part_screen;
pub mod projector;
pub mod quantities;
pub mod roster;
pub mod seat_name;
mod summary;

use serde::Serialize;

pub use crate::kit::{estimate_text, Effect, EffectValue, Plausible};
pub use summary::{room_section, ROOM_MEDIAN};

use super::{Cell, Column, Figure, Finding, NotDrawn, Present, Section, Table};
use crate::format::{self, upper_first};
use crate::machine_check::assess::verdict_of;
use crate::registry::{Experiment, Visitor};
use crate::runs::{Profile, Run};
use crate::stats::Ratio;

/// One machine's key effects; a value is `None` where the run did not measure it (or it
/// cannot be computed from what was measured).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyEffects {
    pub label: String,
    pub profile: Profile,
    /// The verdict's headline: "fit", or the level with the reasons that fired.
    pub verdict: String,
    /// One value per [`words`] entry, in the same order ("64 B" where the stride penalty
    /// ends, or "no penalty").
    pub words: Vec<EffectValue>,
    /// Every experiment's config as text, to flag runs measured differently.
    pub configs: Vec<(String, String)>,
    /// One value per [`effects`] entry, in the same order.
    pub effects: Vec<EffectValue>,
}

/// The numbers compared, in column order: each experiment's [`super::Present::EFFECTS`]
/// told in a number, in the registry's order.
pub fn effects() -> Vec<Effect> {
    every_effect().into_iter().filter(|effect| !effect.is_word()).collect()
}

/// The words shown before the numbers, in column order: each experiment's
/// [`super::Present::EFFECTS`] told in a word ([`Effect::word`]), in the registry's order.
pub fn words() -> Vec<Effect> {
    every_effect().into_iter().filter(Effect::is_word).collect()
}

fn every_effect() -> Vec<Effect> {
    Experiment::ALL.iter().flat_map(|experiment| experiment.visit(ListEffects)).copied().collect()
}

struct ListEffects;

impl Visitor for ListEffects {
    type Output = &'static [Effect];
    fn visit<K: Present>(self) -> &'static [Effect] {
        K::EFFECTS
    }
}

/// One experiment's values of its effects in a run, one per effect in its order: an effect
/// its hook did not give a value for is n/a.
struct MeasureEffects<'a>(&'a Run);

impl Visitor for MeasureEffects<'_> {
    type Output = Vec<EffectValue>;
    fn visit<K: Present>(self) -> Vec<EffectValue> {
        let measured = K::effect_values(self.0);
        K::EFFECTS
            .iter()
            .map(|effect| {
                let value = measured.iter().find(|value| value.effect == *effect);
                value.cloned().unwrap_or_else(|| EffectValue::of(*effect, None))
            })
            .collect()
    }
}

impl KeyEffects {
    pub fn of(run: &Run) -> Self {
        let (words, effects) = Experiment::ALL
            .iter()
            .flat_map(|experiment| experiment.visit(MeasureEffects(run)))
            .partition(|value| value.effect.is_word());
        Self {
            label: run.label(),
            profile: run.manifest.profile,
            verdict: verdict_of(run).headline(),
            words,
            configs: run
                .manifest
                .experiments
                .iter()
                .map(|record| (record.name.clone(), format::config_text(&record.config)))
                .collect(),
            effects,
        }
    }

    /// The value of the effect with key `id` (a number or a word), if the room shows it.
    pub fn effect(&self, id: &str) -> Option<&EffectValue> {
        self.words.iter().chain(&self.effects).find(|value| value.effect.id == id)
    }
}

/// The room table's columns: machine, verdict, one per word (the knee), one per number, how
/// it was measured.
pub fn room_columns() -> Vec<Column> {
    let mut columns = vec![Column::text("machine"), Column::text("verdict")];
    columns.extend(words().iter().map(|word| Column::text(word.name)));
    columns.extend(effects().iter().map(|effect| Column::number(effect.name)));
    columns.push(Column::text("measured as"));
    columns
}

/// One machine's row; `flags` says how its run was measured differently from the room's
/// (empty when it was not), and marks the row's last cell.
pub fn room_row(machine: &KeyEffects, flags: &[String]) -> Vec<Cell> {
    let mut row = vec![Cell::from(machine.label.clone()), Cell::from(machine.verdict.clone())];
    row.extend(machine.words.iter().chain(&machine.effects).map(|value| Cell::from(value.text())));
    let profile = format!("{:?}", machine.profile).to_lowercase();
    row.push(match flags {
        [] => Cell::from(profile),
        flags => Cell::noisy(format!("{profile}; differs: {}", flags.join("; ")), true),
    });
    row
}

/// Effect `a` over effect `b` with a conservative interval (the ratio of the interval ends),
/// and whether the two intervals overlap (then no difference can be claimed).
pub fn between(a: &Ratio, b: &Ratio) -> (Ratio, bool) {
    let ratio = Ratio { value: a.value / b.value, low: a.low / b.high, high: a.high / b.low };
    (ratio, a.low <= b.high && b.low <= a.high)
}

/// Two machines, one difference: per effect each machine's value, `a` over `b` with its
/// interval, and which is larger, or "not distinguishable" when the intervals overlap.
pub fn difference_table(a: &KeyEffects, b: &KeyEffects) -> Table {
    let mut rows = vec![vec![
        Cell::from("verdict"),
        Cell::from(a.verdict.clone()),
        Cell::from(b.verdict.clone()),
        Cell::missing(),
        same(&a.verdict, &b.verdict),
    ]];
    for (a_word, b_word) in a.words.iter().zip(&b.words) {
        let (a_text, b_text) = (a_word.text(), b_word.text());
        let differ = same(&a_word.word, &b_word.word);
        rows.push(vec![
            Cell::from(a_word.effect.name),
            Cell::from(a_text),
            Cell::from(b_text),
            Cell::missing(),
            differ,
        ]);
    }
    for (a_value, b_value) in a.effects.iter().zip(&b.effects) {
        let (ratio, verdict) = match (a_value.value, b_value.value) {
            (Some(x), Some(y)) => {
                let (ratio, overlap) = between(&x, &y);
                let larger = if ratio.value > 1.0 { &a.label } else { &b.label };
                let verdict = if overlap { "not distinguishable".to_string() } else { format!("larger on {larger}") };
                (format::ratio_with_interval(&ratio), verdict)
            }
            _ => (format::NOT_AVAILABLE.into(), "n/a on one or both".into()),
        };
        let cells = [a_value.effect.name.to_string(), a_value.text(), b_value.text(), ratio, verdict];
        rows.push(cells.into_iter().map(Cell::from).collect());
    }
    Table {
        id: "difference",
        caption: format!("{} against {}: each effect's ratio, {} over {}", a.label, b.label, a.label, b.label),
        columns: vec![
            Column::text("effect"),
            Column::number(&a.label),
            Column::number(&b.label),
            Column::number("ratio (interval)"),
            Column::text("difference"),
        ],
        rows,
    }
}

fn same<T: PartialEq>(a: &T, b: &T) -> Cell {
    Cell::from(if a == b { "same" } else { "differ" })
}

/// What the difference table's words mean.
pub fn difference_note() -> Finding {
    Finding::general(
        "A ratio's interval runs from the ratio of the low ends to the ratio of the high ends of the two \
         machines' intervals (each a distribution-free interval for the median). Where the two intervals \
         overlap the machines cannot be told apart on that effect: not distinguishable.",
    )
}

/// One chart per effect across `machines`, for effects at least one of them measured (or
/// why it could not be drawn).
pub fn room_figures(machines: &[KeyEffects]) -> Vec<Result<Figure, NotDrawn>> {
    let mut figures = Vec::new();
    for (index, effect) in effects().iter().enumerate() {
        let values: Vec<(&str, Option<Ratio>)> =
            machines.iter().map(|m| (m.label.as_str(), m.effects[index].value)).collect();
        if values.iter().all(|(_, value)| value.is_none()) {
            continue;
        }
        let y_desc = if effect.unit == "x" { "ratio (log scale)" } else { "ms (log scale)" };
        let text = values
            .iter()
            .map(|(label, value)| match value {
                Some(value) => format!("{label}: {}", estimate_text(*effect, value)),
                None => format!("{label}: {}", format::NOT_AVAILABLE),
            })
            .collect::<Vec<_>>()
            .join("; ");
        let chart = chart::room_chart(effect.name, y_desc, &values).map_err(|error| NotDrawn::new(effect.name, error));
        figures.push(chart.map(|chart| Figure {
            id: "effect",
            title: effect.name.to_string(),
            svg: chart.svg,
            legend: chart.legend,
            caption: format!("{} on each machine: median with its interval.", upper_first(effect.name)),
            text: format!("{}: {text}.", upper_first(effect.name)),
        }));
    }
    figures
}

/// The section for two machines: the difference table, and one sentence per effect that
/// differs beyond the noise (or that none does).
pub fn difference_section(a: &KeyEffects, b: &KeyEffects) -> Section {
    let mut section = Section::new(DIFFERENCE, "Two machines, one difference");
    section.machines = vec![a.label.clone(), b.label.clone()];
    let table = difference_table(a, b);
    let compared = effects();
    let differing: Vec<String> = compared
        .iter()
        .zip(&table.rows[1 + words().len()..])
        .filter(|(_, row)| row[4].text.starts_with("larger on"))
        .map(|(effect, row)| format!("{}, {} ({})", effect.name, row[4].text, row[3].text))
        .collect();
    section.findings.push(Finding::general(match differing.as_slice() {
        [] => format!(
            "No effect tells {} and {} apart beyond the noise: every measured pair of intervals overlaps.",
            a.label, b.label
        ),
        some => format!(
            "{} of {} effects differ beyond the noise ({} over {}): {}.",
            some.len(),
            compared.len(),
            a.label,
            b.label,
            some.join("; ")
        ),
    }));
    section.tables.push(table);
    section.notes.push(difference_note());
    section
}

/// The difference section's name and anchor.
pub const DIFFERENCE: &str = "difference";
/// The room section's name and anchor.
pub const ROOM: &str = "room";
