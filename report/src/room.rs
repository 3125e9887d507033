//! The room summary: the one module that uses polars (questions across many runs). Each
//! machine's key effects come from the lib ([`KeyEffects`]); here they become one data
//! frame, from which the room's medians and ranges, its verdict counts and the runs
//! measured differently from the rest are read. The table's cells are the lib's text.

use anyhow::Result;
use contention::present::room::{room_columns, room_figures, room_row, KeyEffects, EFFECTS, ROOM};
use contention::present::{Cell, Finding, Section, Table};
use contention::runs::Run;
use polars::prelude::*;

/// The room section for `runs` (more than two, as the page shows it).
pub fn section(runs: &[Run]) -> Result<Section> {
    let machines: Vec<KeyEffects> = runs.iter().map(KeyEffects::of).collect();
    let frame = anyhow::Context::context(frame(&machines), "building the room's data frame")?;
    let flags = anyhow::Context::context(flags(&frame, &machines), "comparing the runs' profiles and configs")?;
    let mut section = Section::new(ROOM, "The room: every machine's key effects");
    section.machines = machines.iter().map(|m| m.label.clone()).collect();
    section.findings.push(Finding::general(verdict_counts(&frame)?));
    for (index, effect) in EFFECTS.iter().enumerate() {
        if let Some(range) = effect_range(&frame, index)? {
            section.findings.push(Finding::general(format!("{}: {range}.", upper_first(effect.name))));
        }
    }
    let mut rows: Vec<Vec<Cell>> = machines.iter().zip(&flags).map(|(m, flags)| room_row(m, flags)).collect();
    rows.push(median_row(&frame)?);
    section.tables.push(Table {
        caption: "The room: one row per machine, medians with their intervals (click a header to sort)".into(),
        columns: room_columns(),
        rows,
    });
    section.figures = room_figures(&machines)?;
    section.notes.push(Finding::general(
        "Knee: the smallest stride within 10% of the fastest. Ratios: medians over trials with a conservative \
         interval; an interval that contains 1x claims no effect. Pool p99: the fixed pool at the first hit rate, over the requests it served \
         (a share dropped is named). \
         \"differs\" marks a run measured with another profile or config than the rest of the room: compare it \
         with care.",
    ));
    Ok(section)
}

/// One row per machine: label, profile, verdict level, each experiment's config text and
/// each effect's median.
fn frame(machines: &[KeyEffects]) -> PolarsResult<DataFrame> {
    let mut columns = vec![
        Column::new("machine".into(), machines.iter().map(|m| m.label.as_str()).collect::<Vec<_>>()),
        Column::new("profile".into(), machines.iter().map(|m| format!("{:?}", m.profile)).collect::<Vec<_>>()),
        Column::new("fitness".into(), machines.iter().map(|m| fitness(&m.verdict)).collect::<Vec<_>>()),
    ];
    for experiment in contention::runs::EXPERIMENTS {
        let configs: Vec<Option<&str>> = machines
            .iter()
            .map(|m| m.configs.iter().find(|(name, _)| name == experiment).map(|(_, text)| text.as_str()))
            .collect();
        columns.push(Column::new(config_column(experiment).into(), configs));
    }
    for index in 0..EFFECTS.len() {
        let medians: Vec<Option<f64>> = machines.iter().map(|m| m.effects[index].map(|e| e.value)).collect();
        columns.push(Column::new(effect_column(index).into(), medians));
    }
    DataFrame::new_infer_height(columns)
}

fn config_column(experiment: &str) -> String {
    format!("config:{experiment}")
}

fn effect_column(index: usize) -> String {
    format!("effect:{index}")
}

/// "fit", "limited" or "unfit": the verdict headline's first word.
fn fitness(verdict: &str) -> &str {
    verdict.split([' ', ';']).next().unwrap_or(verdict)
}

