//! What a check sends to the room: the seat, the challenge, whether the fix was correct (and
//! if not, what it lost), the speed-up with its interval, the goal, the reading, and a short
//! description the student gives. The room stores only a result that passes [`ChallengeResult::validate`].

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::check::{reading, Checked};
use super::Challenge;
use crate::error::ConfigError;
use crate::judgement::Status;
use crate::stats::Ratio;

/// The longest description a student may give (a line on the board).
pub const MAX_DESCRIPTION_CHARS: usize = 120;
/// The statuses a challenge reads as faster.
const FASTER: [Status; 3] = [Status::Reproduced, Status::Smaller, Status::Larger];

/// The longest "what was lost" a refused fix carries.
const MAX_WRONG_CHARS: usize = 300;

/// One seat's checked fix, as sent to the room.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChallengeResult {
    pub seat: String,
    pub challenge: Challenge,
    /// What the correctness check found lost; `None` for a correct fix.
    pub wrong: Option<String>,
    /// The student's version over the baseline (a correct fix only).
    pub speedup: Option<Ratio>,
    /// The reference fix over the baseline on the same machine.
    pub goal: Option<Ratio>,
    /// How the one rule read it ([`reading`]): "faster, reaching the goal", "slower", ...
    pub reading: String,
    /// The student's own words on what they changed.
    pub description: String,
}

impl ChallengeResult {
    /// The result of `checked` for `seat`, with the student's `description`.
    pub fn of(checked: &Checked, seat: &str, description: &str) -> Result<Self, ConfigError> {
        let verdict = checked.verdict.as_ref();
        let result = Self {
            seat: seat.trim().to_string(),
            challenge: checked.challenge,
            wrong: checked.wrong.clone(),
            speedup: verdict.and_then(|verdict| verdict.speedup),
            goal: verdict.and_then(|verdict| verdict.goal),
            reading: verdict.map_or("wrong", |verdict| reading(verdict.judgement.status)).to_string(),
            description: description.trim().to_string(),
        };
        result.validate()?;
        Ok(result)
    }

    /// Writes the result whole to `folder/NAME.json` (a staged file, then a rename), where
    /// `contention challenge NAME --result FILE` reads it; the file written.
    pub fn save(&self, folder: &Path) -> Result<PathBuf, String> {
        std::fs::create_dir_all(folder).map_err(|error| format!("creating {}: {error}", folder.display()))?;
        let path = folder.join(format!("{}.json", self.challenge));
        let staged = folder.join(format!(".{}.json.staged", self.challenge));
        let json = serde_json::to_vec_pretty(self).map_err(|error| format!("encoding the result: {error}"))?;
        std::fs::write(&staged, json).map_err(|error| format!("writing {}: {error}", staged.display()))?;
        std::fs::rename(&staged, &path).map_err(|error| format!("keeping {}: {error}", path.display()))?;
        Ok(path)
    }

    /// A correct fix the rule read as faster (reaching, short of or past the goal).
    pub fn faster(&self) -> bool {
        self.wrong.is_none() && FASTER.iter().any(|&status| reading(status) == self.reading)
    }

    /// Every field within what a check can send: a seat, a description of at most
    /// [`MAX_DESCRIPTION_CHARS`] printable characters, a reading the rule gives, and ratios
    /// that are finite, positive and inside their intervals; a refused fix carries no speed-up.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let printable = |text: &str| !text.chars().any(char::is_control);
        if self.seat.is_empty() || self.seat.chars().count() > 40 || !printable(&self.seat) {
            return Err(ConfigError::new("seat", &self.seat, "a seat label of 1 to 40 printable characters"));
        }
        if self.description.chars().count() > MAX_DESCRIPTION_CHARS || !printable(&self.description) {
            let allowed = format!("at most {MAX_DESCRIPTION_CHARS} printable characters on one line");
            return Err(ConfigError::new("description", &self.description, allowed));
        }
        let readings: Vec<&str> = Status::ALL.iter().map(|&status| reading(status)).chain(["wrong"]).collect();
        if !readings.contains(&self.reading.as_str()) {
            return Err(ConfigError::new("reading", &self.reading, format!("one of: {}", readings.join("; "))));
        }
        match &self.wrong {
            Some(wrong) if wrong.is_empty() || wrong.chars().count() > MAX_WRONG_CHARS || !printable(wrong) => Err(
                ConfigError::new("wrong", wrong, format!("what was lost, 1 to {MAX_WRONG_CHARS} printable characters")),
            ),
            Some(_) if self.speedup.is_some() || self.reading != "wrong" => {
                Err(ConfigError::new("speedup", "present", "none for a fix refused on correctness, read \"wrong\""))
            }
            None if self.reading == "wrong" => {
                Err(ConfigError::new("reading", "wrong", "a measured reading for a correct fix"))
            }
            _ => {
                [("speedup", self.speedup), ("goal", self.goal)]
                    .into_iter()
                    .try_for_each(|(field, ratio)| check_ratio(field, ratio))?;
                match self.speedup {
                    Some(ratio) if self.faster() && ratio.low <= 1.0 => Err(ConfigError::new(
                        "reading",
                        &self.reading,
                        "a faster reading only with a speed-up whose interval lies above 1x (never on noise)",
                    )),
                    None if self.faster() => {
                        Err(ConfigError::new("reading", &self.reading, "a faster reading only with its speed-up"))
                    }
                    _ => Ok(()),
                }
            }
        }
    }
}

fn check_ratio(field: &'static str, ratio: Option<Ratio>) -> Result<(), ConfigError> {
    let Some(ratio) = ratio else { return Ok(()) };
    let sane =
        [ratio.value, ratio.low, ratio.high].iter().all(|value| value.is_finite() && *value > 0.0 && *value < 1e6)
            && ratio.low <= ratio.value
            && ratio.value <= ratio.high;
    if sane {
        Ok(())
    } else {
        let value = format!("{} ({}–{})", ratio.value, ratio.low, ratio.high);
        Err(ConfigError::new(field, value, "a positive finite ratio inside its interval (low <= value <= high)"))
    }
}
