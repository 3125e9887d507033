//! What the room decides beside its packs, kept in `DIR/.room.json`: each kept pack's
//! status ([`super::kept`]), the runs the teacher removed before packs were recorded, the
//! seats' guesses per effect, whether the guesses are revealed, and the class's loop (seat
//! tokens, the open part: [`super::seats`]). Written
//! whole (into the staging folder, then renamed over the old one, and the folder flushed),
//! read back and checked on start, so a restart keeps every removal and guess.

use std::fs;
use std::io::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use contention::present::room::effects;
use serde::{Deserialize, Serialize};

use super::kept::{KeptPack, KeptStatus};

const LEDGER: &str = ".room.json";
const STAGED: &str = ".incoming/room.json";

/// Seats whose guesses a room keeps: as many as the runs a room holds (`state::MAX_RUNS`).
const MAX_GUESSING_SEATS: usize = 500;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ledger {
    /// Kept file names the teacher removed before the room recorded its packs: shown as
    /// removed, never read again.
    pub removed: Vec<String>,
    /// Whether the projector shows the guesses.
    pub revealed: bool,
    pub guesses: Vec<Guess>,
    /// Every pack the room kept, with its status ([`super::kept`]): a restart reads these.
    #[serde(default)]
    pub packs: Vec<KeptPack>,
    /// Each seat's latest checked fix of each challenge ([`super::challenges`]).
    #[serde(default)]
    pub challenges: Vec<contention::challenge::ChallengeResult>,
    /// Who holds each seat, the open part and whether guesses are sealed ([`super::seats`]).
    #[serde(default)]
    pub class: super::seats::ClassLoop,
}

/// One seat's guess of one effect, in the effect's unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Guess {
    pub seat: String,
    pub effect: String,
    pub value: f64,
}

impl Ledger {
    /// The ledger kept in `dir`, or an empty one where none was written yet.
    pub fn load(dir: &Path) -> Result<Self> {
        let path = dir.join(LEDGER);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(error) => return Err(error).with_context(|| format!("reading {}", path.display())),
        };
        let ledger: Self = serde_json::from_str(&text).with_context(|| {
            format!(
                "{} is not the room's ledger (move it away to start without its removals and guesses)",
                path.display()
            )
        })?;
        for guess in &ledger.guesses {
            check_guess(&guess.seat, &guess.effect, guess.value)
                .map_err(|why| anyhow::anyhow!("{} holds a guess the room refuses: {why}", path.display()))?;
        }
        for result in &ledger.challenges {
            check_challenge(result).map_err(|why| {
                anyhow::anyhow!("{} holds a challenge result the room refuses: {why}", path.display())
            })?;
        }
        ledger.class.check().map_err(|why| anyhow::anyhow!("{} holds {why}", path.display()))?;
        Ok(ledger)
    }

    /// Writes the ledger whole into `dir`.
    pub fn save(&self, dir: &Path) -> Result<()> {
        let (staged, path) = (dir.join(STAGED), dir.join(LEDGER));
        let json = serde_json::to_vec_pretty(self).context("encoding the room's ledger")?;
        let mut file = fs::File::create(&staged).with_context(|| format!("creating {}", staged.display()))?;
        file.write_all(&json)
            .and_then(|()| file.sync_all())
            .with_context(|| format!("writing {}", staged.display()))?;
        fs::rename(&staged, &path).with_context(|| format!("keeping {}", path.display()))?;
        fs::File::open(dir).and_then(|folder| folder.sync_all()).with_context(|| format!("flushing {}", dir.display()))
    }

    /// Sets `seat`'s guess of `effect` (replacing an earlier one), after checking it and
    /// that it lies within the effect's plausible values.
    pub fn guess(&mut self, seat: &str, effect: &str, value: f64) -> Result<(), String> {
        check_guess(seat, effect, value)?;
        check_plausible(effect, value)?;
        self.guesses.retain(|guess| guess.seat != seat || guess.effect != effect);
        let most = MAX_GUESSING_SEATS * effects().len();
        if self.guesses.len() >= most {
            return Err(format!("the room holds {most} guesses, the most it takes"));
        }
        self.guesses.push(Guess { seat: seat.into(), effect: effect.into(), value });
        Ok(())
    }
}

