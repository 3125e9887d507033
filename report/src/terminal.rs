//! What `contention run` prints as each experiment finishes: its section as plain text
//! (no colour codes, so it reads the same in a terminal, a pipe and a CI log).

use anyhow::Result;
use contention::present::text;
use contention::runs::Run;

use crate::experiment::Experiment;
use crate::sections;

/// The findings, figures (as text), tables and notes of `experiment` in `run`; `None` for
/// the machine and its core-to-core latency, whose verdict needs the whole run ([`machine`]).
pub fn finished(run: &Run, experiment: Experiment) -> Result<Option<String>> {
    if matches!(experiment, Experiment::Machine | Experiment::C2c) {
        return Ok(None);
    }
    let section = sections::section(std::slice::from_ref(run), experiment)?;
    Ok(section.map(|section| text::section(&section)))
}

/// The machine section over the whole run: its description, the checks and the verdict.
pub fn machine(run: &Run) -> Result<String> {
    let section = sections::section(std::slice::from_ref(run), Experiment::Machine)?;
    let facts = contention::present::machine::facts_table(&[(&run.label(), &run.manifest.machine)]);
    let mut text = section.map(|section| text::section(&section)).unwrap_or_default();
    text.push_str("\n\n");
    text.push_str(&text::table(&facts));
    Ok(text)
}
