//! The toy measured, and its saved run (`fixture/`) presented through the registry's
//! loops like any experiment's: section, figure, room effect and claim.

use super::*;
use crate::experiment::Measure;
use crate::judgement::Status;
use crate::present::claims::{answer, answered_by};
use crate::reference::ClaimReference;
use crate::registry::Experiment;
use crate::runs::Run;

/// A run of the toy at its default sizes, saved by the lab's run format.
const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/toy/fixture");

/// The toy's claim, in the claims file's columns.
fn claim() -> ClaimReference {
    let mut rows: Vec<ClaimReference> =
        crate::run_format::parse_rows("toy/claim.csv", include_str!("claim.csv")).unwrap();
    assert_eq!(rows.len(), 1);
    rows.remove(0)
}

#[test]
fn the_toy_measures_and_sums_right() {
    let config = Toy::quick();
    Toy::validate(&config).unwrap();
    let rows = Toy::run(&config, &mut |_| {}).unwrap().rows;
    assert_eq!(rows.len(), config.trials);
    assert!(rows.iter().all(|row| row.sum == config.values * (config.values + 1) / 2));
    assert_eq!(Toy::summarize(&rows)[0].samples, config.trials);
    let refused = Toy::validate(&Config { trials: 0, ..config }).unwrap_err().to_string();
    assert!(refused.contains("trials") && refused.contains("at least 1"), "{refused}");
    let refused = Toy::validate(&Config { values: 0, ..config }).unwrap_err().to_string();
    assert_eq!(refused, format!("invalid values = 0: 1 to {MAX_VALUES} numbers"));
}

#[test]
fn one_registry_line_brings_the_toy_into_every_loop() {
    assert_eq!(Experiment::from_name(EXPERIMENT), Some(Experiment::Toy));
    assert_eq!(Experiment::ALL.last(), Some(&Experiment::Toy));
    assert_eq!(crate::present::room::effects().last().map(|effect| effect.id), Some(present::EFFECT.id));
    let sections = crate::present::sections(&[]).unwrap();
    let toy = sections.iter().find(|section| section.experiment == EXPERIMENT).expect("no toy section");
    assert_eq!(toy.title, present::TITLE);
    assert!(!toy.prose.is_empty(), "the toy's prose was not shown");
    assert_eq!(toy.summary(), "Not measured.");
}

#[test]
fn the_saved_run_is_presented_with_its_figure_effect_and_claim() {
    let run = Run::load(FIXTURE).unwrap();
    let rows = run.rows::<Row>().unwrap();
    assert!(rows.iter().all(|row| row.sum == row.values * (row.values + 1) / 2), "a sum in the fixture is wrong");
    let median = summarize(rows)[0].median;
    let sections = crate::present::sections(std::slice::from_ref(&run)).unwrap();
    let toy = sections.iter().find(|section| section.experiment == EXPERIMENT).expect("no toy section");
    let finding = format!("{} ns per value (median of {} trials).", crate::format::number(median), rows.len());
    assert_eq!(toy.summary(), finding);
    assert_eq!(toy.figures.len(), 1, "the toy's chart was not drawn: {:?}", toy.notes);
    assert!(toy.figures[0].svg.starts_with("<svg") && toy.figures[0].text.contains("toy-example"));
    let effects = crate::present::room::KeyEffects::of(&run);
    let value = effects.effects.iter().find(|value| value.effect.id == present::EFFECT.id).unwrap();
    assert_eq!(value.value.map(|ratio| ratio.value), Some(median));
    let answered = answer(&claim(), &run);
    assert_eq!(answered_by(&claim().id), Some(Experiment::Toy));
    assert!(answered.figure.starts_with(&crate::format::number(median)), "{}", answered.figure);
    assert!(answered.status.is_measured(), "{:?}: {}", answered.status, answered.why);
}

/// The claim's status comes from the rows: the same run made slower than 10 ns per value
/// differs, and cut to three trials claims nothing.
#[test]
fn the_claim_is_judged_from_the_measured_rows() {
    let claim = claim();
    let mut run = Run::load(FIXTURE).unwrap();
    let saved = summarize(run.rows::<Row>().unwrap())[0].clone();
    let status = answer(&claim, &run).status;
    assert_eq!(status, Status::Reproduced, "the saved run's interval {saved:?} reaches 0.05 to 1 ns");
    for row in run.rows_mut::<Row>().unwrap() {
        row.ns_per_value = 10.0 + row.ns_per_value * 10.0;
    }
    let slow = answer(&claim, &run);
    assert_eq!((slow.status, slow.why.as_str()), (Status::Differs, "above the article's"));
    run.rows_mut::<Row>().unwrap().truncate(3);
    assert_eq!(answer(&claim, &run).status, Status::NotBeyondNoise, "three trials claim nothing");
}
