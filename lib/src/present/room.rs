//! The room: a workshop's machines side by side. Per run, one row of key effects taken from
//! the experiments' own summaries; across the room, their medians and ranges ([`summary`]);
//! for two runs, each effect's ratio between them with its interval. The cells' text is
//! written here, once.

mod summary;

use serde::Serialize;

pub use summary::{room_section, ROOM_MEDIAN};

use super::{Cell, Column, Figure, Finding, NotDrawn, Section, Table};
use crate::assess::{assess, MachineRun};
use crate::format;
use crate::pool::Variant;
use crate::runs::{Profile, Run};
use crate::stats::{Ratio, Summary};

/// One machine's key effects; `None` where the run did not measure it (or it cannot be
/// computed from what was measured).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyEffects {
    pub label: String,
    pub profile: Profile,
    /// The verdict's headline: "fit", or the level with the reasons that fired.
    pub verdict: String,
    /// "64 B" where the stride penalty ends, or "no penalty".
    pub knee: Option<String>,
    /// The GC ratio fastest at the most threads ("400", "off").
    pub gc_best_ratio: Option<String>,
    /// Every experiment's config as text, to flag runs measured differently.
    pub configs: Vec<(String, String)>,
    /// One value per [`EFFECTS`] entry, in order.
    pub effects: Vec<Option<Ratio>>,
    /// Share of requests the two pools (8 and 40 per CPU) dropped: their p99 covers only
    /// the requests served.
    pub pool_dropped: [Option<f64>; 2],
}

/// A number the room compares across machines, with how to find it in one run's effects.
#[derive(Debug, Clone, Copy)]
pub struct Effect {
    pub name: &'static str,
    /// "x" for ratios, "ms" for latencies.
    pub unit: &'static str,
}

/// The effects compared, in column order.
pub const EFFECTS: [Effect; 8] = [
    Effect { name: "stride penalty (smallest over best stride)", unit: "x" },
    Effect { name: "false sharing over no sharing", unit: "x" },
    Effect { name: "cache-padded counters over compact", unit: "x" },
    Effect { name: "GC best ratio over ratio 100", unit: "x" },
    Effect { name: "pool p99 at 8 threads per CPU", unit: "ms" },
    Effect { name: "pool p99 at 40 threads per CPU", unit: "ms" },
    Effect { name: "optimistic reads over RwLock reads", unit: "x" },
    Effect { name: "lock across a wait: work outside the lock over under it", unit: "x" },
];

/// The GC effect's index: its cell names the ratio too.
const GC_EFFECT: usize = 3;
/// The first pool effect's index (8 per CPU, then 40).
const POOL_EFFECTS: usize = 4;

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
        let p99_at = |per_cpu: u64| fixed_pool(&pool, per_cpu).map(|s| estimate(&s.p99_ms));
        let dropped_at = |per_cpu: u64| fixed_pool(&pool, per_cpu).map(|s| s.dropped_share);
        let stride_penalty = match &knee {
            Some(crate::stride::Knee::At { penalty, .. }) => Some(*penalty),
            _ => None,
        };
        let locks = run.rows::<crate::locks::Row>().map(crate::locks::summarize);
        let reference = crate::reference::locks().unwrap_or_default();
        let claims = locks.map(|cells| crate::locks::claims(&cells, &reference, None)).unwrap_or_default();
        let claimed = |wanted: crate::locks::Claim| claims.iter().find(|c| c.claim == wanted).and_then(|c| c.measured);
        let effects = vec![
            stride_penalty,
            sharing.as_deref().and_then(|s| crate::sharing::false_sharing_over(s, crate::sharing::Case::NoSharing)),
            cache_padded,
            gc_best.as_ref().and_then(|best| best.over_default),
            p99_at(8),
            p99_at(40),
            claimed(crate::locks::Claim::OptimisticReads),
            claimed(crate::locks::Claim::LockAcrossWait),
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
            gc_best_ratio: gc_best.as_ref().map(|best| best.ratio.to_string()),
            configs: run
                .manifest
                .experiments
                .iter()
                .map(|record| (record.name.clone(), format::config_text(&record.config)))
                .collect(),
            effects,
            pool_dropped: [dropped_at(8), dropped_at(40)],
        }
    }

    /// The text of the cell for effect `index`: "3.87x (3.52x–4.10x)", "12.5 ms (11.0–13.9)",
    /// the GC ratio first ("400: 1.20x (...)"), or n/a.
    pub fn effect_text(&self, index: usize) -> String {
        let Some(value) = self.effects.get(index).copied().flatten() else { return format::NOT_AVAILABLE.into() };
        let text = estimate_text(EFFECTS[index], &value);
        let dropped = index.checked_sub(POOL_EFFECTS).and_then(|pool| self.pool_dropped.get(pool).copied().flatten());
        match (&self.gc_best_ratio, index == GC_EFFECT, dropped) {
            (Some(ratio), true, _) => format!("{ratio}: {text}"),
            (_, _, Some(share)) if share > 0.0 => format!("{text}, {} dropped", format::percent(share)),
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
    columns.extend(EFFECTS.iter().map(|effect| Column::number(effect.name)));
    columns.push(Column::text("measured as"));
    columns
}

/// One machine's row; `flags` says how its run was measured differently from the room's
/// (empty when it was not), and marks the row's last cell.
pub fn room_row(machine: &KeyEffects, flags: &[String]) -> Vec<Cell> {
    let mut row =
        vec![Cell::from(machine.label.clone()), Cell::from(machine.verdict.clone()), Cell::from(text(&machine.knee))];
    row.extend((0..EFFECTS.len()).map(|index| Cell::from(machine.effect_text(index))));
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
    for (index, effect) in EFFECTS.iter().enumerate() {
        let (ratio, verdict) = match (a.effects[index], b.effects[index]) {
            (Some(x), Some(y)) => {
                let (ratio, overlap) = between(&x, &y);
                let larger = if ratio.value > 1.0 { &a.label } else { &b.label };
                let verdict = if overlap { "not distinguishable".to_string() } else { format!("larger on {larger}") };
                (format::ratio_with_interval(&ratio), verdict)
            }
            _ => (format::NOT_AVAILABLE.into(), "n/a on one or both".into()),
        };
        let cells = [effect.name.to_string(), a.effect_text(index), b.effect_text(index), ratio, verdict];
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
    for (index, effect) in EFFECTS.iter().enumerate() {
        let values: Vec<(&str, Option<Ratio>)> =
            machines.iter().map(|m| (m.label.as_str(), m.effects[index])).collect();
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
    let differing: Vec<String> = EFFECTS
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
            EFFECTS.len(),
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
