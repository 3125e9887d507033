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
