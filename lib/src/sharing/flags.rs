//! The four-way control's flags: `--threads` (one count), `--total`, `--trials` and its
//! padding. Without `--total`, the default total is kept, rounded down to a multiple of
//! `--threads`.

use super::{Config, MAX_PADDING_BYTES, MAX_THREADS};
use crate::flags::{whole, Flag, Flags, Shared, Threads};

pub fn flags() -> Flags<Config> {
    let one_count = |config: &mut Config, threads| *config = config.clone().with_threads(threads);
    Flags {
        shared: vec![
            Shared::Threads { most: MAX_THREADS, read: Threads::One { what: "the four-way control", set: one_count } },
            Shared::Total(|config, total| config.total_increments = total),
            Shared::Trials(|config, trials| config.trials = trials),
        ],
        own: vec![Flag::one(
            "padding",
            "BYTES",
            "Sharing: distance between the no-sharing counters in bytes, a power of two from 8",
            padding,
            |config, padding| config.padding_bytes = padding,
        )],
        ..Flags::default()
    }
}

fn padding(text: &str) -> Result<usize, String> {
    let most = MAX_PADDING_BYTES as u64;
    let allowed = || format!("a power of two from 8 to {most} bytes (e.g. 64 or 128)");
    whole(text, 8, most, allowed)
        .and_then(|bytes| if bytes.is_power_of_two() { Ok(bytes as usize) } else { Err(allowed()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_is_a_power_of_two() {
        assert!(padding("96").is_err() && padding("128").is_ok());
    }
}
