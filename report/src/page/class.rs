//! The room's class pages (`contention room serve`): the class page (one sentence per
//! effect across the class, the roster, one short row per seat with its hardware, each
//! seat's full report behind its link) and the projector view (one effect per screen).
//! The lib computes every figure and sentence ([`contention::present::room::class`] and
//! [`contention::present::room::projector`]); this only fills them into templates.

use anyhow::{Context, Result};
use contention::present::room::class::{class_columns, class_effects, class_row, ClassCell, Seat};
use contention::present::room::projector::{slides, Guesses, Slide};
use contention::present::room::roster::RosterStatus;
use contention::present::Strip;
use minijinja::context;
use serde::Serialize;

use super::live::LiveView;
use super::templates;

/// What the class page shows beside the seats.
#[derive(Debug)]
pub struct ClassInputs<'a> {
    pub seats: &'a [Seat],
    /// Each seat's link to its own page, aligned with `seats` (`None`: no link, offline).
    pub seat_hrefs: Vec<Option<String>>,
    pub roster: Option<RosterStatus>,
    /// Runs not shown, each with why.
    pub skipped: Vec<String>,
    pub generated_utc: String,
    /// The live room's list, form and script; `None` on a page written to a file.
    pub live: Option<LiveView>,
}

#[derive(Debug, Serialize)]
struct ClassView {
    title: String,
    generated_utc: String,
    verdicts: String,
    sentences: Vec<String>,
    columns: Vec<String>,
    rows: Vec<SeatRow>,
    roster: Option<RosterStatus>,
    skipped: Vec<String>,
    live: Option<LiveView>,
}

#[derive(Debug, Serialize)]
struct SeatRow {
    label: String,
    href: Option<String>,
    cells: Vec<ClassCell>,
    /// The seat's claims at a glance, a line of tiles per article.
    strip: Option<Strip>,
}

/// "Contention Lab: a class of 25 seats".
pub fn class_title(seats: usize) -> String {
    match seats {
        1 => "Contention Lab: a class of 1 seat".into(),
        many => format!("Contention Lab: a class of {many} seats"),
    }
}

/// The class page.
pub fn render_class(inputs: ClassInputs) -> Result<String> {
    let rows = inputs
        .seats
        .iter()
        .zip(inputs.seat_hrefs)
        .map(|(seat, href)| SeatRow {
            label: seat.label().to_string(),
            href,
            cells: class_row(seat),
            strip: seat.strip.clone(),
        })
        .collect();
    let view = ClassView {
        title: class_title(inputs.seats.len()),
        generated_utc: inputs.generated_utc,
        verdicts: contention::present::room::class::verdict_counts(inputs.seats),
        sentences: class_effects(inputs.seats).iter().map(|effect| effect.sentence()).collect(),
        columns: class_columns(),
        rows,
        roster: inputs.roster,
        skipped: inputs.skipped,
        live: inputs.live,
    };
    templates()?.get_template("class.html")?.render(context! { page => view }).context("rendering the class page")
}

#[derive(Debug, Serialize)]
struct ProjectorView {
    title: String,
    version: u64,
    slides: Vec<Slide>,
    /// The challenge board: one more screen per challenge, after the effects'.
    challenges: Vec<contention::present::room::challenge_board::BoardScreen>,
}

/// The seats' checked fixes, and the roster that marks the seats it does not name.
#[derive(Debug, Clone, Copy)]
pub struct ChallengeInputs<'a> {
    pub results: &'a [contention::challenge::ChallengeResult],
    pub roster: Option<&'a [String]>,
}

/// The projector view: one slide per effect, first the first effect's, then the challenge board.
pub fn render_projector(seats: &[Seat], guesses: Guesses, challenges: ChallengeInputs, version: u64) -> Result<String> {
    let claims = contention::reference::claims().context("reading the articles' claims")?;
    let view = ProjectorView {
        title: class_title(seats.len()),
        version,
        slides: slides(&class_effects(seats), &claims, guesses),
        challenges: contention::present::room::challenge_board::board(challenges.results, &claims, challenges.roster),
    };
    templates()?.get_template("projector.html")?.render(context! { page => view }).context("rendering the projector")
}