/// `Err` says why the room refuses the guess: a seat that is not a label, an effect it does
/// not compare, or a figure that is not a positive number.
pub fn check_guess(seat: &str, effect: &str, value: f64) -> Result<(), String> {
    contention::runs::check_label(seat).map_err(|error| error.to_string())?;
    let ids: Vec<&str> = effects().iter().map(|effect| effect.id).collect();
    if !ids.contains(&effect) {
        return Err(format!("invalid effect = {effect:?}: one of {}", ids.join(", ")));
    }
    if !(value.is_finite() && value > 0.0) {
        return Err(format!("invalid guess = {value}: a positive number, in the effect's unit"));
    }
    Ok(())
}

/// `Err` says why the room refuses a challenge result: a seat that is not a label, or a field
/// out of what a check sends.
pub fn check_challenge(result: &contention::challenge::ChallengeResult) -> Result<(), String> {
    contention::runs::check_label(&result.seat).map_err(|error| error.to_string())?;
    result.validate().map_err(|error| error.to_string())
}

/// `Err` names the plausible values of `effect` when `value` lies outside them (a guess kept
/// before the room checked this is still drawn: the scale bounds it).
fn check_plausible(effect: &str, value: f64) -> Result<(), String> {
    let Some(effect) = effects().into_iter().find(|known| known.id == effect) else { return Ok(()) };
    let plausible = effect.plausible;
    if plausible.holds(value) {
        return Ok(());
    }
    let unit = if effect.unit == "x" { "x".to_string() } else { format!(" {}", effect.unit) };
    Err(format!(
        "invalid guess of {} = {}: a machine shows from {}{unit} to {}{unit}",
        effect.id,
        written(value),
        plausible.low(),
        plausible.high()
    ))
}

/// `value` as written, in scientific notation where plain digits would run long.
fn written(value: f64) -> String {
    if (1e-6..1e9).contains(&value.abs()) {
        format!("{value}")
    } else {
        format!("{value:e}")
    }
}

/// The records of the packs the room kept ([`KeptPack`]).
impl Ledger {
    /// The record of the kept pack `file`.
    pub fn kept(&self, file: &str) -> Option<&KeptPack> {
        self.packs.iter().find(|pack| pack.file == file)
    }

    /// Records `file` (or sets its record) as `status`.
    pub fn record(&mut self, file: &str, label: &str, bytes: u64, status: KeptStatus) {
        match self.packs.iter_mut().find(|pack| pack.file == file) {
            Some(pack) => pack.status = status,
            None => self.packs.push(KeptPack { file: file.into(), label: label.into(), bytes, status }),
        }
    }

    /// Forgets the packs `files` (purged from the folder).
    pub fn forget(&mut self, files: &[String]) {
        self.packs.retain(|pack| !files.contains(&pack.file));
        self.removed.retain(|file| !files.contains(file));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ledger_is_written_whole_and_read_back_checked() {
        let dir = std::env::temp_dir().join(format!("contention-room-ledger-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join(".incoming")).unwrap();
        assert_eq!(Ledger::load(&dir).unwrap(), Ledger::default());
        let mut ledger = Ledger { revealed: true, ..Ledger::default() };
        ledger.guess("seat-1", "false-sharing", 3.0).unwrap();
        ledger.guess("seat-1", "false-sharing", 4.0).unwrap();
        assert_eq!(ledger.guesses.len(), 1, "a new guess replaces the seat's old one");
        assert!(ledger.guess("seat-1", "speed", 1.0).unwrap_err().starts_with("invalid effect = \"speed\": one of "));
        assert_eq!(
            ledger.guess("seat-1", "padded", -1.0).unwrap_err(),
            "invalid guess = -1: a positive number, in the effect's unit"
        );
        assert_eq!(
            ledger.guess("seat-1", "false-sharing", 1.5e308).unwrap_err(),
            "invalid guess of false-sharing = 1.5e308: a machine shows from 0.001x to 1000x"
        );
        assert!(ledger
            .guess("seat-1", "pool-p99-8", 5e-324)
            .unwrap_err()
            .ends_with("= 5e-324: a machine shows from 0.001 ms to 1000000 ms"));
        ledger.save(&dir).unwrap();
        assert_eq!(Ledger::load(&dir).unwrap(), ledger);
        fs::write(dir.join(LEDGER), "{\"removed\": 3}").unwrap();
        let error = format!("{:#}", Ledger::load(&dir).unwrap_err());
        assert!(error.contains("is not the room's ledger"), "{error}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
