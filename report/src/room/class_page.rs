//! The room's class pages (`contention room serve`): the class page (one sentence per
//! effect across the class, the roster, the challenge board as a line per seat's fix, one
//! short row per seat with its hardware, each seat's full report behind its link) and the
//! projector view (one effect per screen).
//! The lib computes every figure and sentence ([`contention::present::room::class`] and
//! [`contention::present::room::projector`]); this only fills them into templates.

use anyhow::{Context, Result};
use contention::present::room::challenge_board::{board, BoardScreen};
use contention::present::room::class::{class_columns, class_effects, class_row, ClassCell, Seat};
use contention::present::room::part_screen::PartScreen;
use contention::present::room::projector::{slides, Guesses, Slide};
use contention::present::room::roster::RosterStatus;
use contention::present::Strip;
use minijinja::context;
use serde::Serialize;

use super::live_page::LiveView;
use crate::page::templates;

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
    /// The seats' checked fixes: the challenge board, a line per fix.
    pub challenges: ChallengeInputs<'a>,
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
    /// The challenges some seat sent a fix of, as the projector's board shows them.
    challenges: Vec<BoardScreen>,
    /// Each status letter's tile colours, one CSS rule each: a seat's 42 tiles then carry a
    /// class, not an inline style (a class of 25 would otherwise send 100 KiB of them).
    tile_colors: Vec<TileColor>,
}

#[derive(Debug, Serialize)]
struct TileColor {
    letter: char,
    color: String,
    ink: String,
}

fn tile_colors() -> Vec<TileColor> {
    contention::judgement::Status::ALL
        .iter()
        .map(|&status| {
            let color = contention::chart::status_color(status);
            TileColor {
                letter: status.letter(),
                color: contention::chart::hex(color),
                ink: contention::chart::hex(contention::chart::ink_on(color)),
            }
        })
        .collect()
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
        challenges: board_of(inputs.challenges)?
            .into_iter()
            .filter(|screen| !screen.fixes.is_empty() || !screen.wrong.is_empty())
            .collect(),
        tile_colors: tile_colors(),
    };
    templates()?.get_template("class.html")?.render(context! { page => view }).context("rendering the class page")
}

/// The challenge board of `challenges`: a screen per challenge, against the articles' claims.
fn board_of(challenges: ChallengeInputs) -> Result<Vec<BoardScreen>> {
    let claims = contention::reference::claims().context("reading the articles' claims")?;
    Ok(board(challenges.results, &claims, challenges.roster))
}

/// What the projector shows: the seats and their guesses, the open part's screen.
#[derive(Debug)]
pub struct ProjectorInputs<'a> {
    pub seats: &'a [Seat],
    /// (seat, effect id, value).
    pub guesses: Vec<(String, String, f64)>,
    /// Every guess shown (the teacher's reveal of all).
    pub revealed: bool,
    /// The effects whose part's reveal was opened.
    pub revealed_effects: Vec<&'static str>,
    /// The part the teacher opened, on its screen; `None`: every effect's slide.
    pub part: Option<PartScreen>,
    /// The teacher's screen: the part's controls are shown.
    pub teacher: bool,
    pub version: u64,
    /// The seats' checked fixes, for the challenge board.
    pub challenges: ChallengeInputs<'a>,
}

/// The seats' checked fixes, and the roster that marks the seats it does not name.
#[derive(Debug, Clone, Copy)]
pub struct ChallengeInputs<'a> {
    pub results: &'a [contention::challenge::ChallengeResult],
    pub roster: Option<&'a [String]>,
}

#[derive(Debug, Serialize)]
struct ProjectorView {
    title: String,
    version: u64,
    /// Changes when the teacher opens another part or screen: the page then reloads whole.
    shown: String,
    slides: Vec<Slide>,
    /// The challenge board: one more screen per challenge, after the effects'.
    challenges: Vec<BoardScreen>,
    part: Option<PartScreen>,
    teacher: bool,
    parts: Vec<(&'static str, &'static str)>,
}

/// The projector view: the open part's screen (its reveal: its effects' slides), or with no
/// part open one slide per effect, first the first effect's.
pub fn render_projector(inputs: ProjectorInputs) -> Result<String> {
    let claims = contention::reference::claims().context("reading the articles' claims")?;
    let guesses =
        Guesses { all: &inputs.guesses, revealed: inputs.revealed, revealed_effects: &inputs.revealed_effects };
    let mut slides = slides(&class_effects(inputs.seats), &claims, guesses);
    if let Some(part) = &inputs.part {
        slides.retain(|slide| part.revealed.contains(&slide.id));
    }
    let shown = inputs.part.as_ref().map_or("all".into(), |part| format!("{}-{}", part.id, part.screen.word()));
    let view = ProjectorView {
        title: class_title(inputs.seats.len()),
        version: inputs.version,
        shown,
        slides,
        part: inputs.part,
        teacher: inputs.teacher,
        parts: contention::present::room::quantities::PARTS.iter().map(|part| (part.id, part.title)).collect(),
        challenges: board(inputs.challenges.results, &claims, inputs.challenges.roster),
    };
    templates()?.get_template("projector.html")?.render(context! { page => view }).context("rendering the projector")
}
