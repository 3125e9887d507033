//! The room's challenge board: per challenge, one screen of the projector with each seat's
//! fix as a bar (its speed-up over the baseline with its interval, highest first, the reading
//! and the student's words), the wrong fixes named with what they lost, the class's median,
//! the median goal (each laptop's reference fix), and what the article's fix gave. A seat the
//! roster does not name is shown and marked, as its runs are.

use serde::Serialize;

use super::class::value_text;
use super::projector::{Band, Mark, Scale};
use crate::challenge::{Challenge, ChallengeResult};
use crate::format::ratio_with_interval;
use crate::reference::ClaimReference;
use crate::stats::Summary;

/// The article's claim each challenge's fix answers: A8 (padding, 50.95x), B5 (the article's
/// fix was the ratio, not less allocation: GOGC 2400, 8.51x), C16 (the remote call out of
/// `computeIfAbsent`, 8.89x).
pub fn article_claim(challenge: Challenge) -> &'static str {
    match challenge {
        Challenge::FalseSharing => "A8",
        Challenge::Allocation => "B5",
        Challenge::LockAcrossWait => "C16",
    }
}

/// One challenge's screen.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardScreen {
    /// "challenge-false-sharing": the screen's anchor.
    pub id: String,
    pub title: String,
    /// "9 correct fixes, 2 wrong; 7 faster than the baseline."
    pub sentence: String,
    /// Correct, measured fixes, highest speed-up first.
    pub fixes: Vec<FixBar>,
    /// Fixes refused on correctness, in arrival order.
    pub wrong: Vec<WrongFix>,
    pub median: Option<Mark>,
    /// The median goal over the seats (each laptop's reference fix).
    pub goal: Option<Mark>,
    pub article: Option<Band>,
    pub ticks: Vec<Mark>,
}

/// A correct fix: its bar and its words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FixBar {
    pub seat: String,
    /// "3.87x (3.52x–4.10x)".
    pub text: String,
    /// "faster, reaching the goal".
    pub reading: String,
    /// The rule read it faster (reaching, short of or past the goal).
    pub faster: bool,
    pub description: String,
    pub off_roster: bool,
    pub value_pct: String,
    pub low_pct: String,
    pub width_pct: String,
}

/// A fix refused on correctness, and what it lost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WrongFix {
    pub seat: String,
    pub wrong: String,
    pub description: String,
    pub off_roster: bool,
}

/// One screen per challenge, in [`Challenge::ALL`]'s order, of `results` (the latest per seat
/// and challenge); `roster`, when the room has one, marks the seats it does not name.
pub fn board(results: &[ChallengeResult], claims: &[ClaimReference], roster: Option<&[String]>) -> Vec<BoardScreen> {
    Challenge::ALL.iter().map(|&challenge| screen(challenge, results, claims, roster)).collect()
}

fn screen(
    challenge: Challenge,
    results: &[ChallengeResult],
    claims: &[ClaimReference],
    roster: Option<&[String]>,
) -> BoardScreen {
    let off_roster = |seat: &str| roster.is_some_and(|seats| !seats.iter().any(|named| named == seat));
    let mine: Vec<&ChallengeResult> = results.iter().filter(|result| result.challenge == challenge).collect();
    let mut measured: Vec<&ChallengeResult> = mine.iter().copied().filter(|result| result.speedup.is_some()).collect();
    measured.sort_by(|a, b| speedup(b).total_cmp(&speedup(a)));
    let claim = claims.iter().find(|claim| claim.id == article_claim(challenge)).and_then(|claim| {
        let (low, high) = claim.range()?;
        Some((claim.id.clone(), low, if high.is_finite() { high } else { low }))
    });
    let median = Summary::of(&measured.iter().map(|result| speedup(result)).collect::<Vec<_>>()).map(|s| s.median);
    let goals: Vec<f64> = mine.iter().filter_map(|result| result.goal.map(|goal| goal.value)).collect();
    let goal = Summary::of(&goals).map(|summary| summary.median);
    let ends = measured.iter().filter_map(|result| result.speedup).flat_map(|ratio| [ratio.low, ratio.high]);
    let ends = ends.chain(claim.iter().flat_map(|(_, low, high)| [*low, *high])).chain(goal).chain([1.0]);
    let scale = Scale::holding(ends);
    let fixes = measured
        .iter()
        .filter_map(|result| {
            let ratio = result.speedup?;
            Some(FixBar {
                seat: result.seat.clone(),
                text: ratio_with_interval(&ratio),
                reading: result.reading.clone(),
                faster: result.faster(),
                description: result.description.clone(),
                off_roster: off_roster(&result.seat),
                value_pct: scale.pct(ratio.value),
                low_pct: scale.pct(ratio.low),
                width_pct: format!("{:.2}", scale.share(ratio.high) - scale.share(ratio.low)),
            })
        })
        .collect();
    let wrong: Vec<WrongFix> = mine
        .iter()
        .filter_map(|result| {
            Some(WrongFix {
                seat: result.seat.clone(),
                wrong: result.wrong.clone()?,
                description: result.description.clone(),
                off_roster: off_roster(&result.seat),
            })
        })
        .collect();
    let faster = measured.iter().filter(|result| result.faster()).count();
    BoardScreen {
        id: format!("challenge-{}", challenge.name()),
        title: format!("Fix it yourself ({}): {}", challenge.article(), challenge.task()),
        sentence: sentence(measured.len(), wrong.len(), faster),
        fixes,
        wrong,
        median: median
            .map(|median| Mark { text: format!("class median {}", value_text(median, "x")), pct: scale.pct(median) }),
        goal: goal.map(|goal| Mark { text: format!("median goal {}", value_text(goal, "x")), pct: scale.pct(goal) }),
        article: claim.map(|(id, low, high)| Band {
            text: format!("the article's fix ({id}): {}", value_text(low, "x")),
            from_pct: scale.pct(low),
            width_pct: format!("{:.2}", scale.share(high) - scale.share(low)),
        }),
        ticks: scale.ticks("x"),
    }
}

fn speedup(result: &ChallengeResult) -> f64 {
    result.speedup.map_or(f64::NAN, |ratio| ratio.value)
}

/// "9 correct fixes, 2 wrong; 7 read faster than the baseline."
fn sentence(correct: usize, wrong: usize, faster: usize) -> String {
    if correct + wrong == 0 {
        return "No seat has sent a fix yet.".into();
    }
    let fixes = |count: usize| if count == 1 { "1 correct fix".to_string() } else { format!("{count} correct fixes") };
    format!("{}, {wrong} wrong; {faster} read faster than the baseline by the one rule.", fixes(correct))
}
