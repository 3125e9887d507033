//! The room: a workshop's machines side by side. Per run, one row of key effects taken from
//! the experiments' own summaries; across the room, their medians and ranges ([`summary`]);
//! for two runs, each effect's ratio between them with its interval. The cells' text is
//! written here, once.

pub mod class;
pub mod hardware;
pub mod projector;
mod summary;

use serde::Serialize;

pub use summary::{room_section, ROOM_MEDIAN};

use super::{Cell, Column, Figure, Finding, NotDrawn, Section, Table};
use crate::assess::{assess, MachineRun};
use crate::format;
use crate::pool::Variant;
use crate::runs::{Profile, Run};
use crate::stats::{Ratio, Summary};

/// One machine's key effects; a value is `None` where the run did not measure it (or it
/// cannot be computed from what was measured).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyEffects {
    pub label: String,
    pub profile: Profile,
    /// The verdict's headline: "fit", or the level with the reasons that fired.
    pub verdict: String,
    /// "64 B" where the stride penalty ends, or "no penalty".
    pub knee: Option<String>,
    /// Every experiment's config as text, to flag runs measured differently.
    pub configs: Vec<(String, String)>,
    /// One value per [`effects`] entry, in the same order.
    pub effects: Vec<EffectValue>,
}

/// A number the room compares across machines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Effect {
    /// Its key in URLs, predictions and exports ("false-sharing"): stable, lowercase.
    pub id: &'static str,
    pub name: &'static str,
    /// "x" for ratios, "ms" for latencies.
    pub unit: &'static str,
    /// The claim of `claims.csv` whose figure is the article's for this effect, if any.
    pub claim: Option<&'static str>,
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
}

impl EffectValue {
    fn of(effect: Effect, value: Option<Ratio>) -> Self {
        Self { effect, value, lead: None, dropped: None }
    }

    /// "3.87x (3.52x–4.10x)", "12.5 ms (11.0–13.9)", the GC ratio first ("400: 1.20x
    /// (...)"), a dropped share after, or n/a.
    pub fn text(&self) -> String {
        let Some(value) = self.value else { return format::NOT_AVAILABLE.into() };
        let text = estimate_text(self.effect, &value);
        match (&self.lead, self.dropped) {
            (Some(lead), _) => format!("{lead}: {text}"),
            (_, Some(share)) if share > 0.0 => format!("{text}, {} dropped", format::percent(share)),
            _ => text,
        }
    }
}

const STRIDE_PENALTY: Effect =
    Effect { id: "stride", name: "stride penalty (smallest over best stride)", unit: "x", claim: Some("A4") };
const FALSE_SHARING: Effect =
    Effect { id: "false-sharing", name: "false sharing over no sharing", unit: "x", claim: Some("A7") };
const PADDED: Effect =
    Effect { id: "padded", name: "cache-padded counters over compact", unit: "x", claim: Some("A8") };
const GC_RATIO: Effect = Effect { id: "gc-ratio", name: "GC best ratio over ratio 100", unit: "x", claim: Some("B5") };
const POOL_8: Effect = Effect { id: "pool-p99-8", name: "pool p99 at 8 threads per CPU", unit: "ms", claim: None };
const POOL_40: Effect = Effect { id: "pool-p99-40", name: "pool p99 at 40 threads per CPU", unit: "ms", claim: None };
const OPTIMISTIC: Effect =
    Effect { id: "optimistic-reads", name: "optimistic reads over RwLock reads", unit: "x", claim: Some("C14") };
const LOCK_ACROSS_WAIT: Effect = Effect {
    id: "lock-across-wait",
    name: "lock across a wait: work outside the lock over under it",
    unit: "x",
    claim: Some("C16"),
};

/// The effects compared, in column order.
pub fn effects() -> Vec<Effect> {
    vec![STRIDE_PENALTY, FALSE_SHARING, PADDED, GC_RATIO, POOL_8, POOL_40, OPTIMISTIC, LOCK_ACROSS_WAIT]
}

