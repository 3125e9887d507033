//! The projector view's model: one slide per effect, each seat's figure as a bar with its
//! interval (highest first), the class's median, and the article's figure as a line (a band
//! where the article gives a range). Positions are percentages of one log scale per slide,
//! computed here so the renderer only places them.
//!
//! The order is the figures' order when the slide is drawn; the page's script then keeps it
//! and appends seats that arrive later, so a bar the audience is reading never moves.

use serde::Serialize;

use super::class::{value_text, ClassEffect};
use super::estimate_text;
use crate::reference::ClaimReference;
use crate::scale::LogScale;

/// One screen of the projector view.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Slide {
    /// The effect's id: the slide's anchor in the URL.
    pub id: &'static str,
    pub title: String,
    /// The class sentence.
    pub sentence: String,
    /// Highest figure first.
    pub bars: Vec<Bar>,
    pub median: Option<Mark>,
    pub article: Option<Band>,
    /// Scale marks along the axis.
    pub ticks: Vec<Mark>,
    /// "7 seats have guessed" before the reveal; after it, the guesses against the figures.
    pub guesses: String,
}

/// The seats' guesses, as the room keeps them, and whether they are revealed.
#[derive(Debug, Clone, Copy)]
pub struct Guesses<'a> {
    /// (seat, effect id, value in the effect's unit).
    pub all: &'a [(String, String, f64)],
    /// Every effect's guesses are shown.
    pub revealed: bool,
    /// The effects whose part's reveal the teacher opened (their guesses are shown).
    pub revealed_effects: &'a [&'a str],
}

impl Guesses<'_> {
    fn shown(&self, effect: &str) -> bool {
        self.revealed || self.revealed_effects.contains(&effect)
    }
}

/// One seat's figure: the bar runs from the axis to the median, the whisker over its interval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Bar {
    pub label: String,
    /// "3.87x (3.52x–4.10x)".
    pub text: String,
    pub value_pct: String,
    pub low_pct: String,
    pub width_pct: String,
    /// The seat's guess, once revealed.
    pub guess: Option<Mark>,
}

/// A labelled place on the scale.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mark {
    pub text: String,
    pub pct: String,
}

/// A labelled stretch of the scale (a point where `width_pct` is "0.0").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Band {
    pub text: String,
    pub from_pct: String,
    pub width_pct: String,
}

/// The slide's log scale ([`crate::scale`]: bounded for any values), its positions as
/// percentages with two decimals.
pub(super) struct Scale(LogScale);

impl Scale {
    /// A scale holding every value of `values` with a margin of a quarter on each side.
    pub(super) fn holding(values: impl Iterator<Item = f64>) -> Self {
        Self(LogScale::holding(values, 1.25, 1.6).unwrap_or(LogScale::new(0.5, 2.0)))
    }

    pub(super) fn share(&self, value: f64) -> f64 {
        self.0.percent(value)
    }

    pub(super) fn pct(&self, value: f64) -> String {
        format!("{:.2}", self.share(value))
    }

    /// 1-2-5 marks inside the scale, at most about eight (else its powers of ten).
    pub(super) fn ticks(&self, unit: &str) -> Vec<Mark> {
        self.0.marks(8).into_iter().map(|value| Mark { text: value_text(value, unit), pct: self.pct(value) }).collect()
    }
}

/// The slides of `class`, one per effect in its order; `claims` gives the article's figures.
pub fn slides(class: &[ClassEffect], claims: &[ClaimReference], guesses: Guesses) -> Vec<Slide> {
    class.iter().map(|effect| slide(effect, claims, guesses)).collect()
}

fn slide(class: &ClassEffect, claims: &[ClaimReference], guesses: Guesses) -> Slide {
    let effect = class.effect;
    let article = effect.claim.and_then(|id| claims.iter().find(|claim| claim.id == id)).and_then(|claim| {
        let (low, high) = claim.range()?;
        Some((claim.id.clone(), low, if high.is_finite() { high } else { low }))
    });
    let guessed: Vec<(&str, f64)> = guesses
        .all
        .iter()
        .filter(|(_, effect, _)| effect == class.effect.id)
        .map(|(seat, _, value)| (seat.as_str(), *value))
        .collect();
    let revealed = guesses.shown(effect.id);
    let shown_guesses = if revealed { guessed.as_slice() } else { &[] };
    let ends = class.measured.iter().flat_map(|(_, value)| [value.low, value.high, value.value]);
    let ends = ends.chain(article.iter().flat_map(|(_, low, high)| [*low, *high]));
    let scale = Scale::holding(ends.chain(shown_guesses.iter().map(|(_, value)| *value)));
    let guess_of = |seat: &str| shown_guesses.iter().find(|(guesser, _)| *guesser == seat).map(|(_, value)| *value);
    let mut measured = class.measured.clone();
    measured.sort_by(|a, b| b.1.value.total_cmp(&a.1.value));
    let bars = measured
        .iter()
        .map(|(label, value)| Bar {
            label: label.clone(),
            text: estimate_text(effect, value),
            value_pct: scale.pct(value.value),
            low_pct: scale.pct(value.low),
            width_pct: format!("{:.2}", scale.share(value.high) - scale.share(value.low)),
            guess: guess_of(label)
                .map(|guess| Mark { text: format!("guess {}", value_text(guess, effect.unit)), pct: scale.pct(guess) }),
        })
        .collect();
    let unit = effect.unit;
    Slide {
        id: effect.id,
        title: super::upper_first(effect.name),
        sentence: class.sentence(),
        bars,
        median: class
            .median
            .map(|median| Mark { text: format!("class median {}", value_text(median, unit)), pct: scale.pct(median) }),
        article: article.map(|(id, low, high)| Band {
            text: match low == high {
                true => format!("article ({id}): {}", value_text(low, unit)),
                false => format!("article ({id}): {}–{}", value_text(low, unit), value_text(high, unit)),
            },
            from_pct: scale.pct(low),
            width_pct: format!("{:.2}", scale.share(high) - scale.share(low)),
        }),
        ticks: scale.ticks(unit),
        guesses: guesses_text(class, &guessed, revealed),
    }
}

