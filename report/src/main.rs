//! `contention`: runs the lab's experiments into data/runs and renders the HTML report.

mod cli;
mod experiments;
mod gc_go;
mod load;
mod manifest;
mod page;
mod progress;
mod run_dir;
mod usage;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cli::execute(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            #[allow(clippy::print_stderr)] // the one place the CLI reports a failure
            {
                eprintln!("error: {error:#}");
            }
            ExitCode::from(usage::exit_code(&error))
        }
    }
}
