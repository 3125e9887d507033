//! A student's prediction beside this machine's figure: the notebooks' prediction cells hold
//! a [`Prediction`] (a value and a reason), written before the measurement runs, and the cell
//! after it shows [`compared`], a sentence computed from the guess and the measured
//! interval, so it is right on every machine.

use super::room::{estimate_text, Effect, Plausible};
use crate::stats::Ratio;

/// What a student wrote before measuring: a value (`NaN` while the cell is not filled in)
/// and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    pub value: f64,
    pub reason: String,
}

impl Prediction {
    /// A prediction of `value` (an integer is taken where a figure is: `Prediction::new(10,
    /// "...")`) for `reason`.
    pub fn new(value: impl Into<f64>, reason: &str) -> Self {
        Self { value: value.into(), reason: reason.trim().to_string() }
    }

    /// Sends this guess of the room's quantity `id` (`present::room::quantities`) to the
    /// workshop's room through `contention guess`, before the measurement runs; says why
    /// nothing was sent where the cell holds no value or the id is no quantity. What the
    /// command printed, for the cell to print.
    pub fn send_to_room(&self, id: &str) -> String {
        if super::room::quantities::quantity(id).is_none() {
            let ids: Vec<&str> = super::room::quantities::QUANTITIES.iter().map(|quantity| quantity.id).collect();
            return format!("Not sent: {id:?} is no quantity the room shows; one of {}.\n", ids.join(", "));
        }
        match self.written() {
            Some(value) => crate::lab_cli::run(&["guess", &format!("{id}={value}")]),
            None => {
                "Not sent: the prediction cell above holds no value yet (NAN): write yours, run it, then this cell.\n"
                    .to_string()
            }
        }
    }

    fn written(&self) -> Option<f64> {
        self.value.is_finite().then_some(self.value)
    }
}

/// "You predicted 10x for the 8 B stride over the best (each add waits for the line); this
/// machine measured 3.21x (3.02x–3.40x): your guess was 3.1 times too high." `what` names
/// the figure, `unit` is "x" for a ratio or the unit of the value ("ms", "B").
pub fn compared(prediction: &Prediction, what: &'static str, unit: &'static str, measured: &Ratio) -> String {
    let measured_text = estimate_text(
        Effect { id: "prediction", name: what, unit, claim: None, plausible: Plausible::RATIO },
        measured,
    );
    let Some(guess) = prediction.written() else {
        return format!(
            "No prediction was written for {what}; this machine measured {measured_text}. Next time, write a value and \
             a reason in the prediction cell before running the measurement."
        );
    };
    let reason = match prediction.reason.as_str() {
        "" => "no reason given".to_string(),
        reason => reason.to_string(),
    };
    let guess_text = match unit {
        "x" => format!("{}x", crate::format::short_number(guess)),
        unit => format!("{} {unit}", crate::format::short_number(guess)),
    };
    let verdict = if (measured.low..=measured.high).contains(&guess) {
        "inside this machine's interval: right".to_string()
    } else if guess > measured.high {
        off_by("high", guess, measured.value)
    } else {
        off_by("low", guess, measured.value)
    };
    format!("You predicted {guess_text} for {what} ({reason}); this machine measured {measured_text}: {verdict}.")
}

/// "your guess was 3.1 times too high", or the difference where a ratio cannot say it.
fn off_by(direction: &str, guess: f64, measured: f64) -> String {
    let (larger, smaller) = if guess > measured { (guess, measured) } else { (measured, guess) };
    match smaller > 0.0 {
        true => format!("your guess was {} times too {direction}", crate::format::short_number(larger / smaller)),
        false => format!("your guess was {} too {direction}", crate::format::short_number(larger - smaller)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEASURED: Ratio = Ratio { value: 3.0, low: 2.5, high: 3.5 };

    #[test]
    fn a_guess_inside_the_interval_is_right() {
        let text = compared(&Prediction::new(3.2, "lines"), "false sharing", "x", &MEASURED);
        assert!(text.starts_with("You predicted 3.2x for false sharing (lines); this machine measured 3"), "{text}");
        assert!(text.ends_with(": inside this machine's interval: right."), "{text}");
    }

    #[test]
    fn a_guess_outside_says_how_far_and_which_way() {
        let high = compared(&Prediction::new(12.0, ""), "false sharing", "x", &MEASURED);
        assert!(high.contains("(no reason given)") && high.ends_with("your guess was 4 times too high."), "{high}");
        let low = compared(&Prediction::new(1.5, "none"), "the p99", "ms", &MEASURED);
        assert!(low.starts_with("You predicted 1.5 ms for the p99") && low.ends_with("2 times too low."), "{low}");
        let zero = compared(&Prediction::new(0.0, "none"), "the p99", "ms", &MEASURED);
        assert!(zero.ends_with("your guess was 3 too low."), "{zero}");
    }

    #[test]
    fn an_integer_is_a_figure() {
        assert_eq!(Prediction::new(10, "lines"), Prediction::new(10.0, "lines"));
        assert_eq!(Prediction::new(3u8, "").value, 3.0);
    }

    #[test]
    fn an_empty_prediction_cell_is_named_not_compared() {
        let text = compared(&Prediction::new(f64::NAN, ""), "false sharing", "x", &MEASURED);
        assert!(text.starts_with("No prediction was written for false sharing; this machine measured 3"), "{text}");
    }
}
