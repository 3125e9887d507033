//! Which experiment answers a claim: the one whose descriptor lists its id
//! ([`Present::CLAIMS`]), answering through its [`Present::answer`].

use super::{Answer, Context};
use crate::kit::Present;
use crate::registry::{Experiment, Visitor};

/// The claims an experiment's descriptor lists ([`Present::CLAIMS`]).
struct ClaimsOf;

impl Visitor for ClaimsOf {
    type Output = &'static [&'static str];
    fn visit<K: Present>(self) -> Self::Output {
        K::CLAIMS
    }
}

/// The experiment whose descriptor lists claim `id`, if one does.
pub fn answered_by(id: &str) -> Option<Experiment> {
    Experiment::ALL.iter().copied().find(|experiment| experiment.visit(ClaimsOf).contains(&id))
}

/// An experiment's answer to one claim it lists ([`Present::answer`]).
pub(super) struct AnswerOf<'a> {
    pub id: &'a str,
    pub context: &'a Context<'a>,
}

impl Visitor for AnswerOf<'_> {
    type Output = Answer;
    fn visit<K: Present>(self) -> Answer {
        K::answer(self.id, self.context)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_claim_is_listed_by_the_experiment_the_claims_file_names_and_no_other() {
        let claims = crate::reference::claims().unwrap();
        for claim in &claims {
            let listing: Vec<&str> = Experiment::ALL
                .iter()
                .filter(|experiment| experiment.visit(ClaimsOf).contains(&claim.id.as_str()))
                .map(|experiment| experiment.name())
                .collect();
            assert_eq!(listing, [claim.experiment.as_str()], "{} is listed by {listing:?}", claim.id);
        }
        // That each id listed is a claim of the file is checked in `lib/tests/registry.rs`,
        // on the lib as the report builds it (here an experiment compiled only in tests may list its own).
        assert_eq!(answered_by("Z1"), None);
    }
}
