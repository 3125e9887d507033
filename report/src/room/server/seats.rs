//! A seat owns what it sends: runs, guesses, checked fixes, its check before the day. Its
//! first send or guess with the class code hands it a seat token (in the answer's
//! `X-Seat-Token` header and on its second line), which the laptop keeps and sends back; a
//! later send or guess for that seat without it is refused with
//! why, until the teacher frees the seat. The teacher key acts for any seat.
//!
//! A seat's guess of an effect is locked once its run with that effect has arrived, and
//! every guess once the teacher has revealed them (sealed: a later hide does not reopen
//! them). Tokens and the seal are kept in the room's ledger ([`ClassLoop`]), so a restart
//! keeps who holds which seat.

use contention::present::room::part_screen::Screen;
use serde::{Deserialize, Serialize};

use super::code;
use super::reply::Role;

/// Seats a room hands tokens to: as many as the runs it holds (`state::MAX_RUNS`).
const MAX_SEATS_HELD: usize = 500;

/// The class's loop as the ledger keeps it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassLoop {
    /// Each held seat and its token.
    pub tokens: Vec<SeatToken>,
    /// Set by the first reveal: no guess changes after it.
    pub sealed: bool,
    /// The part the teacher opened, and its screen ([`super::parts`]).
    #[serde(default)]
    pub part: Option<OpenPart>,
    /// The parts whose reveal the teacher opened: their guesses are shown and locked.
    #[serde(default)]
    pub revealed_parts: Vec<String>,
    /// Each seat's last `contention check` verdict before the day (`POST /ready`).
    #[serde(default)]
    pub readiness: Vec<Readiness>,
}

/// A seat's `contention check` verdict line: "ready", or "not ready: fix build, threads".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Readiness {
    pub seat: String,
    pub line: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatToken {
    pub seat: String,
    pub token: String,
}

/// The longest verdict line kept: "not ready: fix" and every check's name.
pub const MAX_LINE_CHARS: usize = 200;

/// `Err` says why `line` is no verdict of `contention check`.
pub fn check_readiness_line(line: &str) -> Result<(), String> {
    let verdict = line == "ready" || line.starts_with("not ready: ");
    let printable = line.chars().count() <= MAX_LINE_CHARS && !line.chars().any(char::is_control);
    match verdict && printable {
        true => Ok(()),
        false => Err(format!(
            "invalid readiness = {:?}: `ready` or `not ready: ...`, one line of at most {MAX_LINE_CHARS} characters",
            contention::runs::visible(&line.chars().take(MAX_LINE_CHARS).collect::<String>())
        )),
    }
}

impl ClassLoop {
    /// `Err` says what in a ledger read back is not a seat's token or part.
    pub fn check(&self) -> Result<(), String> {
        for held in &self.tokens {
            contention::runs::check_label(&held.seat).map_err(|error| format!("a seat token of {error}"))?;
            if code::check(&held.token).is_err() {
                return Err(format!("a seat token for {} that the room did not hand out", held.seat));
            }
        }
        for checked in &self.readiness {
            contention::runs::check_label(&checked.seat).map_err(|error| format!("a readiness of {error}"))?;
            check_readiness_line(&checked.line).map_err(|why| format!("{}'s readiness: {why}", checked.seat))?;
        }
        let parts = self.part.iter().map(|part| part.id.as_str()).chain(self.revealed_parts.iter().map(String::as_str));
        for id in parts {
            contention::present::room::quantities::part(id)
                .ok_or_else(|| format!("a part the room has not: {id:?}"))?;
        }
        Ok(())
    }

    /// The part whose reveal showed `effect`'s guesses, if one did.
    pub fn revealed_in(&self, effect: &str) -> Option<&str> {
        let part = contention::present::room::quantities::part_of(effect)?;
        self.revealed_parts.iter().any(|id| id == part.id).then_some(part.id)
    }

    /// Whether `role`, carrying `token`, may send or guess for `seat`: `Ok(true)` when the
    /// seat is free and must be handed a token, `Ok(false)` when it may go on as it is.
    pub fn may_act(&self, seat: &str, role: Role, token: Option<&str>) -> Result<bool, String> {
        let held = self.tokens.iter().find(|held| held.seat == seat);
        match (role, held, token) {
            (Role::Teacher, _, _) => Ok(false),
            (Role::Student, None, _) => Ok(true),
            (Role::Student, Some(held), Some(given)) if code::matches(&held.token, given) => Ok(false),
            (Role::Student, Some(_), given) => Err(format!(
                "{seat} is held by the laptop that first sent or guessed for it, and this request {}: send from that \
                 laptop (`--send`, `send`, `guess`, `room predict`, `challenge` and `check --code` keep the seat's token), or ask \
                 the teacher to free {seat}",
                if given.is_some() { "carries another seat token" } else { "carries no seat token" }
            )),
        }
    }

    /// A fresh token for `seat`, kept.
    pub fn hand_out(&mut self, seat: &str) -> Result<String, String> {
        if self.tokens.len() >= MAX_SEATS_HELD {
            return Err(format!("the room holds {MAX_SEATS_HELD} seats' tokens, the most it takes"));
        }
        let token = code::seat_token();
        self.tokens.push(SeatToken { seat: seat.to_string(), token: token.clone() });
        Ok(token)
    }

    /// Frees `seat`: its next send or guess is handed a new token.
    pub fn free(&mut self, seat: &str) -> Result<(), String> {
        let before = self.tokens.len();
        self.tokens.retain(|held| held.seat != seat);
        match self.tokens.len() < before {
            true => Ok(()),
            false => Err(format!("{seat} holds no token: it is free already")),
        }
    }
}

/// The open part and which of its three screens is up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenPart {
    pub id: String,
    pub screen: Screen,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_seat_takes_only_its_token_or_the_teachers_key() {
        let mut class = ClassLoop::default();
        assert_eq!(class.may_act("seat-01", Role::Student, None), Ok(true));
        let token = class.hand_out("seat-01").unwrap();
        assert_eq!(class.may_act("seat-01", Role::Student, Some(&token)), Ok(false));
        let refused = class.may_act("seat-01", Role::Student, None).unwrap_err();
        assert!(
            refused.starts_with("seat-01 is held by the laptop that first sent") && refused.contains("no seat token")
        );
        let other = class.may_act("seat-01", Role::Student, Some("abcdefghjkmnpqrs")).unwrap_err();
        assert!(other.contains("carries another seat token"), "{other}");
        assert_eq!(class.may_act("seat-01", Role::Teacher, None), Ok(false));
        assert_eq!(class.may_act("seat-02", Role::Student, Some(&token)), Ok(true), "a token is one seat's");
        class.free("seat-01").unwrap();
        assert_eq!(class.may_act("seat-01", Role::Student, None), Ok(true));
        assert_eq!(class.free("seat-01").unwrap_err(), "seat-01 holds no token: it is free already");
        assert!(class.check().is_ok());
        class.tokens.push(SeatToken { seat: "seat-02".into(), token: "a b".into() });
        assert_eq!(class.check().unwrap_err(), "a seat token for seat-02 that the room did not hand out");
    }
}