/// Before the reveal, how many seats guessed; after it, the guesses' median against the
/// class's, and how many seats' intervals hold their own guess.
fn guesses_text(class: &ClassEffect, guessed: &[(&str, f64)], revealed: bool) -> String {
    let seats = |count: usize| if count == 1 { "1 seat".to_string() } else { format!("{count} seats") };
    if guessed.is_empty() {
        return "No seat has guessed this effect.".into();
    }
    if !revealed {
        return format!("{} guessed this effect; the guesses are shown at the reveal.", seats(guessed.len()));
    }
    let unit = class.effect.unit;
    let values: Vec<f64> = guessed.iter().map(|(_, value)| *value).collect();
    let median = crate::stats::Summary::of(&values).map_or(f64::NAN, |summary| summary.median);
    let measured = class.median.map_or_else(|| crate::format::NOT_AVAILABLE.into(), |m| value_text(m, unit));
    let checked: Vec<bool> = guessed
        .iter()
        .filter_map(|(seat, guess)| {
            let (_, figure) = class.measured.iter().find(|(label, _)| label == seat)?;
            Some(figure.low <= *guess && *guess <= figure.high)
        })
        .collect();
    format!(
        "Guesses: median {} from {}, against the class's measured median {measured}; {} of {} seats that guessed and \
         measured it guessed within their own interval.",
        value_text(median, unit),
        seats(guessed.len()),
        checked.iter().filter(|inside| **inside).count(),
        checked.len()
    )
}

#[cfg(test)]
mod tests {
    use super::super::class::{class_effects, tests::seat};
    use super::*;

    fn false_sharing_slide(figures: &[f64]) -> Slide {
        let seats: Vec<_> =
            figures.iter().enumerate().map(|(i, v)| seat(&format!("s{i}"), "x86_64", Some(*v))).collect();
        let claims = crate::reference::claims().unwrap();
        let guesses = [("s0".to_string(), "false-sharing".to_string(), 2.1), ("s1".into(), "padded".into(), 9.0)];
        let guesses = Guesses { all: &guesses, revealed: true, revealed_effects: &[] };
        slides(&class_effects(&seats), &claims, guesses).into_iter().find(|slide| slide.id == "false-sharing").unwrap()
    }

    #[test]
    fn bars_run_highest_first_inside_the_scale_with_the_articles_line() {
        let slide = false_sharing_slide(&[2.0, 9.0, 1.1, 4.0]);
        let labels: Vec<&str> = slide.bars.iter().map(|bar| bar.label.as_str()).collect();
        assert_eq!(labels, ["s1", "s3", "s0", "s2"]);
        let pct = |text: &str| text.parse::<f64>().unwrap();
        for bar in &slide.bars {
            let (low, width, value) = (pct(&bar.low_pct), pct(&bar.width_pct), pct(&bar.value_pct));
            assert!(low > 0.0 && low + width < 100.0 && (low..=low + width).contains(&value), "{bar:?}");
        }
        let article = slide.article.expect("A7 gives the article's figure");
        assert_eq!((article.text.as_str(), article.width_pct.as_str()), ("article (A7): 3.87x", "0.00"));
        assert_eq!(slide.median.unwrap().text, "class median 3.00x");
        assert!(slide.ticks.iter().any(|tick| tick.text == "1.00x"), "{:?}", slide.ticks);
        let s0 = slide.bars.iter().find(|bar| bar.label == "s0").unwrap();
        assert_eq!(s0.guess.as_ref().unwrap().text, "guess 2.10x");
        assert!(
            slide.bars.iter().filter(|bar| bar.guess.is_some()).count() == 1,
            "a guess of another effect is not shown"
        );
        assert_eq!(
            slide.guesses,
            "Guesses: median 2.10x from 1 seat, against the class's measured median 3.00x; 1 of 1 seats that guessed \
             and measured it guessed within their own interval."
        );
    }

    #[test]
    fn guesses_stay_hidden_until_the_reveal() {
        let seats = vec![seat("s0", "x86_64", Some(2.0))];
        let all = [("s0".to_string(), "false-sharing".to_string(), 2.1)];
        let claims = crate::reference::claims().unwrap();
        let hidden =
            slides(&class_effects(&seats), &claims, Guesses { all: &all, revealed: false, revealed_effects: &[] });
        let slide = hidden.iter().find(|slide| slide.id == "false-sharing").unwrap();
        assert!(slide.bars[0].guess.is_none());
        assert_eq!(slide.guesses, "1 seat guessed this effect; the guesses are shown at the reveal.");
        let part = slides(
            &class_effects(&seats),
            &claims,
            Guesses { all: &all, revealed: false, revealed_effects: &["false-sharing"] },
        );
        assert!(
            part.iter().find(|slide| slide.id == "false-sharing").unwrap().bars[0].guess.is_some(),
            "the part's reveal shows it"
        );
    }

    #[test]
    fn a_slide_without_figures_still_has_a_scale_and_its_sentence() {
        let slide = false_sharing_slide(&[]);
        assert!(slide.bars.is_empty() && slide.median.is_none());
        assert!(slide.sentence.ends_with("no seat has measured it yet."), "{}", slide.sentence);
    }
}
