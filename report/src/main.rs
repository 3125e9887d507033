//! `contention`: runs the lab's experiments into data/runs and renders the report.
//!
//! The crate reads top to bottom: [`cli`] (clap types) -> [`options`] (plain settings, the
//! only reader of clap values) -> [`commands`] -> [`store`] (measuring and saving) and the
//! renderers ([`page`], [`markdown`], [`json`], [`terminal`]) over [`sections`], the lib's
//! presentation model for saved runs.

mod cli;
mod commands;
mod experiment;
mod flag_values;
mod gc_go;
mod json;
mod markdown;
mod options;
mod output;
mod page;
mod progress;
mod room;
mod sections;
mod store;
mod terminal;
mod usage;
mod write;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage::clap_failure(&error),
    };
    let result = options::Options::from_cli(cli).and_then(commands::execute);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            #[allow(clippy::print_stderr)] // the one place the CLI reports a failure
            {
                // Line breaks separate reasons; any other control character is shown, not sent.
                eprintln!("error: {}", contention::runs::visible_lines(&format!("{error:#}")));
            }
            ExitCode::from(usage::exit_code(&error))
        }
    }
}
