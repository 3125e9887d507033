//! `contention`: runs the lab's experiments into data/runs and renders the report.
//!
//! The crate reads top to bottom: [`options`] (the clap types of `options::cli`, turned into
//! plain settings: the only reader of clap values) -> [`commands`] -> [`store`] (measuring
//! and saving, over the plans the options built) and the
//! renderers ([`page`], [`markdown`], [`json`], [`terminal`]) over the sections of the
//! lib's presentation model (`contention::present::sections`). [`room`] is the live
//! room of a workshop over the same pieces: its server, its pages and its client (a run's
//! pack posted to it);
//! [`check`] says whether this laptop is ready for a workshop; [`challenge`] checks a
//! challenge's reference fix.

mod bad_flag;
mod challenge;
mod check;
mod child;
mod commands;
mod console;
mod flag_values;
mod gc_go;
mod json;
mod locks_java;
mod markdown;
mod options;
mod output;
mod page;
mod progress;
mod room;
mod runtime_budget;
mod runtime_cache;
mod runtime_status;
mod seat_tokens;
mod store;
mod tables;
mod terminal;
mod url;
mod write;

use std::process::ExitCode;

use clap::FromArgMatches;

fn main() -> ExitCode {
    let raw: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let matches = match options::help::command(&raw).try_get_matches_from(&raw) {
        Ok(matches) => matches,
        Err(error) => return bad_flag::clap_failure(&error),
    };
    let cli = match options::cli::Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => return bad_flag::clap_failure(&error),
    };
    let given = options::given::measure_flags(&matches);
    let result = options::Options::from_cli(cli, &given).and_then(commands::execute);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // Line breaks separate reasons; any other control character is shown, not sent.
            console::to_stderr(&format!("error: {}", contention::runs::visible_lines(&format!("{error:#}"))));
            ExitCode::from(bad_flag::exit_code(&error))
        }
    }
}
