//! "This machine: can it show contention?" as a [`Section`]: per machine, the verdict and its
//! reasons, the checks behind it, the core-to-core latency heatmap and pairs, the scaling
//! check, and what else the machine was doing while each experiment ran.

mod checks;
mod facts;
mod pairs;

use crate::kit::{Answer, Context, Effect, EffectValue, Plausible, Present, PresentError};
use crate::view::{Cell, Column, Finding, Section, Table};

use super::assess::{assess, Assessment, MachineRun};
pub use checks::check_rows;
pub use facts::{facts, facts_table, implications};
pub use pairs::c2c_figure;
use pairs::{pairs_table, MAX_PAIRS_IN_TABLE};

use super::{scaling, Verdict, EXPERIMENT};
use crate::c2c::PairSummary;
use crate::format;
use crate::machine::conditions::Conditions;
use crate::run_format::Run;

pub const TITLE: &str = "This machine: can it show contention?";

/// The machine check's section, which shows the core-to-core latency too.
impl Present for super::MachineCheck {
    const TITLE: &'static str = TITLE;
    const PROSE: &'static str = include_str!("../prose.md");

    const CLAIMS: &'static [&'static str] = &["A5", "A12", "B8"];

    fn answer(claim: &str, context: &Context) -> Answer {
        super::answers::answer(claim, context)
    }

    fn section(runs: &[Run]) -> Result<Option<Section>, PresentError> {
        let machines: Vec<MachineRun<'_>> = runs.iter().map(MachineRun::from_run).collect();
        Ok(Some(section(&machines)?))
    }

    /// The core-to-core latency is shown in this section, so its notes are too.
    fn status(runs: &[Run]) -> Vec<Finding> {
        crate::kit::status(runs, &[EXPERIMENT, crate::c2c::EXPERIMENT])
    }

    const EFFECTS: &'static [Effect] = &[TWO_THREADS];

    fn effect_values(run: &Run) -> Vec<EffectValue> {
        let scaling = assess(&MachineRun::from_run(run)).scaling;
        vec![EffectValue::of(TWO_THREADS, scaling.as_deref().and_then(|summaries| scaling::speedup_at(summaries, 2)))]
    }
}

/// Notebook 00's question: two threads that share nothing, their work over one thread's.
const TWO_THREADS: Effect = Effect {
    id: "two-threads",
    name: "two threads' work over one thread's",
    unit: "x",
    claim: None,
    plausible: Plausible::RATIO,
};

