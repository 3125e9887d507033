//! Article C's lock claims (C11-C14 and C16; C15 is the counters'). The article measured the JVM's primitives, so where a
//! JDK ran them beside the Rust cells the JVM's rows judge the claim and the Rust analogue
//! is shown beside it; without them the Rust analogue answers, and the row says which did.
//! The Rust answers come from the locks experiment's own claim findings
//! (`crate::locks::claims`, the function), so the claims section and the locks section say the same thing.

use crate::judgement::Status;
use crate::kit::{Answer, Context};
use crate::locks::{article_range, judgement};
use crate::locks::{claims, java_answer, summarize, summarize_java, JavaRow, Row};

pub fn answer(id: &str, context: &Context) -> Answer {
    let java = context.run.runtime_rows::<JavaRow>().filter(|rows| !rows.is_empty()).map(summarize_java);
    let Some(rows) = context.run.rows::<Row>() else {
        return Answer::not_in_run(crate::locks::EXPERIMENT);
    };
    let article = super::claim::reference().unwrap_or_default();
    let findings = claims(&summarize(rows), &article, None);
    let Some(finding) = findings.iter().find(|finding| finding.claim.id() == id) else {
        return Answer::without_figure(Status::NotMeasurable, "the locks experiment gives no finding for it");
    };
    let rust = Answer::new(finding.figure.clone(), finding.status, finding.sentence.clone());
    let jvm = java.as_deref().and_then(|cells| {
        let (figure, words) = java_answer(cells, finding.claim)?;
        let range = article_range(&article, finding.claim)?;
        Some((words, judgement(&figure, &range, finding.claim.is_ratio())))
    });
    match jvm {
        Some((words, judged)) => Answer::new(
            format!("JVM: {words}; Rust analogue: {}", rust.figure),
            judged.status,
            match judged.why.as_str() {
                "" => "judged from the JVM's rows".to_string(),
                why => format!("{why}; judged from the JVM's rows"),
            },
        ),
        None => {
            let why = if java.is_some() {
                "the JVM has no figure for it, so the Rust analogue answers"
            } else {
                "no JVM ran (no JDK), so the Rust analogue answers"
            };
            Answer::new(format!("Rust: {}", rust.figure), rust.status, format!("{why}: {}", rust.why))
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::locks::Claim;

    #[test]
    fn every_locks_claim_is_listed_by_the_locks_experiment() {
        use crate::kit::Present;
        let listed = <crate::locks::LockCases as Present>::CLAIMS;
        let ids: Vec<&str> = Claim::ALL.iter().map(|claim| claim.id()).collect();
        assert_eq!(listed, ids, "C15 is the counters' (their striped layout)");
    }
}
