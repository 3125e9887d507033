//! The projector's screens for the part the teacher opened, in peer instruction's order:
//! 1. the question: each quantity's question, how many seats guessed and the spread of their
//!    guesses, without any measured figure (the first vote);
//! 2. the runs: how many seats' runs with the part's figures arrived, and who is missing;
//! 3. the reveal: the part's slides ([`super::projector`]) with the guesses shown.

use serde::Serialize;

use super::class::{value_text, Seat};
use super::quantities::{quantity, Part};
use super::roster::Roster;

/// Which of a part's three screens is up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Screen {
    Question,
    Runs,
    Reveal,
}

impl Screen {
    pub const ALL: [Screen; 3] = [Screen::Question, Screen::Runs, Screen::Reveal];

    /// "question", "runs" or "reveal": its key in URLs.
    pub fn word(self) -> &'static str {
        match self {
            Screen::Question => "question",
            Screen::Runs => "runs",
            Screen::Reveal => "reveal",
        }
    }

    pub fn parse(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|screen| screen.word() == word)
    }
}

/// The open part's screen, as the projector shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartScreen {
    pub id: &'static str,
    pub title: &'static str,
    pub notebook: &'static str,
    pub screen: Screen,
    /// "1 of 3: the question".
    pub step: String,
    /// The question screen's lines, one per quantity.
    pub questions: Vec<Asked>,
    /// The runs screen: "14 of 25 seats' runs with ... have arrived".
    pub arrived: String,
    /// The runs screen: the seats still missing, in the roster's order.
    pub missing: Vec<String>,
    /// The quantities whose slides the reveal shows, by id.
    pub revealed: Vec<&'static str>,
}

/// One quantity's question with the guesses in so far, their figures not yet set against
/// any measurement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Asked {
    pub id: &'static str,
    pub question: String,
    pub unit: &'static str,
    /// "12 guesses in: from 1.50x to 20.0x, the middle half 2.00x–5.00x".
    pub spread: String,
}

/// The part's `screen`, from the guesses ((seat, effect id, value)), the shown seats and
/// the roster, if the class has one.
pub fn part_screen(
    part: &'static Part,
    screen: Screen,
    guesses: &[(String, String, f64)],
    seats: &[Seat],
    roster: Option<&Roster>,
) -> PartScreen {
    let step = match screen {
        Screen::Question => "1 of 3: the question (guess before you run)",
        Screen::Runs => "2 of 3: the runs",
        Screen::Reveal => "3 of 3: the reveal",
    };
    let questions = part.quantities.iter().filter_map(|id| asked(id, guesses)).collect();
    let (arrived, missing) = arrivals(part, seats, roster, guesses);
    PartScreen {
        id: part.id,
        title: part.title,
        notebook: part.notebook,
        screen,
        step: step.to_string(),
        questions,
        arrived,
        missing,
        revealed: if screen == Screen::Reveal { part.quantities.to_vec() } else { Vec::new() },
    }
}

fn asked(id: &str, guesses: &[(String, String, f64)]) -> Option<Asked> {
    let quantity = quantity(id)?;
    let unit = quantity.effect()?.unit;
    let mut values: Vec<f64> =
        guesses.iter().filter(|(_, effect, _)| effect == id).map(|(_, _, value)| *value).collect();
    values.sort_by(f64::total_cmp);
    Some(Asked { id: quantity.id, question: quantity.question.to_string(), unit, spread: spread(&values, unit) })
}

/// The guesses' count and spread: lowest, highest, and the middle half from four on.
fn spread(sorted: &[f64], unit: &str) -> String {
    let text = |value: f64| value_text(value, unit);
    match sorted {
        [] => "No guess in yet.".into(),
        [one] => format!("1 guess in: {}.", text(*one)),
        [low, .., high] if sorted.len() < 4 => {
            format!("{} guesses in: from {} to {}.", sorted.len(), text(*low), text(*high))
        }
        [low, .., high] => {
            let quarter = |share: f64| sorted[((sorted.len() - 1) as f64 * share).round() as usize];
            format!(
                "{} guesses in: from {} to {}, the middle half {}–{}.",
                sorted.len(),
                text(*low),
                text(*high),
                text(quarter(0.25)),
                text(quarter(0.75))
            )
        }
    }
}

/// "K of N seats' runs with FIGURE have arrived" and the seats still missing: the roster's
/// seats without it, or without a roster the seats that guessed but sent no such run.
fn arrivals(
    part: &Part,
    seats: &[Seat],
    roster: Option<&Roster>,
    guesses: &[(String, String, f64)],
) -> (String, Vec<String>) {
    let measured = |seat: &Seat| {
        part.quantities.iter().any(|id| seat.effects.effect(id).is_some_and(|value| value.value.is_some()))
    };
    let arrived: Vec<&str> = seats.iter().filter(|seat| measured(seat)).map(Seat::label).collect();
    let expected: Vec<String> = match roster {
        Some(roster) => roster.seats().to_vec(),
        None => {
            let mut guessed: Vec<String> = guesses
                .iter()
                .filter(|(_, effect, _)| part.quantities.contains(&effect.as_str()))
                .map(|(seat, _, _)| seat.clone())
                .collect();
            guessed.extend(arrived.iter().map(|seat| seat.to_string()));
            guessed.sort();
            guessed.dedup();
            guessed
        }
    };
    let named = |seat: &String| roster.map_or_else(|| seat.clone(), |roster| roster.named(seat));
    let missing: Vec<String> = expected.iter().filter(|seat| !arrived.contains(&seat.as_str())).map(named).collect();
    let of = match roster {
        Some(_) => format!(" of {}", expected.len()),
        None => String::new(),
    };
    let runs = if arrived.len() == 1 { "run" } else { "runs" };
    (format!("{}{of} seats' {runs} with {} have arrived.", arrived.len(), part.experiments.join(", ")), missing)
}

#[cfg(test)]
mod tests {
    use super::super::class::tests::seat;
    use super::super::quantities::part;
    use super::*;

    #[test]
    fn the_question_shows_the_spread_and_no_figure() {
        let guesses: Vec<(String, String, f64)> =
            [1.5, 2.0, 3.0, 5.0, 20.0].iter().map(|v| ("s".into(), "false-sharing".into(), *v)).collect();
        let sharing = part("sharing").unwrap();
        let screen = part_screen(sharing, Screen::Question, &guesses, &[], None);
        let asked = screen.questions.iter().find(|asked| asked.id == "false-sharing").unwrap();
        assert_eq!(asked.spread, "5 guesses in: from 1.50x to 20.00x, the middle half 2.00x–5.00x.");
        let other = screen.questions.iter().find(|asked| asked.id == "false-over-true").unwrap();
        assert_eq!(other.spread, "No guess in yet.");
        assert!(screen.revealed.is_empty());
    }

    #[test]
    fn the_runs_screen_names_who_is_missing() {
        let roster = Roster::numbered(3).unwrap();
        let seats = vec![seat("seat-02", "x86_64", Some(3.0))];
        let screen = part_screen(part("sharing").unwrap(), Screen::Runs, &[], &seats, Some(&roster));
        assert_eq!(screen.arrived, "1 of 3 seats' run with sharing have arrived.");
        assert_eq!(screen.missing, ["seat-01", "seat-03"]);
    }
}
