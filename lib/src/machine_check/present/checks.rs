//! The checks behind a machine's verdict, in words: one (label, value) per check.

use crate::machine_check::assess::Assessment;
use crate::machine_check::judge::{Disturbance, Facts};
use crate::machine_check::placement_seen::PlacementSeen;
use crate::machine_check::scaling;

/// The checks behind the verdict, as (label, value) in words.
pub fn check_rows(assessment: &Assessment) -> Vec<(String, String)> {
    let facts = &assessment.facts;
    let not_measured = |how: &str| format!("not measured (run `contention run {how}`)");
    let mut rows = vec![(
        "core-to-core latency".to_string(),
        match (&assessment.c2c, facts.typical_one_way_ns) {
            (Some(pairs), Some(ns)) => format!(
                "{ns:.0} ns one way, typical of {} pair(s){}",
                pairs.len(),
                crate::machine_check::judge::unpinned_label(facts)
            ),
            (Some(pairs), None) if pairs.is_empty() => {
                "no pair: fewer than two CPUs, or threads the OS could neither pin nor say where they ran".into()
            }
            (Some(_), None) => "too few samples per pair for a figure".into(),
            (None, _) => not_measured("c2c"),
        },
    )];
    match assessment.scaling.as_deref() {
        Some(summaries) if summaries.len() > 1 => rows.extend(summaries[1..].iter().map(|summary| {
            (
                format!("scaling, {} threads", summary.threads),
                format!(
                    "{} one thread's work ({}; ideal {:.0}x)",
                    crate::format::ratio(summary.speedup.value),
                    crate::format::ratio_interval(summary.speedup.low, summary.speedup.high),
                    summary.ideal_speedup
                ),
            )
        })),
        Some(_) => rows.push(("scaling".into(), "one thread only: nothing to compare".into())),
        None => rows.push(("scaling".into(), not_measured("machine"))),
    }
    let spread = assessment.scaling.as_deref().and_then(scaling::trial_spread);
    rows.push((
        "trial spread".into(),
        spread.map_or(not_measured("machine"), |(cv, threads)| {
            format!("{} (coefficient of variation; worst at {threads} thread(s))", crate::format::percent(cv))
        }),
    ));
    let share = |label: &str, disturbance: &Option<Disturbance>| {
        let value = disturbance
            .as_ref()
            .map_or("unknown (no /proc/stat, or every experiment too short to tell)".into(), |worst| {
                format!("{} of CPU time at most (during {})", crate::format::percent(worst.share), worst.during)
            });
        (label.to_string(), value)
    };
    rows.push(share("other programs' CPU use", &facts.background));
    rows.push(share("steal time", &facts.steal));
    rows.push(("hardware counters".into(), assessment.hardware_counters.clone()));
    rows.push(("thread placement".into(), placement_text(facts.placement.as_ref())));
    rows.push(("CPU clock".into(), clock_text(facts, &assessment.clocks)));
    rows
}

fn placement_text(seen: Option<&PlacementSeen>) -> String {
    let Some(seen) = seen else {
        return "unknown (no trial recorded its CPUs)".into();
    };
    let shared = match seen.shared_core_trials {
        0 => "no two threads shared a physical core".to_string(),
        n => format!("{n} shared a physical core (during {})", seen.shared_core_during.join(", ")),
    };
    let unpinned = match seen.unpinned_trials {
        0 => "every thread pinned".to_string(),
        n => format!("{n} could not pin every thread (during {})", seen.unpinned_during.join(", ")),
    };
    format!("{} trials: {shared}; {unpinned}", seen.trials)
}

fn clock_text(facts: &Facts, clocks: &[(String, String)]) -> String {
    let Some(moved) = facts.clock_change.as_ref() else {
        return "unknown (the kernel exposes no cpufreq files here)".into();
    };
    let states: Vec<String> = clocks.iter().map(|(name, state)| format!("{name}: {state}")).collect();
    format!("moved by {:.1}% at most (during {}); {}", moved.share.abs() * 100.0, moved.during, states.join("; "))
}
