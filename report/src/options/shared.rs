//! Flags several experiments read ([`MeasureArgs`]'s): set on each config as the experiment's
//! `flags.rs` says it reads them. One such flag means one thing: where two selected
//! experiments each read a given flag in a sense of their own (`--seconds`: a GC trial's
//! length, a pool run's arrivals), it is refused, naming both senses, rather than read two
//! ways.

use anyhow::Result;
use contention::flags::{Shared, Threads};
use contention::Experiment;

use super::cli::MeasureArgs;
use super::flags_of;
use crate::bad_flag::bad_flag;

/// Sets on `config` the shared flags `args` holds that the experiment reads (`shared`), in
/// its order. A list of threads given to an experiment that takes one count is refused when
/// it was `selected`, and left unused otherwise.
pub fn apply<C>(shared: &[Shared<C>], config: &mut C, args: &MeasureArgs, selected: bool) -> Result<()> {
    for flag in shared {
        match flag {
            Shared::Threads { read: Threads::List(set), .. } if !args.threads.is_empty() => {
                set(config, args.threads.clone())
            }
            Shared::Threads { read: Threads::One { what, set }, .. } => match args.threads[..] {
                [threads] => set(config, threads),
                [_, _, ..] if selected => {
                    let list = args.threads.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
                    return Err(bad_flag(format!("invalid threads = {list}: {what} takes one thread count")));
                }
                _ => {}
            },
            Shared::Iters(set) => args.iters.into_iter().for_each(|iters| set(config, iters)),
            Shared::Trials(set) => args.trials.into_iter().for_each(|trials| set(config, trials)),
            Shared::Total(set) => args.total.into_iter().for_each(|total| set(config, total)),
            Shared::Seconds { set, .. } => args.seconds.into_iter().for_each(|seconds| set(config, seconds)),
            Shared::Threads { .. } => {}
        }
    }
    Ok(())
}

/// Refuses a flag in `given` (long names, as set on the command line) that two of
/// `selected` read each in its own sense.
pub fn refuse_read_two_ways(given: &[String], selected: &[Experiment]) -> Result<()> {
    for flag in given {
        let senses: Vec<(Experiment, &str)> = selected
            .iter()
            .filter_map(|&experiment| {
                let sense = flags_of(experiment).own_sense.into_iter().find(|(own, _)| own == flag)?.1;
                Some((experiment, sense))
            })
            .collect();
        if let [(first, first_sense), (second, second_sense), ..] = senses.as_slice() {
            return Err(bad_flag(format!(
                "--{flag} means two things here: {first_sense} to {}, {second_sense} to {}; measure them \
                 apart (`contention run {} --{flag} ...`, then `contention run {} --{flag} ...`)",
                first.name(),
                second.name(),
                first.name(),
                second.name()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_two_selected_experiments_read_their_own_way_is_refused() {
        let seconds = vec!["seconds".to_string()];
        let error = refuse_read_two_ways(&seconds, &[Experiment::Gc, Experiment::Pool]).unwrap_err().to_string();
        assert!(error.starts_with("--seconds means two things here: the seconds each GC trial runs to gc"), "{error}");
        assert!(error.contains("contention run gc --seconds") && error.contains("contention run pool --seconds"));
        assert!(refuse_read_two_ways(&seconds, &[Experiment::Gc, Experiment::Stride]).is_ok());
        let trials = vec!["trials".to_string()];
        assert!(refuse_read_two_ways(&trials, &[Experiment::Gc, Experiment::Pool]).is_ok());
    }
}
