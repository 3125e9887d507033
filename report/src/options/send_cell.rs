//! `contention send EXPERIMENT...`: what each measuring notebook's last cell runs to send its
//! experiments to the workshop's room; `contention guess QUANTITY=VALUE...`: what its
//! prediction cell runs to send the guess before measuring. It is a subcommand, not a script, so it runs the same
//! from a notebook, PowerShell, cmd or any Unix shell: a quick `run` under `CONTENTION_LABEL`,
//! sent to `CONTENTION_ROOM` with `CONTENTION_CODE` (set before Jupyter starts). Without a
//! room it measures nothing and says so (a notebook run at home is fine).

use anyhow::Result;
use contention::Experiment;

use super::cli::{GuessCellArgs, MeasureArgs, SendCellArgs};
use super::{Options, SendTo};
use crate::store::MeasureOptions;

/// The room's address, as `contention room serve` printed it.
pub const ROOM: &str = "CONTENTION_ROOM";
/// The room's code.
pub const CODE: &str = "CONTENTION_CODE";
/// The student's seat, the run's label.
pub const LABEL: &str = "CONTENTION_LABEL";

/// A variable's value, `None` when unset or blank.
fn variable(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|value| !value.trim().is_empty())
}

/// The room the notebook's Jupyter was started with, its code and this seat; `Ok(Err(why))`
/// without a room (nothing sent, and that is fine: a notebook run at home).
pub(super) fn room_from_environment(what: &str) -> Result<Result<(crate::room::client::Room, String, String), String>> {
    let Some(url) = variable(ROOM) else {
        return Ok(Err(format!(
            "Not sent: no room is set. To send {what} to the room, start Jupyter with {ROOM}=<the room's URL> \
             {CODE}=<its code> {LABEL}=<your seat> set (docs/setup.md shows how in each shell), and run this cell again."
        )));
    };
    let (Some(code), Some(label)) = (variable(CODE), variable(LABEL)) else {
        let missing: Vec<&str> = [(CODE, variable(CODE)), (LABEL, variable(LABEL))]
            .into_iter()
            .filter(|(_, value)| value.is_none())
            .map(|(name, _)| name)
            .collect();
        anyhow::bail!(
            "Not sent: {ROOM} is {url} but {} is not set (the room's code and your seat, e.g. seat-12)",
            missing.join(" and ")
        );
    };
    let room = crate::room::client::Room::parse(&url)
        .map_err(|why| crate::bad_flag::bad_flag(format!("invalid {ROOM} = {url}: {why}")))?;
    Ok(Ok((room, code, label)))
}

/// The run to measure and send, or why nothing is sent.
pub fn options(args: SendCellArgs) -> Result<Options> {
    let experiments: Vec<Experiment> = args.experiments.iter().map(|selected| selected.0).collect();
    let names: Vec<&str> = experiments.iter().map(|experiment| experiment.name()).collect();
    let (room, code, label) =
        match room_from_environment(&format!("this notebook's experiments ({})", names.join(" ")))? {
            Ok(found) => found,
            Err(why) => return Ok(Options::NotSent(why)),
        };
    let measure = MeasureArgs { quick: true, label: Some(label), ..MeasureArgs::default() };
    Ok(Options::Run {
        measure: Box::new(MeasureOptions::from_args(&measure, &[], &experiments)?),
        out: args.out,
        send: Some(SendTo { room, code: Some(code) }),
    })
}

/// The guesses to send, checked before anything is sent, or why nothing is sent.
pub fn guess_options(args: GuessCellArgs) -> Result<Options> {
    let guesses = args.guesses.iter().map(|given| super::room::guess(given)).collect::<Result<Vec<_>>>()?;
    let (room, code, seat) = match room_from_environment("your guess")? {
        Ok(found) => found,
        Err(why) => return Ok(Options::NotSent(why)),
    };
    contention::runs::check_label(&seat).map_err(|error| {
        crate::bad_flag::bad_flag(format!("invalid {LABEL}: {}", error.to_string().replacen("label", "seat", 1)))
    })?;
    Ok(Options::Predict(super::Prediction { room, code, seat, guesses }))
}
