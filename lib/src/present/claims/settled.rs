//! Each claim's measured status judged again over resamples of the run's own trials
//! ([`crate::runs::Run::bootstrap`]), by the lab's settledness rule
//! ([`crate::judgement::settledness`]): a status that does not come back often enough is
//! shown as unsettled, with how often each status came back.

use super::{answer, Answer};
use crate::judgement::{settledness, Judgement, Status, RESAMPLES};
use crate::reference::ClaimReference;
use crate::runs::Run;

/// The bootstrap's seed: fixed, so a run renders the same statuses every time.
const SEED: u64 = 43;

/// The answers to `claims` on `run`, each measured one held to its settledness.
pub fn settled_answers(claims: &[ClaimReference], run: &Run) -> Vec<Answer> {
    let mut answers: Vec<Answer> = claims.iter().map(|claim| answer(claim, run)).collect();
    let asked: Vec<usize> = (0..answers.len()).filter(|&index| answers[index].status.is_measured()).collect();
    if asked.is_empty() {
        return answers;
    }
    let mut resampled: Vec<Vec<Status>> = vec![Vec::with_capacity(RESAMPLES); asked.len()];
    for resample in run.bootstrap(SEED).take(RESAMPLES) {
        for (statuses, &index) in resampled.iter_mut().zip(&asked) {
            statuses.push(answer(&claims[index], &resample).status);
        }
    }
    for (&index, statuses) in asked.iter().zip(&resampled) {
        let answer = &mut answers[index];
        let settledness = settledness(answer.status, statuses);
        let judged = settledness.judge(Judgement::new(answer.status, std::mem::take(&mut answer.why)));
        (answer.status, answer.why, answer.settled) = (judged.status, judged.why, Some(settledness.share));
    }
    answers
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../report/tests/fixtures/run-fixture");

    /// A status that says what the figure is (not that it cannot tell): two settled runs of
    /// one machine must not give two of these.
    fn verdict(answer: &Answer) -> Option<Status> {
        let definite = matches!(
            answer.status,
            Status::Reproduced | Status::Smaller | Status::Larger | Status::Differs | Status::NeedsCores(_)
        );
        definite.then_some(answer.status)
    }

    /// The fixture against reshaped runs of it: twice its trials (a longer profile's shape) and
    /// two other draws of its own rounds (another run of the same machine). A claim settled in
    /// both never has two verdicts; one that cannot settle says unsettled or not beyond the noise.
    #[test]
    fn runs_of_one_machine_never_give_a_settled_claim_two_statuses() {
        let run = Run::load(FIXTURE).unwrap();
        let claims = crate::reference::claims().unwrap();
        let fixture = settled_answers(&claims, &run);
        let mut draws = run.bootstrap(SEED + 1);
        let reshaped = [
            ("twice the trials", run.with_each_row_twice()),
            ("a draw", draws.next().unwrap()),
            ("another draw", draws.nth(7).unwrap()),
        ];
        let mut compared = 0;
        for (shape, other) in &reshaped {
            for ((claim, one), two) in claims.iter().zip(&fixture).zip(settled_answers(&claims, other)) {
                if let (Some(first), Some(second)) = (verdict(one), verdict(&two)) {
                    compared += 1;
                    assert_eq!(
                        first,
                        second,
                        "{} against {shape}: {} / {}",
                        claim.id,
                        one.status_text(),
                        two.status_text()
                    );
                }
            }
        }
        assert!(compared > 30, "most claims have a verdict in both ({compared} compared)");
    }

    /// The switch probe runs before each run of a case, so a resample draws its samples with
    /// the rounds of trials: a cost whose rounds straddle the article's range is not settled.
    #[test]
    fn the_switch_cost_is_resampled_with_its_rounds() {
        let mut run = Run::load(FIXTURE).unwrap();
        for row in run.rows_mut::<crate::pool::Row>().unwrap() {
            row.switch_cost_ns = [2_300.0, 2_450.0, 2_600.0][row.trial as usize % 3];
        }
        let claims = crate::reference::claims().unwrap();
        let c6 = claims.iter().position(|claim| claim.id == "C6").unwrap();
        let answer = &settled_answers(&claims, &run)[c6];
        let share = answer.settled.expect("C6 is measured");
        assert!(share < 1.0, "resamples of the rounds move the probe's interval: {answer:?}");
        assert_eq!(answer.status, Status::Unsettled, "{answer:?}");
        assert!(answer.why.contains("reproduced") && answer.why.contains("differs"), "{}", answer.why);
    }
}
