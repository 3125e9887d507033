//! The class across its seats: per effect, one sentence (median, range, the outlying seats,
//! and the medians of each hardware group where the class has more than one), and one
//! short row per seat. The room page shows these instead of every seat's sections, so its
//! size grows with the seats, not with seats times experiments.

use serde::Serialize;

use super::hardware::SeatHardware;
pub use super::summary::value_text;
use super::{effects, upper_first, Effect, KeyEffects};
use crate::format;
use crate::runs::Run;
use crate::stats::{Outlier, Ratio, Summary};
use crate::view::Strip;

/// One seat of the class: its key effects, its hardware, and the strip of its claims.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Seat {
    pub effects: KeyEffects,
    pub hardware: SeatHardware,
    /// Its claims at a glance, as its own report's headline shows them.
    pub strip: Option<Strip>,
}

impl Seat {
    pub fn of(run: &Run) -> Self {
        let strip = crate::present::headline::claims_strip(run).ok();
        Self { effects: KeyEffects::of(run), hardware: SeatHardware::of(run), strip }
    }

    pub fn label(&self) -> &str {
        &self.effects.label
    }

    /// "fit", "limited" or "unfit": the verdict's first word.
    pub fn verdict_word(&self) -> &str {
        let verdict = &self.effects.verdict;
        verdict.split([' ', ';', ':']).next().unwrap_or(verdict)
    }
}

/// Groups with more distinct values than this are not summarised (25 CPU models make a
/// list, not a grouping).
pub const MAX_GROUPS: usize = 6;

/// One effect across the class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassEffect {
    pub effect: Effect,
    /// The seats that measured it, in the class's order, with their figure.
    pub measured: Vec<(String, Ratio)>,
    /// The median over the seats' figures.
    pub median: Option<f64>,
    /// Seats whose figure lies past Tukey's fences (1.5 interquartile ranges) of the class.
    pub outlying: Vec<String>,
    /// Per hardware grouping with 2 to [`MAX_GROUPS`] groups: its name and each group's
    /// name, median and seat count.
    pub groups: Vec<Grouping>,
}

/// The seats grouped by one hardware fact ("architecture"), each group's median.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Grouping {
    pub by: &'static str,
    /// (group, its median, its seat count), groups by name.
    pub groups: Vec<(String, f64, usize)>,
}

/// A figure with its seat.
pub type SeatFigure<'a> = (f64, &'a str);

/// How a grouping names a seat's group.
type GroupOf = fn(&Seat) -> String;

impl ClassEffect {
    /// The lowest and highest figure, with their seats.
    pub fn range(&self) -> Option<(SeatFigure<'_>, SeatFigure<'_>)> {
        let by_value = |a: &&(String, Ratio), b: &&(String, Ratio)| a.1.value.total_cmp(&b.1.value);
        let low = self.measured.iter().min_by(by_value)?;
        let high = self.measured.iter().max_by(by_value)?;
        Some(((low.1.value, low.0.as_str()), (high.1.value, high.0.as_str())))
    }

    /// "False sharing over no sharing: median 3.10x over 25 seats, from 1.02x (seat-03) to
    /// 12.4x (seat-17); outlying: seat-17; by architecture: aarch64 8.10x (5), x86_64 3.20x
    /// (20)."
    pub fn sentence(&self) -> String {
        let name = upper_first(self.effect.name);
        let unit = self.effect.unit;
        let (Some(median), Some(((low, low_seat), (high, high_seat)))) = (self.median, self.range()) else {
            return format!("{name}: no seat has measured it yet.");
        };
        if let [(seat, _)] = self.measured.as_slice() {
            return format!("{name}: {} on {seat}, the only seat that measured it.", value_text(median, unit));
        }
        let mut sentence = format!(
            "{name}: median {} over {} seats, from {} ({low_seat}) to {} ({high_seat})",
            value_text(median, unit),
            self.measured.len(),
            value_text(low, unit),
            value_text(high, unit)
        );
        if !self.outlying.is_empty() {
            sentence.push_str(&format!("; outlying: {}", self.outlying.join(", ")));
        }
        for Grouping { by, groups } in &self.groups {
            let listed: Vec<String> = groups
                .iter()
                .map(|(group, median, count)| format!("{group} {} ({count})", value_text(*median, unit)))
                .collect();
            sentence.push_str(&format!("; by {by}: {}", listed.join(", ")));
        }
        sentence.push('.');
        sentence
    }
}

