//! Thread-pool sizing as a [`Section`]: the article's incident and fix beside each machine's
//! runs at the same pool sizes per CPU ([`article`]), the two charts, a table of every case,
//! and the sentences the data supports.

mod article;
mod cases;

use serde::Deserialize;

use crate::kit::reference::ReferenceFile;
use crate::kit::{Answer, Context, Effect, EffectValue, HeadlineRow, Plausible, Present, PresentError, ReferenceText};
use crate::measured::Measured;
use crate::reference_file;
use crate::run_format::RunsError;
use crate::view::{Figure, Finding, NotDrawn, Section};

use super::chart::latency::{fixed_series, pool_latency_chart, LatencyLines, Marker};
use super::chart::switches::{pool_switches_chart, SwitchLines};
use super::format_ms;
use super::{findings, summarize, switch_cost, virtual_threads, why_big_pools, PoolSummary, Row, Variant, EXPERIMENT};
use crate::chart::Series;
use crate::format;
use crate::run_format::Run;

pub const TITLE: &str = "Thread-pool sizing";
/// The figures' titles (also their notes', when one cannot be drawn).
const LATENCY_FIGURE: &str = "pool latency";
const SWITCHES_FIGURE: &str = "pool switches";

/// One machine's runs, summarised, with what the comparison needs from its config.
struct Summarised<'a> {
    label: &'a str,
    summaries: Vec<PoolSummary>,
    /// Every probe's cost of one context switch, one before each run.
    switch_cost: Option<crate::stats::Summary>,
    /// The config's `target_utilization` (Goetz's U), as saved.
    target_utilization: Option<String>,
}

impl Summarised<'_> {
    fn first_hit(&self) -> f64 {
        self.summaries.first().map_or(0.0, |s| s.key.hit_rate)
    }
}

/// Its section over saved runs, with the article's reference numbers.
impl Present for super::PoolSizing {
    const TITLE: &'static str = TITLE;
    const PROSE: &'static str = include_str!("../prose.md");
    const REFERENCES: &'static [ReferenceText] = &[REFERENCE.file];

    const CLAIMS: &'static [&'static str] =
        &["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C9", "C10", "C17", "C18", "C19", "C20", "C21"];

    fn answer(claim: &str, context: &Context) -> Answer {
        super::answers::answer(claim, context)
    }

    fn section(runs: &[Run]) -> Result<Option<Section>, PresentError> {
        Ok(Some(section(&Measured::from_runs(runs), &reference()?)?))
    }

    /// C's incident p99 over the fix's (claim C1), from the reference data.
    fn headline() -> Result<Option<HeadlineRow>, PresentError> {
        let pool = reference()?;
        let value = |key: &str| pool.iter().find(|r| r.key == key).map_or(f64::NAN, |r| r.value);
        let (incident_s, fix_ms) = (value("incident_p99"), value("fix_p99"));
        Ok(Some(HeadlineRow {
            name: "C. Thread-pool sizing",
            figure: format!(
                "p99 at the incident's 320 threads {incident_s} s vs {fix_ms} ms at the fix's 64 ({:.1}x)",
                incident_s * 1e3 / fix_ms
            ),
            setting: "p99, 320 vs 64 threads".into(),
            claim: "C1",
        }))
    }

    const EFFECTS: &'static [Effect] = &[P99_AT_8, P99_AT_40];

    fn effect_values(run: &Run) -> Vec<EffectValue> {
        let pool = run.rows::<Row>().map(summarize).unwrap_or_default();
        let p99_at = |effect: Effect, per_cpu: u64| {
            let fixed = fixed_pool(&pool, per_cpu);
            EffectValue {
                dropped: fixed.map(|s| s.dropped_share),
                ..EffectValue::of(effect, fixed.map(|s| estimate(&s.p99_ms)))
            }
        };
        vec![p99_at(P99_AT_8, 8), p99_at(P99_AT_40, 40)]
    }
}

const P99_AT_8: Effect = Effect {
    id: "pool-p99-8",
    name: "pool p99 at 8 threads per CPU",
    unit: "ms",
    claim: None,
    plausible: Plausible::MILLISECONDS,
};
const P99_AT_40: Effect = Effect {
    id: "pool-p99-40",
    name: "pool p99 at 40 threads per CPU",
    unit: "ms",
    claim: None,
    plausible: Plausible::MILLISECONDS,
};

/// The fixed pool with `per_cpu` threads per CPU, at the first hit rate (the room's p99
/// effects, and notebook 05's comparison with a student's prediction).
pub fn fixed_pool(pool: &[PoolSummary], per_cpu: u64) -> Option<&PoolSummary> {
    let first_hit_rate = pool.iter().find(|s| s.key.variant == Variant::Fixed)?.key.hit_rate;
    pool.iter().find(|s| {
        s.key.variant == Variant::Fixed && s.key.hit_rate == first_hit_rate && s.key.pool_threads == per_cpu * s.cpus
    })
}

