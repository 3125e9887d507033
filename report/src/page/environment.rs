//! The environment section: every fact of each machine's description and build, one
//! column per machine (the lib's facts table), and how to reproduce each run.

use contention::machine_check::present::facts_table;
use contention::runs::{Profile, Run};
use serde::Serialize;

use super::section::{table_view, TableView};

#[derive(Debug, Serialize)]
pub struct EnvironmentSection {
    pub facts: TableView,
    pub reproduce: Vec<Reproduce>,
}

#[derive(Debug, Serialize)]
pub struct Reproduce {
    pub machine: String,
    pub command: String,
    pub profile: String,
    pub folder: String,
    pub configs: Vec<String>,
}

/// What each profile means, stated on the page beside the run that used it.
pub fn profile_text(profile: Profile) -> &'static str {
    match profile {
        Profile::Quick => "quick: every experiment at small sizes (about 90 s on 2 CPUs); medians are rougher",
        Profile::Default => "default: the articles' sizes where this machine allows (up to 10 minutes on 2 CPUs)",
        Profile::Custom => "custom: sizes set on the command line (below)",
    }
}

pub fn section(runs: &[Run]) -> EnvironmentSection {
    let labels: Vec<String> = runs.iter().map(Run::label).collect();
    let machines: Vec<(&str, &contention::Machine)> =
        labels.iter().zip(runs).map(|(label, run)| (label.as_str(), &run.manifest.machine)).collect();
    EnvironmentSection {
        facts: table_view(&facts_table(&machines)),
        reproduce: runs
            .iter()
            .map(|run| Reproduce {
                machine: run.label(),
                command: run.manifest.command.clone(),
                profile: profile_text(run.manifest.profile).into(),
                folder: run.dir.display().to_string(),
                configs: run
                    .manifest
                    .experiments
                    .iter()
                    .map(|e| format!("{}: {}", e.name, contention::format::config_text(&e.config)))
                    .collect(),
            })
            .collect(),
    }
}
