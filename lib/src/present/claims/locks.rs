//! Article C's lock claims (C11-C14, C16), answered from the locks experiment's own claim
//! findings (`crate::locks::claims`), so the claims section and the locks section say the
//! same thing.

use super::{Answer, Context, Status};
use crate::locks::{claims, summarize, Row, Status as LocksStatus};

/// The ids the locks experiment answers.
pub const CLAIMS: [&str; 5] = ["C11", "C12", "C13", "C14", "C16"];

pub fn answer(id: &str, context: &Context) -> Answer {
    let Some(rows) = context.run.rows::<Row>() else {
        return Answer::not_in_run(crate::locks::EXPERIMENT);
    };
    let article = crate::reference::locks().unwrap_or_default();
    let findings = claims(&summarize(rows), &article, None);
    let Some(finding) = findings.iter().find(|finding| finding.claim.id() == id) else {
        return Answer::without_figure(Status::NotMeasurable, "the locks experiment gives no finding for it");
    };
    let status = match finding.status {
        LocksStatus::Agrees | LocksStatus::SameDirection => Status::Reproduced,
        LocksStatus::Differs => Status::Differs,
        LocksStatus::WithinNoise | LocksStatus::TooFewTrials => Status::NotBeyondNoise,
        LocksStatus::NotMeasured => Status::NotMeasurable,
    };
    Answer::new(finding.figure.clone(), status, finding.sentence.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locks::Claim;

    #[test]
    fn every_id_is_a_locks_claim() {
        let ids: Vec<&str> = Claim::ALL.iter().map(|claim| claim.id()).collect();
        assert_eq!(ids, CLAIMS);
    }
}
