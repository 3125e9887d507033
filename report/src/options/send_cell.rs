//! `contention send EXPERIMENT...`: what each measuring notebook's last cell runs to send its
//! experiments to the workshop's room. It is a subcommand, not a script, so it runs the same
//! from a notebook, PowerShell, cmd or any Unix shell: a quick `run` under `CONTENTION_LABEL`,
//! sent to `CONTENTION_ROOM` with `CONTENTION_CODE` (set before Jupyter starts). Without a
//! room it measures nothing and says so (a notebook run at home is fine).

use anyhow::Result;
use contention::Experiment;

use super::cli::{MeasureArgs, SendCellArgs};
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

/// The run to measure and send, or why nothing is sent.
pub fn options(args: SendCellArgs) -> Result<Options> {
    let experiments: Vec<Experiment> = args.experiments.iter().map(|selected| selected.0).collect();
    let names: Vec<&str> = experiments.iter().map(|experiment| experiment.name()).collect();
    let Some(url) = variable(ROOM) else {
        return Ok(Options::NotSent(format!(
            "Not sent: no room is set. To send this notebook's experiments ({}) to the room, start Jupyter with \
             {ROOM}=<the room's URL> {CODE}=<its code> {LABEL}=<your seat> set (docs/setup.md shows how in each \
             shell), and run this cell again.",
            names.join(" ")
        )));
    };
    let (code, label) = (variable(CODE), variable(LABEL));
    let missing: Vec<&str> =
        [(CODE, &code), (LABEL, &label)].iter().filter(|(_, value)| value.is_none()).map(|(name, _)| *name).collect();
    if !missing.is_empty() {
        anyhow::bail!(
            "Not sent: {ROOM} is {url} but {} is not set (the room's code and your seat, e.g. seat-12)",
            missing.join(" and ")
        );
    }
    let room = crate::send::Room::parse(&url)
        .map_err(|why| crate::bad_flag::bad_flag(format!("invalid {ROOM} = {url}: {why}")))?;
    let measure = MeasureArgs { quick: true, label, ..MeasureArgs::default() };
    Ok(Options::Run {
        measure: Box::new(MeasureOptions::from_args(&measure, &[], &experiments)?),
        out: args.out,
        send: Some(SendTo { room, code }),
    })
}
