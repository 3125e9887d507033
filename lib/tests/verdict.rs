//! The verdict's rules on synthetic facts: a healthy machine is fit, and each reason fires
//! alone when only its fact is bad.

use contention::machine_check::judge::{verdict, Disturbance, Facts, ARTICLE_THREADS, MIN_SPEEDUP_AT_TWO_THREADS};
use contention::machine_check::placement_seen::{placement_seen, PlacementSeen, TrialPlacement};
use contention::verdict::{Fitness, ReasonKind, SLOW_ONE_WAY_NS};
use contention::Machine;

/// A 16-CPU bare-metal machine, idle, that scales and repeats well.
fn healthy() -> Facts {
    Facts {
        usable_cpus: 16,
        usable_cores: Some(8),
        experiment_threads: ARTICLE_THREADS,
        typical_one_way_ns: Some(45.0),
        c2c_unpinned_dropped: None,
        speedup_at_two_threads: Some(1.97),
        trial_spread_cv: Some(0.02),
        background: Some(Disturbance { share: 0.01, during: "stride".into() }),
        steal: Some(Disturbance { share: 0.0, during: "stride".into() }),
        placement: Some(PlacementSeen { trials: 40, ..PlacementSeen::default() }),
        clock_change: Some(Disturbance { share: 0.01, during: "stride".into() }),
        threads_pinned: Some(true),
    }
}

fn only_reason(facts: &Facts) -> (ReasonKind, Fitness) {
    let verdict = verdict(facts);
    let kinds: Vec<ReasonKind> = verdict.reasons.iter().map(|reason| reason.kind).collect();
    assert_eq!(kinds.len(), 1, "expected exactly one reason, got {kinds:?} for {facts:?}");
    assert!(!verdict.reasons[0].text.is_empty());
    (kinds[0], verdict.fitness)
}

#[test]
fn a_healthy_machine_is_fit_with_no_reasons_and_nothing_unchecked() {
    let verdict = verdict(&healthy());
    assert_eq!(verdict.fitness, Fitness::Fit);
    assert!(verdict.reasons.is_empty(), "{:?}", verdict.reasons);
    assert!(verdict.unchecked.is_empty(), "{:?}", verdict.unchecked);
    assert_eq!(verdict.headline(), "fit");
}

#[test]
fn one_cpu_is_unfit() {
    let facts = Facts {
        usable_cpus: 1,
        usable_cores: Some(1),
        speedup_at_two_threads: None,
        typical_one_way_ns: None,
        ..healthy()
    };
    assert_eq!(only_reason(&facts), (ReasonKind::OneCpu, Fitness::Unfit));
}

#[test]
fn fewer_cpus_than_the_articles_threads_is_limited() {
    let facts = Facts { usable_cpus: 4, usable_cores: Some(4), ..healthy() };
    assert_eq!(only_reason(&facts), (ReasonKind::FewerCpusThanThreads, Fitness::Limited));
    let text = &verdict(&facts).reasons[0].text;
    assert!(text.contains("8 threads") && text.contains("4 CPUs"), "{text}");
}

#[test]
fn only_smt_siblings_is_unfit() {
    let facts = Facts { usable_cores: Some(1), ..healthy() };
    assert_eq!(only_reason(&facts), (ReasonKind::OnlySmtSiblings, Fitness::Unfit));
}

#[test]
fn slow_transfer_is_limited() {
    let facts = Facts { typical_one_way_ns: Some(SLOW_ONE_WAY_NS + 400.0), ..healthy() };
    assert_eq!(only_reason(&facts), (ReasonKind::SlowTransfer, Fitness::Limited));
    assert!(verdict(&facts).reasons[0].text.contains("650 ns"));
}

#[test]
fn poor_scaling_at_two_threads_is_limited() {
    let facts = Facts { speedup_at_two_threads: Some(MIN_SPEEDUP_AT_TWO_THREADS - 0.3), ..healthy() };
    assert_eq!(only_reason(&facts), (ReasonKind::PoorScaling, Fitness::Limited));
    assert!(verdict(&facts).reasons[0].text.contains("1.20x"));
}

