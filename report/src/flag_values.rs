//! How a shared measuring flag's text becomes a value (clap's value parsers); each
//! experiment's own flags are parsed as its `flags.rs` in the lib says. Every value is held
//! to the widest range any experiment accepts, whichever experiments are selected, so a
//! value no experiment could take is refused the same way everywhere (`run stride --samples
//! 0` too): `--threads` to the most threads any experiment that reads it takes, each bound
//! read from that experiment. An experiment's own, narrower checks (a stride for this many
//! threads) follow in its config's `validate`. A parser's error says only what is allowed;
//! `main` writes it as `invalid {flag} = {value as given}: {allowed}` (the bad_flag module's
//! form).

use std::time::Duration;

use contention::experiment::Measure;
use contention::flags::{count, whole};
use contention::limits::{MAX_INCREMENTS_PER_TRIAL, MAX_TRIALS};
use contention::registry::Visitor;
use contention::Experiment;

/// The most threads each experiment that reads `--threads` takes, in the registry's order.
fn thread_bounds() -> Vec<(&'static str, usize)> {
    struct MostThreads;
    impl Visitor for MostThreads {
        type Output = Option<(&'static str, usize)>;
        fn visit<K: Measure>(self) -> Self::Output {
            K::flags().most_threads().map(|most| (K::NAME, most))
        }
    }
    Experiment::ALL.iter().filter_map(|experiment| experiment.visit(MostThreads)).collect()
}

/// "1 to 256 threads for stride, sharing and counters, 1 to 1024 for gc, ...": the bounds,
/// the experiments that share one named together.
fn threads_allowed(bounds: &[(&str, usize)]) -> String {
    let mut runs: Vec<(usize, Vec<&str>)> = Vec::new();
    for &(name, most) in bounds {
        match runs.last_mut() {
            Some((last, names)) if *last == most => names.push(name),
            _ => runs.push((most, vec![name])),
        }
    }
    let parts: Vec<String> = runs
        .iter()
        .enumerate()
        .map(|(index, (most, names))| {
            let names = match names.split_last() {
                Some((last, [])) => last.to_string(),
                Some((last, first)) => format!("{} and {last}", first.join(", ")),
                None => String::new(),
            };
            let unit = if index == 0 { " threads" } else { "" };
            format!("1 to {most}{unit} for {names}")
        })
        .collect();
    parts.join(", ")
}

pub fn threads(text: &str) -> Result<usize, String> {
    let bounds = thread_bounds();
    let most = bounds.iter().map(|&(_, most)| most).max().unwrap_or(1) as u64;
    whole(text, 1, most, || threads_allowed(&bounds)).map(|threads| threads as usize)
}

pub fn increments(text: &str) -> Result<u64, String> {
    whole(text, 1, MAX_INCREMENTS_PER_TRIAL, || format!("1 to {MAX_INCREMENTS_PER_TRIAL} increments"))
}

pub fn trials(text: &str) -> Result<usize, String> {
    count(text, MAX_TRIALS as u64, "trials per case")
}

pub fn seconds(text: &str) -> Result<Duration, String> {
    contention::flags::seconds(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_outside_every_experiment_s_range_are_refused_with_it() {
        assert_eq!(
            threads("-1").unwrap_err(),
            "1 to 256 threads for stride, sharing and counters, 1 to 1024 for gc, 1 to 256 for locks"
        );
        assert_eq!(threads("4"), Ok(4));
        assert_eq!(trials("18446744073709551616").unwrap_err(), "1 to 10000 trials per case");
        assert_eq!(seconds("1e400").unwrap_err(), "0.001 to 600 seconds");
        assert_eq!(seconds("0.5"), Ok(Duration::from_millis(500)));
        assert!(seconds("inf").is_err() && seconds("NaN").is_err() && seconds("+1").is_err());
    }
}
