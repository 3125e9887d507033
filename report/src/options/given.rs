//! Which measuring flags the command line set, as clap saw them: they decide a run's
//! profile, and where nothing is measured (`report --from`, `--compare`) they would be
//! silently ignored, so they are refused there. Every flag of [`MeasureArgs`] is known here
//! from clap itself, so a new flag needs no list.

use anyhow::Result;
use clap::parser::ValueSource;
use clap::{ArgMatches, Args};

use super::cli::MeasureArgs;
use crate::bad_flag::bad_flag;

/// Flags that name or shape a run without setting an experiment's sizes, beside the
/// switches that skip a real runtime (`--no-go`).
const NOT_SIZES: [&str; 2] = ["label", "quick"];

/// The measuring flags given on the command line of the subcommand in `matches`, by their
/// long names, in the order of `--help`.
pub fn measure_flags(matches: &ArgMatches) -> Vec<String> {
    let Some((_, sub)) = matches.subcommand() else { return Vec::new() };
    let command = MeasureArgs::augment_args(clap::Command::new("measure"));
    command
        .get_arguments()
        .filter(|arg| sub.value_source(arg.get_id().as_str()) == Some(ValueSource::CommandLine))
        .filter_map(|arg| arg.get_long().map(str::to_string))
        .collect()
}

/// Whether any flag set an experiment's size (the run's profile is then "custom").
pub fn sized(given: &[String]) -> bool {
    given.iter().any(|flag| !NOT_SIZES.contains(&flag.as_str()) && !super::flags::skips_runtime(flag))
}

/// Refuses the first measuring flag given beside `source` (`--from` or `--compare`, which
/// read runs already measured), and `--runs` (where a measured run would go).
pub fn refuse_beside_saved_runs(given: &[String], runs_given: bool, source: &str) -> Result<()> {
    let flag = given.first().map(String::as_str).or(runs_given.then_some("runs"));
    let Some(flag) = flag else { return Ok(()) };
    let what = match flag {
        "label" => "names a run being measured",
        "runs" => "names the folder a measured run goes to",
        _ => "sets how a run is measured",
    };
    Err(bad_flag(format!(
        "--{flag} cannot be used with {source}: --{flag} {what}, and {source} reads runs that are already \
         measured (drop --{flag}, or measure with `contention run`)"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn given(line: &[&str]) -> Vec<String> {
        let matches = crate::options::cli::Cli::command().try_get_matches_from(line).unwrap();
        measure_flags(&matches)
    }

    #[test]
    fn every_flag_set_is_named_and_only_sizes_make_a_custom_profile() {
        let quick = given(&["contention", "run", "stride", "--no-go", "--label", "a", "--quick"]);
        assert_eq!(quick, ["label", "quick", "no-go"]);
        assert!(!sized(&quick));
        let trials = given(&["contention", "report", "--miss-wait-ms", "1,2", "--trials", "5"]);
        assert_eq!(trials, ["trials", "miss-wait-ms"]);
        assert!(sized(&trials));
        let error = refuse_beside_saved_runs(&trials, false, "--from").unwrap_err().to_string();
        assert!(
            error.starts_with("--trials cannot be used with --from: --trials sets how a run is measured"),
            "{error}"
        );
        assert!(refuse_beside_saved_runs(&[], false, "--compare").is_ok());
        assert!(refuse_beside_saved_runs(&[], true, "--compare").is_err());
    }
}
