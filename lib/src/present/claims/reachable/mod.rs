//! Every claim's judge is a function of rows: for each claim, rows reshaped from the fixture
//! run that give each status it can take (at least reproduced, a miss in size, and the
//! other way or the noise), so no status is out of reach. Claims the lab sets up itself
//! (A9, C3, C4, C7, C20) and the narrative ones (B8, C21) show they cannot be evidence.

use super::{answer, Answer, Status};
use crate::experiment::SavedRow;
use crate::gc::{GcRatio, GoRow};
use crate::locks::{Case as LockCase, JavaPrimitive, JavaRow, Primitive};
use crate::pool::Variant;
use crate::runs::Run;
use crate::sharing::Case as SharingCase;
use crate::{counters, gc, locks, pool, refill, sharing, stride};

mod article_a;
mod article_b;
mod article_c;

use article_a::four_way;
use article_b::throughput;
use article_c::p99;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../report/tests/fixtures/run-fixture");
/// Enough CPUs for every article's setting.
const MANY: usize = 64;

fn fixture(cpus: usize) -> Run {
    let mut run = Run::load(FIXTURE).unwrap();
    run.manifest.machine.available_parallelism = cpus;
    run
}

fn edit<R: SavedRow>(run: &mut Run, change: impl FnMut(&mut R)) {
    run.rows_mut::<R>().expect("the fixture holds these rows").iter_mut().for_each(change);
}

/// `center` spread over a cell's trials (within 3%), so its interval is narrow but real.
fn around(center: f64, trial: u64) -> f64 {
    center * [0.97, 0.99, 1.0, 1.01, 1.03][(trial % 5) as usize]
}

fn answered(run: &Run, id: &str) -> Answer {
    let claims = crate::reference::claims().unwrap();
    answer(claims.iter().find(|claim| claim.id == id).unwrap(), run)
}

/// Each (status, run) pair: the claim's answer on that run has that status.
fn reaches(id: &str, cases: Vec<(Status, Run)>) {
    for (expected, run) in cases {
        let got = answered(&run, id);
        assert_eq!(got.status, expected, "{id}: {} ({})", got.status_text(), got.figure);
    }
}

/// The headline's rows are the claims table's rows of A1, B6 and C1 (its status, and the
/// figure its sentence holds): on every run above the two never disagree.
#[test]
fn the_headline_and_the_claims_table_agree() {
    let runs = [
        fixture(2),
        fixture(MANY),
        four_way(MANY, 13.7, 2.0),
        four_way(2, 3.0, 2.0),
        throughput(MANY, |threads, ratio| if threads == 8 && ratio != GcRatio::DEFAULT { 875.0 } else { 100.0 }),
        p99(|per_cpu| if per_cpu == 40 { 1095.0 } else { 100.0 }),
    ];
    for run in runs {
        let headline = crate::present::headline::headline_section(std::slice::from_ref(&run)).unwrap().unwrap();
        let claims = super::section(std::slice::from_ref(&run)).unwrap();
        let (headline, claims) = (headline.table("headline").unwrap(), claims.table("claims").unwrap());
        for (row, id) in headline.rows.iter().zip(["A1", "B6", "C1"]) {
            let claim = claims.rows.iter().find(|row| row[0].text == id).unwrap();
            assert!(claim[5].text.starts_with(&row[3].text), "{id}: the headline's status against the claims table's");
            let ratio = row[2].text.split_once(": ").map_or(row[2].text.as_str(), |(_, ratio)| ratio);
            assert!(claim[4].text.contains(ratio), "{id}: the same figure: {} / {}", row[2].text, claim[4].text);
        }
    }
}