#[test]
fn trial_spread_above_ten_percent_is_limited() {
    let facts = Facts { trial_spread_cv: Some(0.25), ..healthy() };
    assert_eq!(only_reason(&facts), (ReasonKind::NoisyTrials, Fitness::Limited));
    assert!(verdict(&facts).reasons[0].text.contains("25%"));
}

#[test]
fn background_load_during_the_run_is_limited_and_names_the_experiment() {
    let facts = Facts { background: Some(Disturbance { share: 0.45, during: "c2c".into() }), ..healthy() };
    assert_eq!(only_reason(&facts), (ReasonKind::BackgroundLoad, Fitness::Limited));
    let text = &verdict(&facts).reasons[0].text;
    assert!(text.contains("45%") && text.contains("during the c2c experiment"), "{text}");
}

#[test]
fn steal_time_during_the_run_is_limited() {
    let facts = Facts { steal: Some(Disturbance { share: 0.08, during: "machine".into() }), ..healthy() };
    assert_eq!(only_reason(&facts), (ReasonKind::StealTime, Fitness::Limited));
    assert!(verdict(&facts).reasons[0].text.contains("8.0%"));
}

#[test]
fn a_slow_unpinned_matrix_counts_and_says_it_was_unpinned_with_its_dropped_share() {
    let facts =
        Facts { typical_one_way_ns: Some(SLOW_ONE_WAY_NS + 400.0), c2c_unpinned_dropped: Some(0.031), ..healthy() };
    let verdict = verdict(&facts);
    assert_eq!(verdict.reasons.len(), 1, "{verdict:?}");
    assert!(verdict.reasons[0].text.contains("one way, unpinned (3.1% of samples dropped where a thread moved)"));
    assert!(!verdict.unchecked.iter().any(|unchecked| unchecked.starts_with("core-to-core")), "it counts as measured");
}

#[test]
fn thresholds_are_strict_boundaries() {
    let at_limits = Facts {
        typical_one_way_ns: Some(SLOW_ONE_WAY_NS),
        speedup_at_two_threads: Some(MIN_SPEEDUP_AT_TWO_THREADS),
        trial_spread_cv: Some(0.10),
        background: Some(Disturbance { share: 0.10, during: "stride".into() }),
        steal: Some(Disturbance { share: 0.02, during: "stride".into() }),
        ..healthy()
    };
    assert_eq!(verdict(&at_limits).fitness, Fitness::Fit);
}

#[test]
fn unfit_outranks_limited_and_every_reason_is_kept() {
    let facts = Facts { usable_cpus: 2, usable_cores: Some(1), trial_spread_cv: Some(0.5), ..healthy() };
    let verdict = verdict(&facts);
    assert_eq!(verdict.fitness, Fitness::Unfit);
    let kinds: Vec<ReasonKind> = verdict.reasons.iter().map(|reason| reason.kind).collect();
    assert_eq!(kinds, vec![ReasonKind::FewerCpusThanThreads, ReasonKind::OnlySmtSiblings, ReasonKind::NoisyTrials]);
    assert_eq!(verdict.headline(), "unfit (fewer CPUs than the experiments' threads; only SMT siblings; noisy trials)");
}

#[test]
fn unmeasured_facts_are_listed_as_unchecked_not_as_reasons() {
    let facts = Facts {
        typical_one_way_ns: None,
        speedup_at_two_threads: None,
        trial_spread_cv: None,
        background: None,
        steal: None,
        ..healthy()
    };
    let verdict = verdict(&facts);
    assert_eq!(verdict.fitness, Fitness::Fit);
    assert_eq!(verdict.unchecked.len(), 4, "{:?}", verdict.unchecked);
    let unplaced = contention::machine_check::verdict(&Facts { placement: None, clock_change: None, ..healthy() });
    assert_eq!(unplaced.unchecked.len(), 2, "{:?}", unplaced.unchecked);
    assert!(verdict.unchecked[0].contains("contention run c2c"));
    assert!(verdict.headline().starts_with("fit; not checked: core-to-core latency"), "{}", verdict.headline());
}

