//! The room section: every machine's key effects in one table, the room's medians and
//! ranges, its verdict counts, and the runs measured differently from the rest, each a
//! plain fold over the machines' [`KeyEffects`].

use super::{effects, room_columns, room_figures, room_row, words, KeyEffects, ROOM};
use crate::format::{self, upper_first};
use crate::present::{Cell, Finding, PresentError, Section, Table};
use crate::registry::Experiment;
use crate::runs::Run;
use crate::stats::Summary;

/// The label of the room's last row; a run may not take it ([`crate::runs::check_label`]).
pub const ROOM_MEDIAN: &str = "room median";

/// The room section for `runs` (more than two, as the page shows it).
pub fn room_section(runs: &[Run]) -> Result<Section, PresentError> {
    let machines: Vec<KeyEffects> = runs.iter().map(KeyEffects::of).collect();
    let flags = differing(&machines);
    let mut section = Section::new(ROOM, "The room: every machine's key effects");
    section.machines = machines.iter().map(|m| m.label.clone()).collect();
    section.findings.push(Finding::general(verdict_counts(&machines)));
    for (index, effect) in effects().iter().enumerate() {
        if let Some(range) = effect_range(&machines, index) {
            section.findings.push(Finding::general(format!("{}: {range}.", upper_first(effect.name))));
        }
    }
    let mut rows: Vec<Vec<Cell>> = machines.iter().zip(&flags).map(|(m, flags)| room_row(m, flags)).collect();
    rows.push(median_row(&machines));
    section.tables.push(Table {
        id: "room",
        caption: "The room: one row per machine, medians with their intervals (click a header to sort)".into(),
        columns: room_columns(),
        rows,
    });
    for figure in room_figures(&machines) {
        section.add_figure(figure);
    }
    section.notes.push(Finding::general(
        "Knee: the smallest stride within 10% of the fastest. Ratios: medians over trials with a conservative \
         interval; an interval that contains 1x claims no effect. Pool p99: the fixed pool at the first hit rate, over the requests it served \
         (a share dropped is named). \
         \"differs\" marks a run measured with another profile or config than the rest of the room: compare it \
         with care.",
    ));
    Ok(section)
}

/// "fit", "limited" or "unfit": the verdict headline's first word.
fn fitness(verdict: &str) -> &str {
    verdict.split([' ', ';']).next().unwrap_or(verdict)
}

/// Per machine, how its run was measured differently from the room: its profile when it
/// is not the room's most common one, and each experiment whose config is not the most
/// common among the runs that measured it.
fn differing(machines: &[KeyEffects]) -> Vec<Vec<String>> {
    let mut flags = vec![Vec::new(); machines.len()];
    let profiles: Vec<Option<String>> = machines.iter().map(|m| Some(format!("{:?}", m.profile))).collect();
    let mut columns = vec![("profile".to_string(), profiles)];
    for experiment in Experiment::ALL {
        let configs = machines
            .iter()
            .map(|m| m.configs.iter().find(|(name, _)| name == experiment.name()).map(|(_, text)| text.clone()))
            .collect();
        columns.push((format!("{} config", experiment.name()), configs));
    }
    for (what, values) in columns {
        let mut distinct: Vec<&String> = values.iter().flatten().collect();
        distinct.sort();
        distinct.dedup();
        if distinct.len() <= 1 {
            continue;
        }
        let count = |value: &Option<String>| values.iter().filter(|other| *other == value).count();
        let most = values.iter().filter(|value| value.is_some()).map(count).max().unwrap_or(0);
        for (row, value) in flags.iter_mut().zip(&values) {
            if value.is_some() && count(value) < most {
                // A profile is one word; a config is long, and the notes give it in full.
                let profile = value.as_ref().filter(|_| what == "profile").map(|profile| profile.to_lowercase());
                row.push(profile.map_or(what.clone(), |profile| format!("{what} {profile}")));
            }
        }
    }
    flags
}

/// "4 machines: 2 fit, 1 limited, 1 unfit."
fn verdict_counts(machines: &[KeyEffects]) -> String {
    let counts: Vec<String> = ["fit", "limited", "unfit"]
        .iter()
        .filter_map(|level| {
            let count = machines.iter().filter(|m| fitness(&m.verdict) == *level).count();
            (count > 0).then(|| format!("{count} {level}"))
        })
        .collect();
    format!("{} machines: {}.", machines.len(), counts.join(", "))
}

/// The medians of effect `index` over the machines that measured it, with their labels.
fn measured(machines: &[KeyEffects], index: usize) -> Vec<(f64, &str)> {
    machines.iter().filter_map(|m| Some((m.effects[index].value?.value, m.label.as_str()))).collect()
}

/// The median over machines of effect `index`, when any measured it.
fn room_median(machines: &[KeyEffects], index: usize) -> Option<f64> {
    let values: Vec<f64> = measured(machines, index).into_iter().map(|(value, _)| value).collect();
    Summary::of(&values).map(|summary| summary.median)
}

/// "from 1.02x on vm-a to 3.90x on mac-b, median 2.10x over 3 machines", when at least
/// two machines measured effect `index`.
fn effect_range(machines: &[KeyEffects], index: usize) -> Option<String> {
    let measured = measured(machines, index);
    let by_value = |a: &&(f64, &str), b: &&(f64, &str)| a.0.total_cmp(&b.0);
    let (low, high) = (measured.iter().min_by(by_value)?, measured.iter().max_by(by_value)?);
    if measured.len() < 2 {
        return None;
    }
    let unit = effects()[index].unit;
    if low.0 == high.0 {
        return Some(format!("{} on all {} machines", value_text(low.0, unit), measured.len()));
    }
    let shown = |(value, machine): &(f64, &str)| format!("{} on {machine}", value_text(*value, unit));
    let median = room_median(machines, index).map_or_else(|| format::NOT_AVAILABLE.into(), |m| value_text(m, unit));
    Some(format!("from {} to {}, median {median} over {} machines", shown(low), shown(high), measured.len()))
}

/// The room's median of each effect, as the table's last row.
fn median_row(machines: &[KeyEffects]) -> Vec<Cell> {
    // No median of the verdict nor of a word.
    let mut row = vec![Cell::from(ROOM_MEDIAN), Cell::from("")];
    row.extend(words().iter().map(|_| Cell::from("")));
    for (index, effect) in effects().iter().enumerate() {
        let median = room_median(machines, index);
        row.push(Cell::from(median.map_or_else(|| format::NOT_AVAILABLE.into(), |m| value_text(m, effect.unit))));
    }
    row.push(Cell::from(""));
    row
}

/// A figure in its effect's unit, without its interval.
pub fn value_text(value: f64, unit: &str) -> String {
    match unit {
        "x" => format::ratio(value),
        unit => format!("{} {unit}", format::number(value)),
    }
}
