//! `contention run X --help`: the run command's help with X's flags alone (its own and the
//! shared ones it reads), the other experiments' hidden; a shared flag that X alone of those
//! named reads in a sense of its own is described by that sense. Parsing is unchanged: a
//! hidden flag is still taken, and refused or ignored as before.

use std::ffi::OsString;

use clap::CommandFactory;
use contention::Experiment;

use super::cli::Cli;
use super::flags_of;

/// The command line's clap command for `raw` (the program's arguments, its name first).
pub fn command(raw: &[OsString]) -> clap::Command {
    let command = Cli::command();
    let words: Vec<&str> = raw.iter().skip(1).filter_map(|word| word.to_str()).collect();
    let asks_help = words.iter().any(|word| matches!(*word, "--help" | "-h"));
    if words.first() != Some(&"run") || !asks_help {
        return command;
    }
    let named: Vec<Experiment> = words[1..].iter().filter_map(|word| Experiment::from_name(word)).collect();
    if named.is_empty() {
        return command;
    }
    let wanted: Vec<String> = named.iter().flat_map(|&experiment| flags_of(experiment).ids).collect();
    let mut others: Vec<String> = Experiment::ALL.iter().flat_map(|&experiment| flags_of(experiment).ids).collect();
    others.retain(|id| !wanted.contains(id));
    others.sort();
    others.dedup();
    let senses: Vec<(&str, &str)> = named.iter().flat_map(|&experiment| flags_of(experiment).own_sense).collect();
    let own: Vec<(&str, &str)> =
        senses.iter().filter(|(id, _)| senses.iter().filter(|(other, _)| other == id).count() == 1).copied().collect();
    command.mut_subcommand("run", |run| {
        let run = others.iter().fold(run, |run, id| run.mut_arg(id.as_str(), |arg| arg.hide(true)));
        own.iter().fold(run, |run, &(id, sense)| {
            run.mut_arg(id, |arg| arg.help(contention::format::upper_first(sense)).long_help(None))
        })
    })
}

#[cfg(test)]
mod tests {
    use clap::Args;

    use super::*;
    use crate::options::cli::MeasureArgs;

    fn run_help(words: &[&str]) -> String {
        let raw: Vec<OsString> = words.iter().map(OsString::from).collect();
        let mut command = command(&raw);
        command.build();
        command.find_subcommand_mut("run").unwrap().render_long_help().to_string()
    }

    #[test]
    fn run_help_shows_the_named_experiments_flags_alone() {
        let stride = run_help(&["contention", "run", "stride", "--help"]);
        for shown in ["--strides", "--threads", "--iters", "--label", "--quick", "--out"] {
            assert!(stride.contains(shown), "{shown} missing from `run stride --help`:\n{stride}");
        }
        for hidden in ["--pool-sizes", "--ratios", "--seconds", "--padding", "--cases"] {
            assert!(!stride.contains(hidden), "{hidden} shown by `run stride --help`:\n{stride}");
        }
        let both = run_help(&["contention", "run", "stride", "gc", "-h"]);
        assert!(both.contains("--strides") && both.contains("--ratios") && both.contains("--seconds"));
        assert!(!both.contains("--pool-sizes"));
        let pool = run_help(&["contention", "run", "pool", "--help"]);
        assert!(pool.contains("The seconds of arrivals of a pool run"), "--seconds in pool's sense:\n{pool}");
        assert!(!pool.contains("GC sweep"), "`run pool --help` names the GC sweep's flags:\n{pool}");
        assert!(both.contains("The seconds each GC trial runs"), "--seconds in the GC's sense:\n{both}");
        let two_senses = run_help(&["contention", "run", "gc", "pool", "--help"]);
        assert!(two_senses.contains("GC sweep: seconds each trial runs"), "both senses named:\n{two_senses}");
        let all = run_help(&["contention", "run", "--help"]);
        assert!(all.contains("--strides") && all.contains("--pool-sizes") && all.contains("--cases"));
    }

    #[test]
    fn every_measuring_flag_but_label_and_quick_belongs_to_an_experiment() {
        let claimed: Vec<String> = Experiment::ALL.iter().flat_map(|&experiment| flags_of(experiment).ids).collect();
        let every = MeasureArgs::augment_args(clap::Command::new("measure"));
        for arg in every.get_arguments().map(|arg| arg.get_id().to_string()) {
            let general = matches!(arg.as_str(), "label" | "quick");
            assert!(general || claimed.contains(&arg), "--{arg} is no experiment's flag: add it to one's SHARED");
        }
    }
}
