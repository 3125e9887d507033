//! The machine check's flags: `--iters` and `--trials`.

use super::Config;
use crate::flags::{Flags, Shared};

pub fn flags() -> Flags<Config> {
    Flags {
        shared: vec![
            Shared::Iters(|config, iters| config.iters_per_thread = iters),
            Shared::Trials(|config, trials| config.trials = trials),
        ],
        ..Flags::default()
    }
}