/// A summary's median and its interval, in the shape of a ratio (the room's p99 effects,
/// and notebook 05's comparison of `fixed_pool(..).p99_ms` with a student's prediction).
pub fn estimate(summary: &crate::stats::Summary) -> crate::stats::Ratio {
    crate::stats::Ratio { value: summary.median, low: summary.median_low, high: summary.median_high }
}

pub fn section(machines: &[Measured<'_, Row>], article: &[PoolReference]) -> Result<Section, PresentError> {
    let mut section = Section::new(EXPERIMENT, TITLE);
    section.article_tables.push(article::numbers_table(article));
    if machines.is_empty() {
        return Ok(section);
    }
    let measured: Vec<Summarised> = machines
        .iter()
        .map(|m| Summarised {
            label: &m.label,
            summaries: summarize(m.rows),
            switch_cost: switch_cost(m.rows),
            target_utilization: m.config.as_ref().and_then(|c| c.get("target_utilization")).map(ToString::to_string),
        })
        .collect();
    section.machines = machines.iter().map(|m| m.label.clone()).collect();
    for m in &measured {
        section.findings.extend(findings(&m.summaries).into_iter().map(|text| Finding::about(m.label, text)));
        section.findings.extend(why_big_pools(&m.summaries).into_iter().map(|text| Finding::about(m.label, text)));
        let pitfalls = [virtual_threads::memory_finding(&m.summaries), virtual_threads::blocking_finding(&m.summaries)];
        section.findings.extend(pitfalls.into_iter().flatten().map(|text| Finding::about(m.label, text)));
    }
    for figure in figures(&measured) {
        section.add_figure(figure);
    }
    section.tables.push(article::comparison(article, &measured));
    section.tables.extend(measured.iter().map(cases::table));
    section.notes.extend(measured.iter().filter_map(setup));
    section.notes.push(Finding::general(
        "Medians over trials. Percentiles cover every arrival: a request dropped after waiting past the timeout \
         (for a thread or a database connection) counts at the timeout, censored, and a percentile that reached \
         it is marked >= as a lower bound. p99 interval: a distribution-free interval for the median p99 (with 3 \
         trials, the lowest to the highest trial). Run-queue delay: the serving threads' wait for a CPU \
         (schedstat) per completed request. Lock and db: mean waits for the shared lock per request and for a \
         connection per miss. Capacity: completions per second of a closed loop of callers after each run. CPU \
         used: process CPU time over CPUs x wall time. CPUs switching: switches per second x the probe's cost of \
         one switch. Peak RSS is sampled every 10 ms. Noisy p99 values varied by more than 10% between trials.",
    ));
    section.notes.extend(crate::measured::config_notes(machines));
    Ok(section)
}

fn setup(m: &Summarised) -> Option<Finding> {
    let (s, switch_cost) = (m.summaries.first()?, m.switch_cost.as_ref()?);
    Some(Finding::about(
        m.label,
        format!(
            "{} CPUs; {:.0} requests/s offered open-loop ({:.1} per CPU, the article's 1 180 on 8 cores), whatever \
             the pool size; {} of hashing per request (calibrated: {} of the CPUs at that rate), then {} of work \
             under one shared lock (a shared cache's bookkeeping), then the IO wait: hits 1-2 ms, misses 40-80 ms \
             holding one of {} database connections (HikariCP's default 10 on 8 cores, per CPU), handed over \
             first-come as a JDBC pool does. One context switch cost {:.1} us in the probe.",
            s.cpus,
            s.offered_rate_per_s,
            s.offered_rate_per_s / s.cpus as f64,
            format_ms(s.cpu_work_ms),
            format::percent(s.cpu_work_ms / 1e3 * s.offered_rate_per_s / s.cpus as f64),
            format_ms(s.lock_hold_ms),
            s.key.db_connections,
            switch_cost.median / 1e3
        ),
    ))
}

/// How the charts name one machine's lines, and its fixed pools at the first hit rate.
struct Charting<'a> {
    measured: &'a [Summarised<'a>],
}

impl Charting<'_> {
    fn suffix(&self, m: &Summarised) -> String {
        if self.measured.len() > 1 {
            format!(", {}", m.label)
        } else {
            String::new()
        }
    }

    fn fixed(&self, m: &Summarised, name: &str, pick: fn(&PoolSummary) -> &crate::stats::Summary) -> Series {
        fixed_series(format!("{name}{}", self.suffix(m)), &m.summaries, m.first_hit(), pick)
    }

    fn formula(&self) -> Vec<Marker> {
        self.measured
            .iter()
            .filter_map(|m| m.summaries.first())
            .map(|s| Marker { label: format!("formula: {}", s.formula_threads), value: s.formula_threads as f64 })
            .collect()
    }

    fn hit_note(&self) -> String {
        self.measured.first().map_or(String::new(), |m| format!(" at {:.0}% hits", m.first_hit() * 100.0))
    }

    /// Each machine's fixed pools, one value each, for the text stand-in.
    fn points(&self, pick: fn(&PoolSummary) -> String) -> String {
        let lines: Vec<String> = self
            .measured
            .iter()
            .map(|m| {
                let fixed =
                    m.summaries.iter().filter(|s| s.key.variant == Variant::Fixed && s.key.hit_rate == m.first_hit());
                format!("{}: {}", m.label, fixed.map(pick).collect::<Vec<_>>().join(", "))
            })
            .collect();
        lines.join("; ")
    }
}

