//! The lib's presentation model for saved runs: every experiment's [`Section`], built once
//! here from the runs and the articles' reference data, and rendered by the page, the
//! terminal, the markdown and the JSON alike.

use anyhow::Result;
use contention::present::machine::MachineRun;
use contention::present::room::{difference_section, KeyEffects};
use contention::present::{self, Measured, Section};
use contention::reference;
use contention::runs::Run;

use crate::experiment::Experiment;

/// The sections of a report, in its order: for several machines first the room (more than
/// two) or their difference (two), then every experiment. The machine section holds the
/// core-to-core latency too, so `c2c` has no section of its own.
pub fn all(runs: &[Run]) -> Result<Vec<Section>> {
    let mut sections = Vec::new();
    match runs {
        [a, b] => sections.push(difference_section(&KeyEffects::of(a), &KeyEffects::of(b))),
        [_, _, _, ..] => sections.push(crate::room::section(runs)?),
        _ => {}
    }
    for &experiment in Experiment::all() {
        sections.extend(section(runs, experiment)?);
    }
    Ok(sections)
}

/// The section of `experiment` over `runs` (one machine, or several compared); `None` for
/// `c2c`, which the machine section shows.
pub fn section(runs: &[Run], experiment: Experiment) -> Result<Option<Section>> {
    let name = experiment.name();
    let mut section = match experiment {
        Experiment::Machine => present::machine::section(&runs.iter().map(MachineRun::from_run).collect::<Vec<_>>())?,
        Experiment::C2c => return Ok(None),
        Experiment::Stride => present::stride::section(
            &Measured::from_runs(runs, name, |run| run.stride.as_ref()),
            &reference::stride()?,
        )?,
        Experiment::Sharing => present::sharing::section(
            &Measured::from_runs(runs, name, |run| run.sharing.as_ref()),
            &reference::sharing()?,
        )?,
        Experiment::Counters => present::counters::section(
            &Measured::from_runs(runs, name, |run| run.counters.as_ref()),
            &reference::counters()?,
        )?,
        Experiment::Gc => {
            let (threads, ratios) = (reference::gc_threads()?, reference::gc_ratios()?);
            let go: Vec<Option<&[contention::gc::GoRow]>> =
                runs.iter().filter(|run| run.gc.is_some()).map(|run| run.gc_go.as_deref()).collect();
            present::gc::section_with_go(
                &Measured::from_runs(runs, name, |run| run.gc.as_ref()),
                &go,
                present::gc::GcArticle { threads: &threads, ratios: &ratios },
            )?
        }
        Experiment::Pool => {
            present::pool::section(&Measured::from_runs(runs, name, |run| run.pool.as_ref()), &reference::pool()?)?
        }
    };
    // The machine section carries the core-to-core latency's status too.
    let experiments = match experiment {
        Experiment::Machine => vec![name, Experiment::C2c.name()],
        _ => vec![name],
    };
    section.status = present::runs::status(runs, &experiments);
    Ok(Some(section))
}
