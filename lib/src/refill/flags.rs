//! Cache refill's flags: `--trials`, the trials per case (its sizes come from this machine's
//! caches).

use super::Config;
use crate::flags::{Flags, Shared};

pub fn flags() -> Flags<Config> {
    Flags { shared: vec![Shared::Trials(|config, trials| config.trials = trials)], ..Flags::default() }
}
