//! What `contention run` prints as each experiment finishes: its section as plain text
//! (no colour codes, so it reads the same in a terminal, a pipe and a CI log).

use anyhow::Result;
use contention::present::{self, text};
use contention::runs::Run;
use contention::Experiment;

/// The story, findings, figures (as text), tables and notes of `experiment` in `run`;
/// `None` for the machine check, whose verdict needs the whole run ([`machine`]), and for
/// what another section shows.
pub fn finished(run: &Run, experiment: Experiment) -> Result<Option<String>> {
    let section = present::section(std::slice::from_ref(run), experiment)?;
    let whole_run = |section: &present::Section| section.experiment == contention::machine_check::EXPERIMENT;
    Ok(section.filter(|section| !whole_run(section)).map(|section| text::section(&section)))
}

/// Whether `run` holds the machine check, whose verdict [`machine`] prints over the run.
pub fn checked_machine(run: &Run) -> bool {
    run.rows::<contention::machine_check::Row>().is_some()
}

/// The machine section over the whole run: its description, the checks and the verdict.
pub fn machine(run: &Run) -> Result<String> {
    let sections = present::sections(std::slice::from_ref(run))?;
    let section = sections.into_iter().find(|section| section.experiment == contention::machine_check::EXPERIMENT);
    let facts = contention::machine_check::present::facts_table(&[(&run.label(), &run.manifest.machine)]);
    let mut text = section.map(|section| text::section(&section)).unwrap_or_default();
    text.push_str("\n\n");
    text.push_str(&text::table(&facts));
    Ok(text)
}

/// The articles' headlines over the whole run, with the machine's caveat: what a run ends
/// with, once every experiment has printed its own section.
pub fn headline(run: &Run) -> Result<Option<String>> {
    let section = present::headline::headline_section(std::slice::from_ref(run))?;
    Ok(section.map(|section| text::section(&section)))
}
