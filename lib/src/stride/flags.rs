//! The stride sweep's flags: `--threads` (one count), `--iters`, `--trials` and its strides.

use super::{Config, MAX_THREADS};
use crate::arena::MAX_ARENA_BYTES;
use crate::flags::{whole, Flag, Flags, Shared, Threads};

pub fn flags() -> Flags<Config> {
    let one_count = |config: &mut Config, threads| {
        config.threads = threads;
        config.clean_threads = None;
    };
    Flags {
        shared: vec![
            Shared::Threads { most: MAX_THREADS, read: Threads::One { what: "the stride sweep", set: one_count } },
            Shared::Iters(|config, iters| config.iters_per_thread = iters),
            Shared::Trials(|config, trials| config.trials = trials),
        ],
        own: vec![Flag::list(
            "strides",
            "BYTES",
            "Stride sweep: distances between counters in bytes, multiples of 8",
            stride,
            |config, strides| config.strides_bytes = strides,
        )],
        ..Flags::default()
    }
}

fn stride(text: &str) -> Result<usize, String> {
    let widest = MAX_ARENA_BYTES as u64;
    let allowed = || format!("multiples of 8 bytes from 8 to {widest} (the arena's size, over the threads)");
    whole(text, 8, widest, allowed)
        .and_then(|stride| if stride % 8 == 0 { Ok(stride as usize) } else { Err(allowed()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strides_are_multiples_of_8() {
        assert!(stride("12").is_err() && stride("64").is_ok() && stride("0").is_err());
    }
}
