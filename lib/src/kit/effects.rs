//! The effects an experiment's presentation hands the report beside its section: a
//! number the room compares across machines ([`Effect`]), the values it could take
//! ([`Plausible`]) and one machine's value of it ([`EffectValue`], from
//! its `effect_values`).

use serde::Serialize;

use crate::format;
use crate::stats::Ratio;

/// A number the room compares across machines, or a word it shows beside them
/// ([`Effect::word`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Effect {
    /// Its key in URLs, predictions and exports ("false-sharing"): stable, lowercase.
    pub id: &'static str,
    pub name: &'static str,
    /// "x" for ratios, "ms" for latencies; none for a word.
    pub unit: &'static str,
    /// The claim of `claims.csv` whose figure is the article's for this effect, if any.
    pub claim: Option<&'static str>,
    /// The values a machine could show: a guess outside them is refused, naming them.
    pub plausible: Plausible,
}

impl Effect {
    /// An effect told in a word, not a number (stride's knee: "64 B", "no penalty"): the room
    /// shows it before the numbers and tells two machines' apart as same or differ; no chart,
    /// median or guess takes it.
    pub const fn word(id: &'static str, name: &'static str) -> Self {
        Self { id, name, unit: "", claim: None, plausible: Plausible::NO_NUMBER }
    }

    /// Whether it is told in a word ([`Effect::word`]).
    pub fn is_word(&self) -> bool {
        self.unit.is_empty()
    }
}

/// A stretch of plausible values, from `10^low_power` to `10^high_power` in the effect's
/// unit (powers of ten: wide on purpose, to refuse only what no machine could show).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Plausible {
    pub low_power: i32,
    pub high_power: i32,
}

impl Plausible {
    /// A ratio of two timings of one machine: a thousandth to a thousand.
    pub const RATIO: Self = Self { low_power: -3, high_power: 3 };
    /// A latency in ms: a microsecond to a thousand seconds.
    pub const MILLISECONDS: Self = Self { low_power: -3, high_power: 6 };
    /// A time per value in ns: a picosecond to a millisecond.
    pub const NANOSECONDS: Self = Self { low_power: -3, high_power: 6 };
    /// A word's: no number lies within.
    pub const NO_NUMBER: Self = Self { low_power: 0, high_power: -1 };

    pub fn low(&self) -> f64 {
        crate::scale::decade(self.low_power)
    }

    pub fn high(&self) -> f64 {
        crate::scale::decade(self.high_power)
    }

    /// Whether `value` lies within (NaN does not).
    pub fn holds(&self, value: f64) -> bool {
        (self.low()..=self.high()).contains(&value)
    }
}

/// One machine's value of one effect, with what its cell says beside the number.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EffectValue {
    pub effect: Effect,
    pub value: Option<Ratio>,
    /// Said before the value: the GC ratio that was fastest ("400").
    pub lead: Option<String>,
    /// The share of requests dropped (a pool's p99 covers only those served).
    pub dropped: Option<f64>,
    /// A word effect's value ([`Effect::word`]), in place of a number.
    pub word: Option<String>,
}

impl EffectValue {
    /// `effect`'s value, or `None` where the run did not measure it.
    pub fn of(effect: Effect, value: Option<Ratio>) -> Self {
        Self { effect, value, lead: None, dropped: None, word: None }
    }

    /// The word effect `effect`'s value, or `None` where the run did not measure it.
    pub fn word(effect: Effect, word: Option<String>) -> Self {
        Self { word, ..Self::of(effect, None) }
    }

    /// "3.87x (3.52x–4.10x)", "12.5 ms (11.0–13.9)", the GC ratio first ("400: 1.20x
    /// (...)"), a dropped share after, or n/a.
    pub fn text(&self) -> String {
        if let Some(word) = &self.word {
            return word.clone();
        }
        let Some(value) = self.value else { return format::NOT_AVAILABLE.into() };
        let text = estimate_text(self.effect, &value);
        match (&self.lead, self.dropped) {
            (Some(lead), _) => format!("{lead}: {text}"),
            (_, Some(share)) if share > 0.0 => format!("{text}, {} dropped", format::percent(share)),
            _ => text,
        }
    }
}

/// A value of `effect` with its interval, in the effect's unit.
pub fn estimate_text(effect: Effect, value: &Ratio) -> String {
    match effect.unit {
        "x" => format::ratio_with_interval(value),
        unit => format!("{} {unit} ({})", format::number(value.value), format::interval(value.low, value.high)),
    }
}