/// A machine with the given SMT sibling lists, everything else as described here.
fn machine_with(siblings: &[&str]) -> Machine {
    Machine { smt_sibling_groups: siblings.iter().map(ToString::to_string).collect(), ..Machine::describe() }
}

fn trial<'a>(cpus: &'a str, pinned: bool) -> TrialPlacement<'a> {
    TrialPlacement { experiment: "stride", cpus, pinned }
}

#[test]
fn threads_on_siblings_of_one_core_are_limited_whatever_the_numbering() {
    for (siblings, shared) in [(["0-1", "2-3"], "0,1"), (["0,2", "1,3"], "0,2")] {
        let machine = machine_with(&siblings);
        let seen = placement_seen(&machine, [trial(shared, true), trial("1,3", true)]);
        let facts = Facts { placement: seen, ..healthy() };
        let verdict = verdict(&facts);
        let kinds: Vec<ReasonKind> = verdict.reasons.iter().map(|reason| reason.kind).collect();
        assert!(kinds.contains(&ReasonKind::SharedPhysicalCores), "{siblings:?}: {kinds:?}");
        assert!(verdict.headline().contains("threads shared physical cores"));
    }
}

#[test]
fn distinct_cores_without_smt_give_no_placement_reason() {
    let machine = machine_with(&["0", "1", "2", "3"]);
    let seen = placement_seen(&machine, [trial("0,1,2,3", true), trial("2", true)]).unwrap();
    assert_eq!((seen.trials, seen.shared_core_trials, seen.unpinned_trials), (2, 0, 0));
    assert!(verdict(&Facts { placement: Some(seen), ..healthy() }).reasons.is_empty());
    assert_eq!(placement_seen(&machine, []), None, "no trials: not checked");
}

#[test]
fn threads_that_could_not_be_pinned_are_limited() {
    let machine = machine_with(&["0", "1"]);
    let seen = placement_seen(&machine, [trial("0,1", false), trial("0,1", true)]);
    let facts = Facts { placement: seen, ..healthy() };
    assert_eq!(only_reason(&facts), (ReasonKind::NotPinned, Fitness::Limited));
    let text = &verdict(&facts).reasons[0].text;
    assert!(text.contains("1 of 2 trials") && text.contains("stride"), "{text}");
    assert_eq!(verdict(&facts).headline(), "limited (threads could not be pinned)");
}

#[test]
fn a_clock_that_moved_more_than_ten_percent_is_limited() {
    let facts = Facts { clock_change: Some(Disturbance { share: -0.3, during: "sharing".into() }), ..healthy() };
    assert_eq!(only_reason(&facts), (ReasonKind::ClockMoved, Fitness::Limited));
    let text = &verdict(&facts).reasons[0].text;
    assert!(text.contains("fell by 30%") && text.contains("sharing"), "{text}");
    let steady = Facts { clock_change: Some(Disturbance { share: 0.10, during: "sharing".into() }), ..healthy() };
    assert!(verdict(&steady).reasons.is_empty());
}

#[test]
fn unpinned_scaling_trials_limit_the_verdict_when_no_trial_recorded_its_placement() {
    let facts = Facts { placement: None, threads_pinned: Some(false), ..healthy() };
    assert_eq!(only_reason(&facts), (ReasonKind::NotPinned, Fitness::Limited));
    let headline = verdict(&facts).headline();
    assert!(
        headline.starts_with("limited (threads could not be pinned); not checked: where the threads ran"),
        "{headline}"
    );
    // Per-trial placement, where recorded, decides alone; nothing recorded at all: no reason.
    assert!(verdict(&Facts { threads_pinned: Some(false), ..healthy() }).reasons.is_empty());
    assert!(verdict(&Facts { placement: None, threads_pinned: None, ..healthy() }).reasons.is_empty());
}