/// The section for one or several machines; each machine's verdict first.
pub fn section(machines: &[MachineRun<'_>]) -> Result<Section, PresentError> {
    let mut section = Section::new(EXPERIMENT, TITLE);
    section.machines = machines.iter().map(|m| m.label.clone()).collect();
    for machine in machines {
        let assessment = assess(machine);
        let label = machine.label.as_str();
        section.headlines.push(Finding::about(label, headline(&assessment)));
        section
            .findings
            .extend(verdict_findings(&assessment.verdict).into_iter().map(|text| Finding::about(label, text)));
        if let Some(note) = under_load_note(&assessment) {
            section.findings.push(Finding::about(label, note));
        }
        if let Some(pairs) = &assessment.c2c {
            section.findings.push(Finding::about(label, crate::c2c::finding(pairs)));
            if let Some(note) = machine.c2c.and_then(|rows| unpinned_note(rows, pairs, machine.machine.logical_cpus)) {
                section.findings.push(Finding::about(label, note));
            }
        }
        if let Some(summaries) = &assessment.scaling {
            section.findings.push(Finding::about(label, scaling::finding(summaries)));
        }
        section.tables.push(checks_table(label, &assessment));
        if let Some(pairs) = assessment.c2c.as_deref().filter(|pairs| !pairs.is_empty()) {
            section.add_figure(c2c_figure(label, pairs));
            section.tables.push(pairs_table(label, pairs, machine.c2c_samples_planned));
            if pairs.len() > MAX_PAIRS_IN_TABLE {
                let more = pairs.len() - MAX_PAIRS_IN_TABLE;
                section
                    .notes
                    .push(Finding::about(label, format!("{more} more pairs are in the heatmap and in c2c.csv.")));
            }
        }
        section.tables.push(conditions_table(label, &machine.conditions));
    }
    section.notes.push(Finding::general(
        "Load average: 1-minute, includes this run's own threads. Steal time and other programs' CPU use are shares \
         of all CPU time while the experiment ran (from /proc/stat, minus this process's own CPU time), unknown when \
         it ran for under 20 clock ticks of CPU time; above 2% steal or 10% other use, the experiment counts as \
         measured under load.",
    ));
    Ok(section)
}

/// What an unpinned matrix left out: samples where both threads ran on one CPU, and the
/// machine's pairs the scheduler never gave (CPUs numbered from 0, as the OS counts them).
fn unpinned_note(rows: &[crate::c2c::Row], pairs: &[PairSummary], cpus: usize) -> Option<String> {
    let tally = crate::c2c::dropped_samples(rows)?;
    let unseen = crate::c2c::pairs_never_seen(pairs, &(0..cpus).collect::<Vec<_>>());
    let named: Vec<String> = unseen.iter().take(12).map(|(a, b)| format!("{a}-{b}")).collect();
    let more =
        if unseen.len() > named.len() { format!(" and {} more", unseen.len() - named.len()) } else { String::new() };
    let unseen = match unseen.len() {
        0 => "every pair of its CPUs was seen".to_string(),
        count => format!(
            "{count} pairs of its CPUs were never seen (the scheduler never ran the threads there): {}{more}",
            named.join(", ")
        ),
    };
    Some(format!(
        "The unpinned matrix took {} samples and dropped {} ({:.1}%): {} where a thread moved, {} where both threads \
         ran on one CPU; {unseen}.",
        tally.taken,
        tally.moved + tally.one_cpu,
        tally.share() * 100.0,
        tally.moved,
        tally.one_cpu
    ))
}

/// "Verdict: limited (noisy trials). Measured under load: gc." for a summary line.
fn headline(assessment: &Assessment) -> String {
    let mut line = format!("Verdict: {}.", assessment.verdict.headline());
    if !assessment.measured_under_load.is_empty() {
        line.push_str(&format!(" Measured under load: {}.", assessment.measured_under_load.join(", ")));
    }
    line
}

/// "Verdict: fit", then every reason with its level, then what was not checked.
pub fn verdict_findings(verdict: &Verdict) -> Vec<String> {
    let fitness = verdict.fitness.as_str();
    let mut sentences = vec![format!("Verdict: {fitness}.")];
    if verdict.reasons.is_empty() {
        sentences.push(format!("Nothing checked stands in the way: this machine is {fitness} for the experiments."));
    }
    sentences.extend(verdict.reasons.iter().map(|reason| format!("{} ({})", reason.text, reason.fitness.as_str())));
    if !verdict.unchecked.is_empty() {
        sentences.push(format!("Not checked: {}.", verdict.unchecked.join("; ")));
    }
    sentences
}

fn under_load_note(assessment: &Assessment) -> Option<String> {
    (!assessment.measured_under_load.is_empty()).then(|| {
        format!(
            "Measured under load: {}. Other programs or the hypervisor took CPU time while they ran, so their \
             effects may be blurred or missing; measure again on a quiet machine to confirm.",
            assessment.measured_under_load.join(", ")
        )
    })
}

fn checks_table(label: &str, assessment: &Assessment) -> Table {
    Table {
        id: "checks",
        caption: format!("Fitness checks: {label}"),
        columns: vec![Column::text("check"), Column::text("value")],
        rows: check_rows(assessment)
            .into_iter()
            .map(|(check, value)| vec![Cell::from(check), Cell::from(value)])
            .collect(),
    }
}

fn conditions_table(label: &str, conditions: &[(String, Conditions)]) -> Table {
    let load = |load: Option<[f64; 3]>| load.map_or("unknown".into(), |[one, _, _]| format!("{one:.2}"));
    let share = |share: Option<f64>| share.map_or("unknown".into(), format::percent);
    let took = |c: &Conditions| {
        let own = c.elapsed_s.map_or("unknown".into(), format::seconds);
        match &c.runtime_elapsed {
            Some((runtime, seconds)) => format!("{own} + {runtime} {}", format::seconds(*seconds)),
            None => own,
        }
    };
    let rows = conditions
        .iter()
        .map(|(name, c)| {
            let under_load = match (c.under_load(), c.steal_share.or(c.background_share)) {
                (true, _) => "yes",
                (false, Some(_)) => "no",
                (false, None) => "unknown",
            };
            vec![
                Cell::from(name.clone()),
                Cell::from(took(c)),
                Cell::from(load(c.load_average_before)),
                Cell::from(load(c.load_average_after)),
                Cell::from(share(c.steal_share)),
                Cell::from(share(c.background_share)),
                Cell::noisy(under_load, under_load == "yes"),
            ]
        })
        .collect();
    Table {
        id: "conditions",
        caption: format!("While each experiment ran: {label}"),
        columns: vec![
            Column::text("experiment"),
            Column::number("ran for"),
            Column::number("load average before"),
            Column::number("after"),
            Column::number("steal time"),
            Column::number("other programs' CPU use"),
            Column::text("measured under load"),
        ],
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::conditions::watched;
    use crate::machine_check::{verdict, Facts};

    fn facts(usable_cpus: usize) -> Facts {
        Facts {
            usable_cpus,
            usable_cores: Some(usable_cpus),
            experiment_threads: 8,
            typical_one_way_ns: Some(60.0),
            c2c_unpinned_dropped: None,
            speedup_at_two_threads: Some(1.9),
            trial_spread_cv: Some(0.02),
            background: None,
            steal: None,
            placement: None,
            clock_change: None,
            threads_pinned: Some(true),
        }
    }

    #[test]
    fn verdicts_list_every_reason_or_say_nothing_stands_in_the_way() {
        let fit = verdict_findings(&verdict(&facts(16)));
        assert_eq!(fit[0], "Verdict: fit.");
        assert!(fit[1].contains("Nothing checked stands in the way"));
        let judged = verdict(&facts(1));
        let unfit = verdict_findings(&judged);
        assert_eq!(unfit.len(), 1 + judged.reasons.len() + usize::from(!judged.unchecked.is_empty()));
        assert!(unfit.iter().any(|s| s.ends_with("(unfit)")), "{unfit:?}");
    }

    #[test]
    fn a_machine_measured_without_pairs_says_why() {
        let machine = crate::machine::Machine::describe();
        let run = MachineRun {
            label: "here".into(),
            machine: &machine,
            c2c: Some(&[]),
            c2c_samples_planned: None,
            scaling: None,
            conditions: Vec::new(),
            counter_readings: Vec::new(),
            placement: None,
            clocks: Vec::new(),
        };
        let section = section(&[run]).unwrap();
        assert!(section.findings.iter().any(|f| f.text.contains("it needs two CPUs")));
        assert!(section.figures.is_empty());
        assert!(section.summary().starts_with("Verdict: "));
    }

    #[test]
    fn each_pair_shows_its_samples_against_the_plan_and_its_outliers() {
        let one_way = [240.0, 241.0, 242.0, 243.0, 244.0, 245.0, 246.0, 247.0, 900.0];
        let rows: Vec<crate::c2c::Row> = one_way
            .iter()
            .enumerate()
            .map(|(sample, &ns)| crate::c2c::Row {
                cpu_a: 0,
                cpu_b: 1,
                sample: sample as u64,
                round_trips: 100,
                elapsed_ns: (ns * 200.0) as u64,
                one_way_ns: ns,
                cas_elapsed_ns: (ns * 140.0) as u64,
                cas_one_way_ns: ns * 0.7,
                pinned: true,
                unpinned_method: false,
                dropped: false,
                kinds: String::new(),
            })
            .collect();
        let pairs = crate::c2c::summarize(&rows);
        let cut = pairs_table("vm", &pairs, Some(12));
        assert_eq!(cut.columns[5].label, "evidence");
        assert_eq!(
            cut.rows[0][5].text,
            "9 of 12 trials (time budget spent), interval covers 96%; outliers 1 of 9 (1 severe high)"
        );
        let unplanned = pairs_table("vm", &pairs, None);
        assert!(unplanned.rows[0][5].text.starts_with("9 trials, interval covers 96%"), "{:?}", unplanned.rows[0]);
        let cas_median = pairs[0].cas_one_way_ns.as_ref().map(|cas| format::number(cas.median));
        assert_eq!(
            (cut.columns[1].label.as_str(), Some(cut.rows[0][1].text.clone())),
            ("CAS ping-pong median (ns)", cas_median)
        );
        let saved_before = crate::c2c::summarize(
            &rows.iter().map(|row| crate::c2c::Row { cas_one_way_ns: 0.0, ..row.clone() }).collect::<Vec<_>>(),
        );
        let old = pairs_table("vm", &saved_before, None);
        assert_eq!(
            (old.rows[0][1].text.as_str(), old.rows[0][3].text.as_str()),
            ("not measured", cut.rows[0][3].text.as_str())
        );
    }

    #[test]
    fn the_conditions_say_how_long_each_experiment_and_its_runtime_ran() {
        let (_, measured) = watched(|| ());
        let with_go =
            Conditions { elapsed_s: Some(6.04), runtime_elapsed: Some(("Go".into(), 6.46)), ..measured.clone() };
        let unrecorded = Conditions { elapsed_s: None, runtime_elapsed: None, ..measured };
        let table = conditions_table("vm", &[("gc".into(), with_go), ("stride".into(), unrecorded)]);
        assert_eq!(table.columns[1].label, "ran for");
        assert_eq!(table.rows[0][1].text, "6.0 s + Go 6.5 s");
        assert_eq!(table.rows[1][1].text, "unknown", "a run written before the time was recorded");
    }

    #[test]
    fn watched_returns_the_result_and_the_conditions() {
        let (value, conditions) = watched(|| 6 * 7);
        assert_eq!(value, 42);
        // Known exactly where the platform reads a load average (Linux, macOS), on both sides.
        let readable = crate::platform::load_average().is_ok();
        assert_eq!(conditions.load_average_before.is_some(), readable);
        assert_eq!(conditions.load_average_after.is_some(), readable);
    }
}
