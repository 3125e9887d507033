//! How long `contention report --quick` will take here, estimated from a run kept under
//! `data/examples`: the quick stride sweep is timed here, and the kept quick run's parts
//! that do a set amount of work are scaled by how much slower or faster that sweep ran here
//! than there. The parts paced by the clock (arrival windows, seconds per trial:
//! `Measure::CLOCK_PACED`) and the real runtimes beside (Go, the JVM, which run for their
//! budgets) take their kept time, the runtimes only where this laptop has them. The line
//! names the run it scaled from.

use std::path::Path;
use std::time::Instant;

use contention::format::seconds;
use contention::harness::no_progress;
use contention::runs::{find_runs, Profile, Run};
use contention::{stride, Experiment};

use super::{Check, Status};

/// Past this, a quick report takes long enough that the plan should say so.
const SLOW_QUICK_REPORT_S: f64 = 180.0;

/// A kept quick run's seconds, by how they carry to another machine.
#[derive(Debug, Clone, PartialEq)]
struct KeptTimes {
    /// Its stride sweep's: the yardstick timed again here.
    stride_s: f64,
    /// Experiments that do a set amount of work: scaled by the yardstick.
    scaled_s: f64,
    /// Experiments paced by the clock: the same anywhere.
    paced_s: f64,
    /// Each real runtime run beside a model, by the name runs give it ("Go", "JVM").
    beside: Vec<(String, f64)>,
    /// All of it, as the run measured it.
    total_s: f64,
}

impl KeptTimes {
    /// `run`'s times, when it is a quick run that timed its stride sweep.
    fn of(run: &Run) -> Option<KeptTimes> {
        if run.manifest.profile != Profile::Quick {
            return None;
        }
        let stride_s = run.manifest.record(stride::EXPERIMENT)?.elapsed_s?;
        let mut kept = KeptTimes {
            stride_s,
            scaled_s: 0.0,
            paced_s: 0.0,
            beside: Vec::new(),
            total_s: contention::present::workshop::run_seconds(run),
        };
        for record in &run.manifest.experiments {
            let conditions = record.conditions();
            let elapsed_s = conditions.elapsed_s.unwrap_or(0.0);
            match Experiment::from_name(&record.name).is_some_and(Experiment::clock_paced) {
                true => kept.paced_s += elapsed_s,
                false => kept.scaled_s += elapsed_s,
            }
            kept.beside.extend(conditions.runtime_elapsed);
        }
        Some(kept)
    }

    /// Seconds here, for a stride sweep that took `here_stride_s` and the runtimes found here.
    fn here(&self, here_stride_s: f64, runtimes_here: &[&str]) -> f64 {
        let beside: f64 = self
            .beside
            .iter()
            .filter(|(runtime, _)| runtimes_here.contains(&runtime.as_str()))
            .map(|(_, seconds)| seconds)
            .sum();
        self.scaled_s * here_stride_s / self.stride_s.max(f64::MIN_POSITIVE) + self.paced_s + beside
    }
}

/// The check's line: the estimate and the run it came from, or why there is none.
/// `runtimes_here` names the real runtimes this laptop has ("Go", "JVM").
pub fn quick_report(examples: &Path, runtimes_here: &[&str]) -> Check {
    let name = "quick report";
    let kept = find_runs(examples).map(|found| found.runs).unwrap_or_default();
    let Some((run, times)) = kept.iter().find_map(|run| Some((run, KeptTimes::of(run)?))) else {
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
    let estimate_s = times.here(here_stride_s, runtimes_here);
    let found = format!(
        "about {} (the quick stride sweep took {} here, {} on {} ({}), whose quick run took {})",
        seconds(estimate_s),
        seconds(here_stride_s),
        seconds(times.stride_s),
        run.label,
        run.manifest.machine.cpu_model.as_deref().unwrap_or("CPU unknown"),
        seconds(times.total_s)
    );
    let status = match estimate_s > SLOW_QUICK_REPORT_S {
        true => Status::Warn {
            fix: "start the quick report before the talk that precedes it, or pair with a faster laptop".into(),
        },
        false => Status::Ok,
    };
    Check { name, found, status }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/examples");

    fn kept() -> KeptTimes {
        let runs = find_runs(Path::new(EXAMPLES)).unwrap().runs;
        runs.iter().find_map(KeptTimes::of).expect("a quick run is kept under data/examples")
    }

    #[test]
    fn the_kept_run_splits_into_scaled_paced_and_beside_parts() {
        let kept = kept();
        let beside: f64 = kept.beside.iter().map(|(_, seconds)| seconds).sum();
        assert!(kept.scaled_s > 0.0 && kept.paced_s > 0.0, "{kept:?}");
        assert!((kept.scaled_s + kept.paced_s + beside - kept.total_s).abs() < 1e-6, "{kept:?}");
    }

    #[test]
    fn only_the_work_scales_and_only_the_runtimes_here_count() {
        let kept = kept();
        let runtimes: Vec<&str> = kept.beside.iter().map(|(runtime, _)| runtime.as_str()).collect();
        assert!((kept.here(kept.stride_s, &runtimes) - kept.total_s).abs() < 1e-6, "the kept machine again");
        let twice_as_fast = kept.here(kept.stride_s / 2.0, &runtimes);
        assert!((kept.total_s - twice_as_fast - kept.scaled_s / 2.0).abs() < 1e-6, "{kept:?}: {twice_as_fast}");
        let beside: f64 = kept.beside.iter().map(|(_, seconds)| seconds).sum();
        assert!((kept.total_s - kept.here(kept.stride_s, &[]) - beside).abs() < 1e-6, "no runtime here");
    }
}