/// Per machine, how its run was measured differently from the room: its profile when it
/// is not the room's most common one, and each experiment whose config is not the most
/// common among the runs that measured it.
fn flags(frame: &DataFrame, machines: &[KeyEffects]) -> PolarsResult<Vec<Vec<String>>> {
    let mut flags = vec![Vec::new(); machines.len()];
    let mut columns = vec![("profile".to_string(), "profile".to_string())];
    columns.extend(contention::runs::EXPERIMENTS.iter().map(|name| (config_column(name), format!("{name} config"))));
    for (column, what) in columns {
        let values = frame.column(&column)?;
        if values.drop_nulls().n_unique()? <= 1 {
            continue;
        }
        let values: Vec<Option<&str>> = values.str()?.iter().collect();
        let count = |value: &Option<&str>| values.iter().filter(|other| *other == value).count();
        let most = values.iter().filter(|value| value.is_some()).map(count).max().unwrap_or(0);
        for (row, value) in flags.iter_mut().zip(&values) {
            if value.is_some() && count(value) < most {
                // A profile is one word; a config is long, and the notes give it in full.
                let profile = value.filter(|_| column == "profile").map(str::to_lowercase);
                row.push(profile.map_or(what.clone(), |profile| format!("{what} {profile}")));
            }
        }
    }
    Ok(flags)
}

/// "4 machines: 2 fit, 1 limited, 1 unfit."
fn verdict_counts(frame: &DataFrame) -> Result<String> {
    let levels = frame.column("fitness")?.str()?;
    let counts: Vec<String> = ["fit", "limited", "unfit"]
        .iter()
        .filter_map(|level| {
            let count = levels.iter().filter(|value| value == &Some(*level)).count();
            (count > 0).then(|| format!("{count} {level}"))
        })
        .collect();
    Ok(format!("{} machines: {}.", frame.height(), counts.join(", ")))
}

/// "from 1.02x on vm-a to 3.90x on mac-b, median 2.10x over 3 machines", when at least
/// two machines measured effect `index`.
fn effect_range(frame: &DataFrame, index: usize) -> Result<Option<String>> {
    let values = frame.column(&effect_column(index))?.f64()?;
    let machines = frame.column("machine")?.str()?;
    let measured: Vec<(f64, &str)> =
        values.iter().zip(machines.iter()).filter_map(|(value, machine)| Some((value?, machine?))).collect();
    let by_value = |a: &&(f64, &str), b: &&(f64, &str)| a.0.total_cmp(&b.0);
    let (Some(low), Some(high)) = (measured.iter().min_by(by_value), measured.iter().max_by(by_value)) else {
        return Ok(None);
    };
    if measured.len() < 2 {
        return Ok(None);
    }
    let unit = EFFECTS[index].unit;
    if low.0 == high.0 {
        return Ok(Some(format!("{} on all {} machines", value_text(low.0, unit), measured.len())));
    }
    let shown = |(value, machine): &(f64, &str)| format!("{} on {machine}", value_text(*value, unit));
    let median = values.median().map_or_else(|| contention::format::NOT_AVAILABLE.into(), |m| value_text(m, unit));
    Ok(Some(format!("from {} to {}, median {median} over {} machines", shown(low), shown(high), measured.len())))
}

/// The room's median of each effect, as the table's last row.
fn median_row(frame: &DataFrame) -> Result<Vec<Cell>> {
    let mut row = vec![Cell::from("room median"), Cell::from(""), Cell::from("")];
    for (index, effect) in EFFECTS.iter().enumerate() {
        let median = frame.column(&effect_column(index))?.f64()?.median();
        row.push(Cell::from(
            median.map_or_else(|| contention::format::NOT_AVAILABLE.into(), |m| value_text(m, effect.unit)),
        ));
    }
    row.push(Cell::from(""));
    Ok(row)
}

fn value_text(value: f64, unit: &str) -> String {
    match unit {
        "x" => contention::format::ratio(value),
        unit => format!("{} {unit}", contention::format::number(value)),
    }
}

fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |first| first.to_uppercase().chain(chars).collect())
}