fn figures(measured: &[Summarised]) -> [Result<Figure, NotDrawn>; 2] {
    let charting = Charting { measured };
    [latency_figure(&charting), switches_figure(&charting)]
}

fn latency_figure(charting: &Charting) -> Result<Figure, NotDrawn> {
    let latency: Vec<LatencyLines> = charting
        .measured
        .iter()
        .map(|m| LatencyLines {
            p99: charting.fixed(m, "p99", |s| &s.p99_ms),
            p50: charting.fixed(m, "p50", |s| &s.p50_ms),
        })
        .collect();
    let levels: Vec<Marker> = charting
        .measured
        .iter()
        .flat_map(|m| {
            let hit = m.first_hit();
            let suffix = charting.suffix(m);
            m.summaries
                .iter()
                .filter(move |s| s.key.variant != Variant::Fixed && s.key.hit_rate == hit)
                .map(move |s| Marker { label: format!("{} p99{suffix}", s.key.variant.name()), value: s.p99_ms.median })
        })
        .collect();
    let title = format!("Latency against pool size{}", charting.hit_note());
    let chart = pool_latency_chart(&title, &latency, &charting.formula(), &levels)
        .map_err(|error| NotDrawn::new(LATENCY_FIGURE, error))?;
    Ok(Figure {
        id: "latency",
        title: LATENCY_FIGURE.into(),
        svg: chart.svg,
        legend: chart.legend,
        caption: "Median p99 and p50 of the fixed pools over trials, bars spanning each median's interval; both axes \
                  logarithmic; each line's colour, dash and marker are named in the legend below it. The grey \
                  vertical line is the formula's answer from the mean W/C; the horizontal lines are the split and \
                  async variants' p99, which have no single pool size."
            .into(),
        text: format!(
            "p99 per fixed pool size. {}",
            charting.points(|s| format!("{} threads: {} ms", s.key.pool_threads, format::number(s.p99_ms.median)))
        ),
    })
}

fn switches_figure(charting: &Charting) -> Result<Figure, NotDrawn> {
    let switches: Vec<SwitchLines> = charting
        .measured
        .iter()
        .map(|m| {
            // Where the OS counted no switches the rows hold 0: no line, and the legend says why.
            let counted = m.summaries.iter().all(PoolSummary::usage_measured);
            let switches = |name: &str, pick: fn(&PoolSummary) -> &crate::stats::Summary| match counted {
                true => charting.fixed(m, name, pick),
                false => Series {
                    label: format!("{name}: not counted by this OS{}", charting.suffix(m)),
                    points: Vec::new(),
                },
            };
            SwitchLines {
                voluntary: switches("voluntary", |s| &s.voluntary_per_s),
                involuntary: switches("involuntary", |s| &s.involuntary_per_s),
                throughput: charting.fixed(m, "completed", |s| &s.completed_per_s),
                offered_per_s: m.summaries.first().map_or(0.0, |s| s.offered_rate_per_s),
            }
        })
        .collect();
    let title = format!("Context switches and throughput{}", charting.hit_note());
    let chart = pool_switches_chart(&title, &switches, &charting.formula())
        .map_err(|error| NotDrawn::new(SWITCHES_FIGURE, error))?;
    Ok(Figure {
        id: "switches",
        title: SWITCHES_FIGURE.into(),
        svg: chart.svg,
        legend: chart.legend,
        caption: "Above: the whole process's voluntary and involuntary context switches per second, including the \
                  dispatcher's wake-ups. Below: completed requests per second against the offered rate (the \
                  horizontal line); a pool that cannot keep up falls below it and drops requests. The legend below \
                  names each line's colour, dash and marker."
            .into(),
        text: format!(
            "Context switches per second per fixed pool size. {}",
            charting.points(|s| if s.usage_measured() {
                format!("{} threads: {:.0}", s.key.pool_threads, s.switches_per_s.median)
            } else {
                format!("{} threads: not counted by this OS", s.key.pool_threads)
            })
        ),
    })
}

/// One of article C's published numbers, in the unit the article printed it in.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PoolReference {
    pub key: String,
    pub value: f64,
    pub unit: String,
    pub what: String,
}

/// Its file in `data/reference/`, compiled in.
pub const REFERENCE: ReferenceFile<PoolReference> = reference_file!("pool.csv");

/// The article's published numbers' rows.
pub fn reference() -> Result<Vec<PoolReference>, RunsError> {
    REFERENCE.rows()
}
