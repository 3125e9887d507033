//! The roster of a class (`room serve --seats`): the seats the teacher expects, and who of
//! them has sent a run, so the room page says who is still missing. A run's label is its
//! seat; a label the roster does not name (a typo, a guest) is named as not on it.

use serde::Serialize;

use super::seat_name::{seat_key, skeleton};
use crate::error::ConfigError;
use crate::runs::check_label;

/// The most seats a roster names: the runs a room holds.
pub const MAX_SEATS: usize = 500;

/// The seats a class expects, in the teacher's order, and who sits at each where the roster
/// file says (two students sharing a laptop are one seat: `seat-07: Ana, Ben`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roster {
    seats: Vec<String>,
    /// The people at each seat, in the seats' order (none for a numbered roster).
    people: Vec<Vec<String>>,
}

/// Who of the roster has sent, as the class page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RosterStatus {
    /// "18 of 25 seats have sent a run."
    pub summary: String,
    /// The seats without a shown run, in the roster's order.
    pub missing: Vec<String>,
    /// Shown runs whose label the roster does not name.
    pub not_on_roster: Vec<String>,
    /// The laptops' `contention check` before the day ([`Roster::readiness`]), once one sent.
    pub readiness: Option<String>,
}

impl Roster {
    /// Seats `seat-01` to `seat-N` (two digits at least, as the handout's `seat-12`).
    pub fn numbered(count: usize) -> Result<Self, ConfigError> {
        if !(1..=MAX_SEATS).contains(&count) {
            return Err(ConfigError::new("seats", count, format!("1 to {MAX_SEATS} seats, or a file of names")));
        }
        Ok(Self { seats: (1..=count).map(|seat| format!("seat-{seat:02}")).collect(), people: vec![Vec::new(); count] })
    }