impl KeyEffects {
    pub fn of(run: &Run) -> Self {
        let stride = run.rows::<crate::stride::Row>().map(crate::stride::summarize);
        let knee = stride.as_deref().and_then(crate::stride::knee);
        let sharing = run.rows::<crate::sharing::Row>().map(crate::sharing::summarize);
        let counters = run.rows::<crate::counters::Row>().map(crate::counters::summarize);
        let cache_padded = counters
            .iter()
            .flatten()
            .find(|s| s.layout == crate::counters::Layout::CachePadded)
            .and_then(|s| s.faster_than_compact);
        let gc = run
            .rows::<crate::gc::Row>()
            .map(crate::gc::summarize)
            .map(|cells| crate::gc::summary::best_ratio_per_threads(&cells));
        let gc_best = gc.and_then(|best| best.into_iter().max_by_key(|b| b.threads));
        let pool = run.rows::<crate::pool::Row>().map(crate::pool::summarize).unwrap_or_default();
        let pool_at = |effect: Effect, per_cpu: u64| {
            let fixed = fixed_pool(&pool, per_cpu);
            EffectValue {
                dropped: fixed.map(|s| s.dropped_share),
                ..EffectValue::of(effect, fixed.map(|s| estimate(&s.p99_ms)))
            }
        };
        let stride_penalty = match &knee {
            Some(crate::stride::Knee::At { penalty, .. }) => Some(*penalty),
            _ => None,
        };
        let locks = run.rows::<crate::locks::Row>().map(crate::locks::summarize);
        let reference = crate::reference::locks().unwrap_or_default();
        let claims = locks.map(|cells| crate::locks::claims(&cells, &reference, None)).unwrap_or_default();
        let claimed = |wanted: crate::locks::Claim| claims.iter().find(|c| c.claim == wanted).and_then(|c| c.measured);
        let effects = vec![
            EffectValue::of(STRIDE_PENALTY, stride_penalty),
            EffectValue::of(
                FALSE_SHARING,
                sharing.as_deref().and_then(|s| crate::sharing::false_sharing_over(s, crate::sharing::Case::NoSharing)),
            ),
            EffectValue::of(PADDED, cache_padded),
            EffectValue {
                lead: gc_best.as_ref().map(|best| best.ratio.to_string()),
                ..EffectValue::of(GC_RATIO, gc_best.as_ref().and_then(|best| best.over_default))
            },
            pool_at(POOL_8, 8),
            pool_at(POOL_40, 40),
            EffectValue::of(OPTIMISTIC, claimed(crate::locks::Claim::OptimisticReads)),
            EffectValue::of(LOCK_ACROSS_WAIT, claimed(crate::locks::Claim::LockAcrossWait)),
        ];
        Self {
            label: run.label(),
            profile: run.manifest.profile,
            verdict: assess(&MachineRun::from_run(run)).verdict.headline(),
            knee: knee.map(|knee| match knee {
                crate::stride::Knee::At { stride_bytes, .. } => format::bytes(stride_bytes),
                crate::stride::Knee::NoPenalty { .. } => "no penalty".into(),
                crate::stride::Knee::TooFewTrials { .. } => "too few trials".into(),
            }),
            configs: run
                .manifest
                .experiments
                .iter()
                .map(|record| (record.name.clone(), format::config_text(&record.config)))
                .collect(),
            effects,
        }
    }

    /// The value of the effect with key `id`, if the room compares it.
    pub fn effect(&self, id: &str) -> Option<&EffectValue> {
        self.effects.iter().find(|value| value.effect.id == id)
    }
}

/// A value of `effect` with its interval, in the effect's unit.
pub fn estimate_text(effect: Effect, value: &Ratio) -> String {
    match effect.unit {
        "x" => format::ratio_with_interval(value),
        unit => format!("{} {unit} ({})", format::number(value.value), format::interval(value.low, value.high)),
    }
}

/// The fixed pool with `per_cpu` threads per CPU, at the first hit rate.
fn fixed_pool(pool: &[crate::pool::PoolSummary], per_cpu: u64) -> Option<&crate::pool::PoolSummary> {
    let first_hit_rate = pool.iter().find(|s| s.key.variant == Variant::Fixed)?.key.hit_rate;
    pool.iter().find(|s| {
        s.key.variant == Variant::Fixed && s.key.hit_rate == first_hit_rate && s.key.pool_threads == per_cpu * s.cpus
    })
}

/// A summary's median and its interval, in the shape of a ratio.
fn estimate(summary: &Summary) -> Ratio {
    Ratio { value: summary.median, low: summary.median_low, high: summary.median_high }
}

/// The room table's columns: machine, verdict, knee, one per effect, how it was measured.
pub fn room_columns() -> Vec<Column> {
    let mut columns = vec![Column::text("machine"), Column::text("verdict"), Column::text("knee")];
    columns.extend(effects().iter().map(|effect| Column::number(effect.name)));
    columns.push(Column::text("measured as"));
    columns
}

/// One machine's row; `flags` says how its run was measured differently from the room's
/// (empty when it was not), and marks the row's last cell.
pub fn room_row(machine: &KeyEffects, flags: &[String]) -> Vec<Cell> {
    let mut row =
        vec![Cell::from(machine.label.clone()), Cell::from(machine.verdict.clone()), Cell::from(text(&machine.knee))];
    row.extend(machine.effects.iter().map(|value| Cell::from(value.text())));
    let profile = format!("{:?}", machine.profile).to_lowercase();
    row.push(match flags {
        [] => Cell::from(profile),
        flags => Cell::noisy(format!("{profile}; differs: {}", flags.join("; ")), true),
    });
    row
}

fn text(value: &Option<String>) -> String {
    value.clone().unwrap_or_else(|| format::NOT_AVAILABLE.into())
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
    let mut rows = vec![
        vec![
            Cell::from("verdict"),
            Cell::from(a.verdict.clone()),
            Cell::from(b.verdict.clone()),
            Cell::missing(),
            same(&a.verdict, &b.verdict),
        ],
        vec![
            Cell::from("knee"),
            Cell::from(text(&a.knee)),
            Cell::from(text(&b.knee)),
            Cell::missing(),
            same(&a.knee, &b.knee),
        ],
    ];
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
        let chart = crate::chart::room::room_chart(effect.name, y_desc, &values)
            .map_err(|error| NotDrawn::new(effect.name, error));
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

fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |first| first.to_uppercase().chain(chars).collect())
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
        .zip(&table.rows[2..])
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