/// Every effect across `seats`, in [`effects`]' order.
pub fn class_effects(seats: &[Seat]) -> Vec<ClassEffect> {
    effects().into_iter().map(|effect| class_effect(effect, seats)).collect()
}

fn class_effect(effect: Effect, seats: &[Seat]) -> ClassEffect {
    let measuring: Vec<(&Seat, Ratio)> =
        seats.iter().filter_map(|seat| Some((seat, seat.effects.effect(effect.id)?.value?))).collect();
    let values: Vec<f64> = measuring.iter().map(|(_, value)| value.value).collect();
    let summary = Summary::of(&values);
    let outlying = match &summary {
        Some(summary) if measuring.len() >= 4 => measuring
            .iter()
            .filter(|(_, value)| Outlier::classify(value.value, summary).is_outlier())
            .map(|(seat, _)| seat.label().to_string())
            .collect(),
        _ => Vec::new(),
    };
    let groupings: [(&'static str, GroupOf); 3] = [
        ("CPU family", |seat| seat.hardware.cpu_family()),
        ("architecture", |seat| seat.hardware.arch.clone()),
        ("logical CPUs", |seat| format!("{} CPUs", seat.hardware.logical_cpus)),
    ];
    let groups = groupings
        .into_iter()
        .filter_map(|(by, key)| {
            let groups = group_medians(&measuring, key);
            (2..=MAX_GROUPS).contains(&groups.len()).then_some(Grouping { by, groups })
        })
        .collect();
    ClassEffect {
        effect,
        measured: measuring.iter().map(|(seat, value)| (seat.label().to_string(), *value)).collect(),
        median: summary.map(|summary| summary.median),
        outlying,
        groups,
    }
}

/// Each group's median and seat count, groups by name.
fn group_medians(measuring: &[(&Seat, Ratio)], key: GroupOf) -> Vec<(String, f64, usize)> {
    let mut names: Vec<String> = measuring.iter().map(|(seat, _)| key(seat)).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter_map(|name| {
            let values: Vec<f64> =
                measuring.iter().filter(|(seat, _)| key(seat) == name).map(|(_, value)| value.value).collect();
            Some((name, Summary::of(&values)?.median, values.len()))
        })
        .collect()
}

/// The class table's columns: the seat, its hardware, its verdict, one per effect.
pub fn class_columns() -> Vec<String> {
    let mut columns: Vec<String> =
        ["seat", "CPU", "OS", "arch", "CPUs", "line", "verdict"].iter().map(|name| name.to_string()).collect();
    columns.extend(effects().iter().map(|effect| effect.name.to_string()));
    columns
}

/// One cell of the class table: the short text shown, and the full one (a figure's interval).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClassCell {
    pub text: String,
    pub detail: String,
}

/// A seat's row, aligned with [`class_columns`]: a figure shows its median, its interval in
/// the detail.
pub fn class_row(seat: &Seat) -> Vec<ClassCell> {
    let plain = |text: String| ClassCell { detail: text.clone(), text };
    let hardware = &seat.hardware;
    let mut row = vec![
        plain(seat.label().to_string()),
        plain(hardware.cpu_model.clone()),
        plain(hardware.os.clone()),
        plain(hardware.arch.clone()),
        plain(hardware.logical_cpus.to_string()),
        plain(hardware.line_text()),
        ClassCell { text: seat.verdict_word().to_string(), detail: seat.effects.verdict.clone() },
    ];
    row.extend(seat.effects.effects.iter().map(|value| ClassCell {
        text: value.value.map_or_else(|| format::NOT_AVAILABLE.into(), |v| value_text(v.value, value.effect.unit)),
        detail: value.text(),
    }));
    row
}

