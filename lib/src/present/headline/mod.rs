//! The headline table every report opens with: one row per article, its headline figure,
//! this machine's counterpart with its interval, and a status computed from the run
//! (reproduced, smaller, not shown, needs N cores), each row leading to its section. The
//! machine's caveat (its verdict) is said once, above the table, instead of in every
//! section's summary line.

use serde::Serialize;

mod counterparts;

use super::{Cell, Column, Finding, PresentError, Section, Table};
use crate::counters::format_count;
use crate::fitness::assess::{assess, MachineRun};
use crate::gc::GcRatio;
use crate::runs::Run;
use crate::sharing::{
    ARTICLE_HEADLINE_PRINTED, ARTICLE_HEADLINE_SHARDED_MS, ARTICLE_HEADLINE_SINGLE_MS, ARTICLE_HEADLINE_THREADS,
};
use crate::stats::Ratio;
use crate::verdict::Verdict;
use counterparts::{collector_ratio, false_sharing, pool_sizing};

/// The headline section's anchor (it is no experiment's).
pub const HEADLINE: &str = "headline";
pub const TITLE: &str = "The articles' headlines on this machine";

/// What this machine showed of an article's headline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "status", content = "cores")]
pub enum Status {
    /// The effect is clearly there, and its interval reaches the article's figure.
    Reproduced,
    /// The effect is clearly there, but its interval lies below the article's figure.
    Smaller,
    /// The interval includes 1 (or lies below it), on a machine with the cores it needs.
    NotShown,
    /// Not shown, on a machine with fewer CPUs than the article's setting had cores.
    NeedsCores(u64),
    /// Below the experiment's minimum-evidence rule: nothing is claimed.
    TooFewTrials,
    /// The run did not measure it.
    NotMeasured,
}

impl Status {
    pub fn text(self, cpus: u64) -> String {
        match self {
            Status::Reproduced => "reproduced".into(),
            Status::Smaller => "smaller".into(),
            Status::NotShown => "not shown".into(),
            Status::NeedsCores(cores) => format!("needs {cores} cores (this machine has {cpus})"),
            Status::TooFewTrials => "claims nothing: too few trials".into(),
            Status::NotMeasured => "not measured in this run".into(),
        }
    }

    /// The status of a measured ratio (`Err`: why the evidence allows no claim) that the
    /// article reported as `article` (above 1), on `cpus` CPUs where the article's setting had
    /// `article_cores` (`None`: the experiment scales the article's setting to any CPUs).
    pub fn judge(measured: Result<Ratio, Status>, article: f64, article_cores: Option<u64>, cpus: u64) -> Self {
        match measured {
            Err(short) => short,
            Ok(ratio) if ratio.clearly_above_one() && ratio.high >= article => Status::Reproduced,
            Ok(ratio) if ratio.clearly_above_one() => Status::Smaller,
            Ok(_) => match article_cores {
                Some(cores) if cpus < cores => Status::NeedsCores(cores),
                _ => Status::NotShown,
            },
        }
    }
}

/// What a run measured of one article's headline: its figure in words with its interval
/// ("2 threads on 2 shards: ..."), and the ratio when its trials are enough for a claim.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Counterpart {
    pub text: String,
    /// `Err`: why the evidence allows no claim ([`Status::TooFewTrials`], ...).
    pub ratio: Result<Ratio, Status>,
}

/// One article: its row's name and section, its figure in words and as a ratio, the cores
/// its setting had (`None` where the experiment scales it to any CPU count), and how to find
/// its counterpart in a run (`None`: not measured).
struct Article {
    name: &'static str,
    anchor: &'static str,
    figure: String,
    value: f64,
    cores: Option<u64>,
    counterpart: fn(&Run) -> Option<Counterpart>,
}

/// The three headlines, their figures read from the reference data: A's 13.7x as printed
/// (2.264 s over 166 ms), B's best GOGC over GOGC=100 at 48 goroutines, C's incident p99
/// over the fix's.
fn articles() -> Result<[Article; 3], PresentError> {
    let ratios = crate::reference::gc_ratios()?;
    let default = ratios.iter().find(|r| r.gogc == GcRatio::DEFAULT).map_or(f64::NAN, |r| r.signatures_per_sec);
    let best = ratios.iter().max_by(|a, b| a.signatures_per_sec.total_cmp(&b.signatures_per_sec));
    let best_per_s = best.map_or(f64::NAN, |b| b.signatures_per_sec);
    let pool = crate::reference::pool()?;
    let value = |key: &str| pool.iter().find(|r| r.key == key).map_or(f64::NAN, |r| r.value);
    let (incident_s, fix_ms) = (value("incident_p99"), value("fix_p99"));
    let a = ARTICLE_HEADLINE_PRINTED.trim_end_matches('x').parse().unwrap_or(f64::NAN);
    Ok([
        Article {
            name: "A. False sharing",
            anchor: crate::sharing::EXPERIMENT,
            figure: format!(
                "{ARTICLE_HEADLINE_THREADS} goroutines on {ARTICLE_HEADLINE_THREADS} adjacent shards took \
                 {ARTICLE_HEADLINE_PRINTED} as long as 1 thread ({:.3} s vs {ARTICLE_HEADLINE_SINGLE_MS:.0} ms)",
                ARTICLE_HEADLINE_SHARDED_MS / 1000.0
            ),
            value: a,
            cores: Some(ARTICLE_HEADLINE_THREADS),
            counterpart: false_sharing,
        },
        Article {
            name: "B. The collector's ratio",
            anchor: crate::gc::EXPERIMENT,
            figure: format!(
                "48 goroutines: GOGC={} ran {:.2}x GOGC=100 ({} vs {} signatures/s)",
                best.map_or("?".into(), |b| b.gogc.to_string()),
                best_per_s / default,
                format_count(best_per_s.round() as u64),
                format_count(default.round() as u64)
            ),
            value: best_per_s / default,
            cores: Some(ARTICLE_B_CORES),
            counterpart: collector_ratio,
        },
        Article {
            name: "C. Thread-pool sizing",
            anchor: crate::pool::EXPERIMENT,
            figure: format!(
                "p99 at the incident's 320 threads {incident_s} s vs {fix_ms} ms at the fix's 64 ({:.1}x)",
                incident_s * 1e3 / fix_ms
            ),
            value: incident_s * 1e3 / fix_ms,
            cores: None,
            counterpart: pool_sizing,
        },
    ])
}

