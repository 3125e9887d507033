//! How long `contention report --quick` will take here, estimated from a run kept under
//! `data/examples`: the quick stride sweep is timed here, and the kept quick run's total
//! scaled by how much slower or faster that sweep ran here than there. The article-sized
//! parts of a quick run (time budgets, fixed trial counts) scale alike, so one short
//! experiment says roughly how the rest will go; the line names the run it scaled from.

use std::path::Path;
use std::time::Instant;

use contention::format::seconds;
use contention::harness::no_progress;
use contention::runs::{find_runs, Profile, Run};
use contention::stride;

use super::{Check, Status};

/// Past this, a quick report takes long enough that the plan should say so.
const SLOW_QUICK_REPORT_S: f64 = 180.0;

/// A kept quick run's total seconds (its runtimes beside included) and its stride sweep's.
fn kept_times(run: &Run) -> Option<(f64, f64)> {
    if run.manifest.profile != Profile::Quick {
        return None;
    }
    let stride_s = run.manifest.record(stride::EXPERIMENT)?.elapsed_s?;
    let total_s = contention::present::workshop::run_seconds(run);
    Some((total_s, stride_s))
}

/// The check's line: the estimate and the run it came from, or why there is none.
pub fn quick_report(examples: &Path) -> Check {
    let name = "quick report";
    let kept = find_runs(examples).map(|found| found.runs).unwrap_or_default();
    let Some((run, (kept_total_s, kept_stride_s))) = kept.iter().find_map(|run| Some((run, kept_times(run)?))) else {
        let fix = format!(
            "no quick run kept under {} to scale from: run `contention report --quick` once (the README gives its time)",
            examples.display()
        );
        return Check { name, found: "not estimated".into(), status: Status::Warn { fix } };
    };
    let started = Instant::now();
    if let Err(error) = stride::run(&stride::Config::quick(), &mut no_progress) {
        let fix = "the lab's own experiment failed here: run `contention run stride --quick` to see why".to_string();
        return Check { name, found: format!("the quick stride sweep failed: {error}"), status: Status::Fail { fix } };
    }
    let here_stride_s = started.elapsed().as_secs_f64();
    let estimate_s = kept_total_s * here_stride_s / kept_stride_s.max(f64::MIN_POSITIVE);
    let found = format!(
        "about {} (the quick stride sweep took {} here, {} on {} ({}), whose quick run took {})",
        seconds(estimate_s),
        seconds(here_stride_s),
        seconds(kept_stride_s),
        run.label,
        run.manifest.machine.cpu_model.as_deref().unwrap_or("CPU unknown"),
        seconds(kept_total_s)
    );
    let status = match estimate_s > SLOW_QUICK_REPORT_S {
        true => Status::Warn {
            fix: "start the quick report before the talk that precedes it, or pair with a faster laptop".into(),
        },
        false => Status::Ok,
    };
    Check { name, found, status }
}
