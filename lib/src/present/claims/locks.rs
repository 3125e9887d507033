//! Article C's lock claims (C11-C16). The article measured the JVM's primitives, so where a
//! JDK ran them beside the Rust cells the JVM's rows judge the claim and the Rust analogue
//! is shown beside it; without them the Rust analogue answers, and the row says which did.
//! The Rust answers come from the locks experiment's own claim findings
//! (`crate::locks::claims`, the function), so the claims section and the locks section say the same thing.

use super::{effect, ratio_text, Answer, Context, Status};
use crate::counters::Layout;
use crate::judgement::Target;
use crate::locks::{article_range, judgement};
use crate::locks::{claims, java_answer, summarize, summarize_java, Case, JavaCell, JavaPrimitive, JavaRow, Row};
use crate::stats::Ratio;
use crate::{counters, evidence};

/// C15's setting: LongAdder against AtomicLong at 16 threads.
const ARTICLE_THREADS: u64 = 16;

pub fn answer(id: &str, context: &Context) -> Answer {
    let java = context.run.runtime_rows::<JavaRow>().filter(|rows| !rows.is_empty()).map(summarize_java);
    if id == "C15" {
        return adders(context, java.as_deref());
    }
    let Some(rows) = context.run.rows::<Row>() else {
        return Answer::not_in_run(crate::locks::EXPERIMENT);
    };
    let article = crate::reference::locks().unwrap_or_default();
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

/// C15: LongAdder over AtomicLong at 16 threads, from the JVM's contended cells when they
/// ran, else the counters' striped layout over one shared atomic.
fn adders(context: &Context, java: Option<&[JavaCell]>) -> Answer {
    let target = context.target_or(Target::range(8.0, 10.0));
    let rust = striped(context, target);
    // The article's 16 threads where the JVM ran them, else the count nearest.
    let pick = |primitive| {
        let cells = java?.iter().filter(|c| c.case == Case::Contended && c.primitive == primitive);
        cells.min_by_key(|c| c.threads.abs_diff(ARTICLE_THREADS))
    };
    match (pick(JavaPrimitive::LongAdder), pick(JavaPrimitive::AtomicLong)) {
        (Some(adder), Some(atomic)) if adder.threads == atomic.threads => {
            let ratio = Ratio::between(&adder.ops_per_sec, &atomic.ops_per_sec);
            let enough = evidence::check([&adder.ops_per_sec, &atomic.ops_per_sec]).is_ok();
            let jvm = effect(
                format!(
                    "JVM: LongAdder {} AtomicLong, {} threads; Rust analogue: {}",
                    ratio_text(&ratio),
                    adder.threads,
                    rust.figure
                ),
                &ratio,
                enough,
                target,
            );
            let why = match jvm.why.as_str() {
                "" => "judged from the JVM's rows".to_string(),
                why => format!("{why}; judged from the JVM's rows"),
            };
            Answer::new(jvm.figure, jvm.status, why)
        }
        _ if rust.figure.is_empty() => rust,
        _ => Answer { figure: format!("Rust: {}", rust.figure), ..rust },
    }
}

/// The counters' striped layout (LongAdder's cells) over one shared atomic (AtomicLong).
fn striped(context: &Context, target: Target) -> Answer {
    let Some(rows) = context.run.rows::<counters::Row>() else { return Answer::not_in_run(counters::EXPERIMENT) };
    let summaries = counters::summarize(rows);
    let find = |layout: Layout| summaries.iter().find(|s| s.layout == layout);
    let (Some(shared), Some(striped)) = (find(Layout::SharedAtomic), find(Layout::Striped)) else {
        return Answer::without_figure(Status::NotInRun, "the shared-atomic and striped layouts did not both run");
    };
    let ratio = Ratio::between(&shared.ns_per_increment, &striped.ns_per_increment);
    let figure = format!("striped {} faster than one shared atomic, {} threads", ratio_text(&ratio), striped.threads);
    effect(figure, &ratio, evidence::check([&shared.elapsed_ms, &striped.elapsed_ms]).is_ok(), target)
}

#[cfg(test)]
mod tests {
    use crate::locks::Claim;

    #[test]
    fn every_locks_claim_is_listed_by_the_locks_experiment() {
        use crate::present::Present;
        let listed = <crate::locks::LockCases as Present>::CLAIMS;
        let ids: Vec<&str> = Claim::ALL.iter().map(|claim| claim.id()).collect();
        assert_eq!(listed, ids, "C15 is the counters' (their striped layout)");
    }
}
