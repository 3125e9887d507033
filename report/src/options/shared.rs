//! Flags several experiments read: one such flag means one thing. Where two selected
//! experiments each read a given flag in a sense of their own (`--seconds`: a GC trial's
//! length, a pool run's arrivals), it is refused, naming both senses, rather than read two
//! ways.

use anyhow::Result;
use contention::Experiment;

use super::flags_of;
use crate::bad_flag::bad_flag;

/// Refuses a flag in `given` (long names, as set on the command line) that two of
/// `selected` read each in its own sense.
pub fn refuse_read_two_ways(given: &[String], selected: &[Experiment]) -> Result<()> {
    for flag in given {
        let id = flag.replace('-', "_");
        let senses: Vec<(Experiment, &str)> = selected
            .iter()
            .filter_map(|&experiment| {
                let sense = flags_of(experiment).own_sense.iter().find(|(own, _)| *own == id)?.1;
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