    /// One seat per line of `text`, optionally with the people at it after a colon
    /// (`seat-07: Ana, Ben`: a pair sharing a laptop); blank lines skipped, spaces around a
    /// name trimmed. `Err` names the line and why (a name that is no label, a seat given
    /// twice, none, or more than [`MAX_SEATS`]).
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut roster = Self { seats: Vec::new(), people: Vec::new() };
        for (number, line) in text.lines().enumerate().map(|(index, line)| (index + 1, line.trim())) {
            if line.is_empty() {
                continue;
            }
            let (seat, people) = line.split_once(':').map_or((line, ""), |(seat, people)| (seat.trim(), people));
            check_label(seat).map_err(|error| format!("line {number}: {error}"))?;
            let people: Vec<String> =
                people.split(',').map(str::trim).filter(|name| !name.is_empty()).map(String::from).collect();
            if let Some(name) = people.iter().find(|name| check_label(name).is_err()) {
                return Err(format!(
                    "line {number}: the name {:?} is not printable text: a seat, then a colon and the names at it \
                     separated by commas (seat-07: Ana, Ben)",
                    crate::runs::visible(name)
                ));
            }
            if roster.seats.iter().any(|known| seat_key(known) == seat_key(seat)) {
                return Err(format!("line {number}: {seat:?} is named twice; each seat once"));
            }
            if roster.seats.len() == MAX_SEATS {
                return Err(format!("more than {MAX_SEATS} seats; a room holds at most {MAX_SEATS} runs"));
            }
            roster.seats.push(seat.to_string());
            roster.people.push(people);
        }
        if roster.seats.is_empty() {
            return Err("no seat named: one name per line, as each laptop's --label gives it".into());
        }
        Ok(roster)
    }

    pub fn seats(&self) -> &[String] {
        &self.seats
    }

    /// `seat` as the teacher reads it: "seat-07 (Ana, Ben)" where the roster names the
    /// people at it, else the seat.
    pub fn named(&self, seat: &str) -> String {
        match self.seats.iter().position(|known| known == seat).map(|index| &self.people[index]) {
            Some(people) if !people.is_empty() => format!("{seat} ({})", people.join(", ")),
            _ => seat.to_string(),
        }
    }

    /// The roster's seat a run or a guess labelled `label` comes from, where the label names
    /// it however typed (`Seat 3`, `seat-3` for `seat-03`); `Ok(None)` when the roster does
    /// not name it; `Err` when it only looks like a seat of the roster, naming that seat.
    pub fn seat_for(&self, label: &str) -> Result<Option<&str>, String> {
        let key = seat_key(label);
        if let Some(seat) = self.seats.iter().find(|seat| seat_key(seat) == key) {
            return Ok(Some(seat));
        }
        let looks = skeleton(label);
        match self.seats.iter().find(|seat| skeleton(seat) == looks) {
            Some(seat) => Err(format!(
                "invalid label = {:?}: it looks like the roster's seat {seat} but is not it (a look-alike character); \
                 send as {seat}",
                crate::runs::visible(label)
            )),
            None => Ok(None),
        }
    }

    /// Who has sent, given the labels of the shown runs.
    pub fn status<'a>(&self, shown: impl IntoIterator<Item = &'a str> + Clone) -> RosterStatus {
        let sent = |seat: &str| shown.clone().into_iter().any(|label| label == seat);
        let missing: Vec<String> = self.seats.iter().filter(|seat| !sent(seat)).map(|seat| self.named(seat)).collect();
        let not_on_roster =
            shown.into_iter().filter(|label| !self.seats.iter().any(|seat| seat == label)).map(String::from).collect();
        let expected = self.seats.len();
        let seats = if expected == 1 { "seat has" } else { "seats have" };
        let summary = format!("{} of {expected} {seats} sent a run.", expected - missing.len());
        RosterStatus { summary, missing, not_on_roster, readiness: None }
    }

    /// "Checked before the day: 18 of 25 seats ready; not ready: seat-03 (fix build);
    /// not checked: seat-04, seat-09." from each seat's `contention check` verdict line
    /// (`(seat, line)`); `None` before any seat sent one.
    pub fn readiness(&self, checked: &[(String, String)]) -> Option<String> {
        if checked.is_empty() {
            return None;
        }
        let line_of = |seat: &str| checked.iter().find(|(at, _)| at == seat).map(|(_, line)| line.as_str());
        let ready = self.seats.iter().filter(|seat| line_of(seat) == Some("ready")).count();
        let not_ready: Vec<String> = self
            .seats
            .iter()
            .filter_map(|seat| {
                let line = line_of(seat).filter(|line| *line != "ready")?;
                Some(format!("{} ({})", self.named(seat), line.trim_start_matches("not ready: ")))
            })
            .collect();
        let unchecked: Vec<String> =
            self.seats.iter().filter(|seat| line_of(seat).is_none()).map(|seat| self.named(seat)).collect();
        let mut text = format!("Checked before the day: {ready} of {} seats ready", self.seats.len());
        if !not_ready.is_empty() {
            text.push_str(&format!("; not ready: {}", not_ready.join(", ")));
        }
        if !unchecked.is_empty() {
            text.push_str(&format!("; not checked: {}", unchecked.join(", ")));
        }
        text.push('.');
        Some(text)
    }

    /// The roster as a file of names (what [`Self::parse`] reads back).
    pub fn to_text(&self) -> String {
        self.seats
            .iter()
            .zip(&self.people)
            .map(|(seat, people)| match people.is_empty() {
                true => format!("{seat}\n"),
                false => format!("{seat}: {}\n", people.join(", ")),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_seats_have_two_digits_at_least() {
        assert_eq!(Roster::numbered(3).unwrap().seats(), ["seat-01", "seat-02", "seat-03"]);
        let lecture = Roster::numbered(200).unwrap();
        assert_eq!((lecture.seats()[9].as_str(), lecture.seats()[199].as_str()), ("seat-10", "seat-200"));
        assert_eq!(
            Roster::numbered(0).unwrap_err().to_string(),
            "invalid seats = 0: 1 to 500 seats, or a file of names"
        );
        assert!(Roster::numbered(501).is_err());
    }

    #[test]
    fn a_file_of_names_is_checked_line_by_line() {
        let roster = Roster::parse("ada\n\n  grace \nlinus\n").unwrap();
        assert_eq!(roster.seats(), ["ada", "grace", "linus"]);
        assert_eq!(Roster::parse(&roster.to_text()).unwrap(), roster);
        assert_eq!(Roster::parse("ada\nada\n").unwrap_err(), "line 2: \"ada\" is named twice; each seat once");
        assert_eq!(Roster::parse("s-1\nS 01\n").unwrap_err(), "line 2: \"S 01\" is named twice; each seat once");
        assert!(Roster::parse("ada\nbad\u{200b}name\n").unwrap_err().starts_with("line 2: invalid label = "));
        assert_eq!(
            Roster::parse(" \n").unwrap_err(),
            "no seat named: one name per line, as each laptop's --label gives it"
        );
        let pairs = Roster::parse("seat-01: Ana, Ben\nseat-02\n seat-03 : Chen \n").unwrap();
        assert_eq!(pairs.seats(), ["seat-01", "seat-02", "seat-03"]);
        assert_eq!(
            [pairs.named("seat-01"), pairs.named("seat-02"), pairs.named("seat-03")],
            ["seat-01 (Ana, Ben)", "seat-02", "seat-03 (Chen)"]
        );
        assert_eq!(Roster::parse(&pairs.to_text()).unwrap(), pairs);
        assert_eq!(pairs.status(["seat-02"]).missing, ["seat-01 (Ana, Ben)", "seat-03 (Chen)"]);
        assert!(Roster::parse("seat-01: Ana, B\u{202e}en\n").unwrap_err().starts_with("line 1: the name "));
        let checked = |seat: &str, line: &str| (seat.to_string(), line.to_string());
        assert_eq!(pairs.readiness(&[]), None);
        assert_eq!(
            pairs.readiness(&[checked("seat-02", "ready"), checked("seat-01", "not ready: fix build")]).unwrap(),
            "Checked before the day: 1 of 3 seats ready; not ready: seat-01 (Ana, Ben) (fix build); not checked: \
             seat-03 (Chen)."
        );
        let many: String = (0..=MAX_SEATS).map(|seat| format!("s{seat}\n")).collect();
        assert_eq!(Roster::parse(&many).unwrap_err(), "more than 500 seats; a room holds at most 500 runs");
    }

    #[test]
    fn a_seat_typed_another_way_is_the_seat_and_a_look_alike_is_refused() {
        let roster = Roster::numbered(25).unwrap();
        for label in ["seat-3", "Seat 3", "seat-03", " ｓｅａｔ-03 "] {
            assert_eq!(roster.seat_for(label), Ok(Some("seat-03")), "{label:?}");
        }
        for label in ["seat-O1", "ѕеаt-01"] {
            let refused = roster.seat_for(label).unwrap_err();
            assert!(refused.contains("it looks like the roster's seat seat-01 but is not it"), "{refused}");
        }
        assert_eq!(roster.seat_for("guest"), Ok(None));
    }

    #[test]
    fn the_status_names_the_missing_seats_and_strangers() {
        let roster = Roster::numbered(3).unwrap();
        let status = roster.status(["seat-02", "guest"]);
        assert_eq!(status.summary, "1 of 3 seats have sent a run.");
        assert_eq!(status.missing, ["seat-01", "seat-03"]);
        assert_eq!(status.not_on_roster, ["guest"]);
        let one = Roster::parse("solo").unwrap().status(["solo"]);
        assert_eq!((one.summary.as_str(), one.missing.len()), ("1 of 1 seat has sent a run.", 0));
    }
}