/// Cores under article B's 48 goroutines (24 cores, 48 hardware threads).
const ARTICLE_B_CORES: u64 = 24;

/// The machine's caveat, once for the whole table.
pub fn caveat(verdict: &Verdict) -> String {
    if verdict.reasons.is_empty() {
        return format!(
            "This machine's verdict is {}: nothing its checks look at stands in the way, so a status below is the \
             machine's answer.",
            verdict.fitness.as_str()
        );
    }
    let labels: Vec<&str> = verdict.reasons.iter().map(|reason| reason.kind.label()).collect();
    format!(
        "This machine's verdict is {} ({}): that can shrink or hide the articles' effects, so a status short of \
         reproduced may be the machine's doing, not the article's. Each section says what it measured.",
        verdict.fitness.as_str(),
        labels.join("; ")
    )
}

/// The headline section over one or two runs (a room of three or more has its own table),
/// a row for each article whose experiment some run holds; `None` for no run, a room, or
/// runs that hold none of them.
pub fn headline_section(runs: &[Run]) -> Result<Option<Section>, PresentError> {
    if runs.is_empty() || runs.len() > 2 {
        return Ok(None);
    }
    let measured =
        |article: &Article| runs.iter().any(|run| run.manifest.experiments.iter().any(|e| e.name == article.anchor));
    let articles: Vec<Article> = articles()?.into_iter().filter(measured).collect();
    if articles.is_empty() {
        return Ok(None);
    }
    let mut section = Section::new(HEADLINE, TITLE);
    section.machines = runs.iter().map(Run::label).collect();
    for run in runs {
        section.findings.push(Finding::about(&run.label(), caveat(&assess(&MachineRun::from_run(run)).verdict)));
    }
    let mut columns = vec![Column::text("article"), Column::text("the article's headline")];
    for run in runs {
        columns.push(Column::text("this machine (interval)").in_group(&run.label()));
        columns.push(Column::text("status").in_group(&run.label()));
    }
    let rows = articles
        .iter()
        .map(|article| {
            let mut row = vec![Cell::linked(article.name, article.anchor), Cell::from(article.figure.clone())];
            for run in runs {
                let cpus = run.manifest.machine.logical_cpus as u64;
                let (text, status) = match (article.counterpart)(run) {
                    Some(c) => (c.text, Status::judge(c.ratio, article.value, article.cores, cpus)),
                    None => ("not measured in this run".into(), Status::NotMeasured),
                };
                row.push(Cell::from(text));
                row.push(Cell::from(status.text(cpus)));
            }
            row
        })
        .collect();
    section.tables.push(Table {
        id: "headline",
        caption: "Each article's headline, and this machine's".into(),
        columns,
        rows,
    });
    section.notes.push(Finding::general(
        "Status: reproduced when this machine's interval lies above 1 and reaches the article's figure; smaller when \
         it lies above 1 but short of the article's figure; not shown when it includes 1; needs N cores when it is \
         not shown on a machine with fewer CPUs than the article's setting had cores; claims nothing below the \
         experiment's minimum trials. The article's name leads to its section.",
    ));
    Ok(Some(section))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(value: f64, low: f64, high: f64) -> Ratio {
        Ratio { value, low, high }
    }

    #[test]
    fn the_status_follows_the_interval_and_the_cores() {
        let judge = |r: Result<Ratio, Status>, cpus| Status::judge(r, 10.0, Some(8), cpus);
        assert_eq!(judge(Ok(ratio(12.0, 9.0, 15.0)), 2), Status::Reproduced);
        assert_eq!(judge(Ok(ratio(2.0, 1.5, 3.0)), 2), Status::Smaller);
        assert_eq!(judge(Ok(ratio(1.1, 0.9, 1.3)), 2), Status::NeedsCores(8));
        assert_eq!(judge(Ok(ratio(1.1, 0.9, 1.3)), 16), Status::NotShown);
        assert_eq!(judge(Err(Status::TooFewTrials), 16), Status::TooFewTrials);
        assert_eq!(Status::judge(Ok(ratio(0.9, 0.8, 1.0)), 10.0, None, 2), Status::NotShown);
        assert_eq!(Status::NeedsCores(8).text(2), "needs 8 cores (this machine has 2)");
    }

    #[test]
    fn the_articles_figures_read_from_the_reference_data() {
        let articles = articles().unwrap();
        assert!(articles[0].figure.contains("13.7x") && articles[0].figure.contains("2.264 s vs 166 ms"));
        assert!(articles[1].figure.contains("GOGC=11300 ran 8.75x GOGC=100"), "{}", articles[1].figure);
        assert!(articles[2].figure.contains("2.3 s vs 210 ms"), "{}", articles[2].figure);
        let anchors: Vec<&str> = articles.iter().map(|a| a.anchor).collect();
        assert_eq!(anchors, ["sharing", "gc", "pool"]);
    }
}