/// "25 seats: 20 fit, 4 limited, 1 unfit."
pub fn verdict_counts(seats: &[Seat]) -> String {
    let counts: Vec<String> = ["fit", "limited", "unfit"]
        .iter()
        .filter_map(|level| {
            let count = seats.iter().filter(|seat| seat.verdict_word() == *level).count();
            (count > 0).then(|| format!("{count} {level}"))
        })
        .collect();
    match seats.len() {
        0 => "No seat has sent a run yet.".into(),
        1 => format!("1 seat: {}.", counts.join(", ")),
        many => format!("{many} seats: {}.", counts.join(", ")),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::kit::EffectValue;
    use crate::runs::Profile;

    /// A seat that measured only false sharing, at `figure` (interval ±10%), on `arch`.
    pub fn seat(label: &str, arch: &str, figure: Option<f64>) -> Seat {
        let value = figure.map(|value| Ratio { value, low: value * 0.9, high: value * 1.1 });
        let effects = effects()
            .into_iter()
            .map(|effect| EffectValue {
                effect,
                value: if effect.id == "false-sharing" { value } else { None },
                lead: None,
                dropped: None,
                word: None,
            })
            .collect();
        Seat {
            effects: KeyEffects {
                label: label.into(),
                profile: Profile::Quick,
                verdict: "limited: 2 CPUs".into(),
                words: Vec::new(),
                configs: Vec::new(),
                effects,
            },
            hardware: SeatHardware {
                cpu_model: "AMD EPYC 7763".into(),
                os: "linux".into(),
                arch: arch.into(),
                logical_cpus: 8,
                line_bytes: Some(64),
            },
            strip: None,
        }
    }

    fn false_sharing(seats: &[Seat]) -> ClassEffect {
        class_effects(seats).into_iter().find(|effect| effect.effect.id == "false-sharing").unwrap()
    }

    #[test]
    fn the_class_sentence_gives_median_range_outliers_and_groups() {
        let mut seats: Vec<Seat> = [2.0, 2.2, 2.4, 2.6, 2.8]
            .iter()
            .enumerate()
            .map(|(i, v)| seat(&format!("s{i}"), "x86_64", Some(*v)))
            .collect();
        seats.push(seat("big", "aarch64", Some(12.0)));
        seats.push(seat("none", "x86_64", None));
        let class = false_sharing(&seats);
        assert_eq!(class.measured.len(), 6, "the seat without the figure is left out");
        assert_eq!(class.outlying, ["big"]);
        assert_eq!(
            class.sentence(),
            "False sharing over no sharing: median 2.50x over 6 seats, from 2.00x (s0) to 12.00x (big); \
             outlying: big; by architecture: aarch64 12.00x (1), x86_64 2.40x (5)."
        );
    }

    #[test]
    fn few_or_no_seats_are_said_so() {
        assert_eq!(false_sharing(&[]).sentence(), "False sharing over no sharing: no seat has measured it yet.");
        let one = false_sharing(&[seat("solo", "x86_64", Some(3.0))]);
        assert_eq!(one.sentence(), "False sharing over no sharing: 3.00x on solo, the only seat that measured it.");
        let three: Vec<Seat> = [1.0, 1.1, 30.0].iter().map(|v| seat(&format!("{v}"), "x86_64", Some(*v))).collect();
        assert!(false_sharing(&three).outlying.is_empty(), "fewer than four seats name no outlier");
    }

    #[test]
    fn a_row_holds_one_cell_per_column_with_the_interval_in_its_detail() {
        let row = class_row(&seat("s", "x86_64", Some(3.0)));
        assert_eq!(row.len(), class_columns().len());
        assert_eq!(row[6].text, "limited");
        let figure = &row[7 + effects().iter().position(|e| e.id == "false-sharing").unwrap()];
        assert_eq!((figure.text.as_str(), figure.detail.as_str()), ("3.00x", "3.00x (2.70x–3.30x)"));
    }
}
