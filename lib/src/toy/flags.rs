//! The toy's flags: `--trials` (shared) and its own `--values`, the slice's length.

use super::{Config, MAX_VALUES};
use crate::flags::{whole, Flag, Flags, Shared};

pub fn flags() -> Flags<Config> {
    Flags {
        shared: vec![Shared::Trials(|config, trials| config.trials = trials)],
        own: vec![Flag::one("values", "N", "Toy: how many numbers each trial sums", values, |config, values| {
            config.values = values
        })],
        ..Flags::default()
    }
}

fn values(text: &str) -> Result<u64, String> {
    whole(text, 1, MAX_VALUES, || format!("1 to {MAX_VALUES} numbers"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::Given;

    fn given(values: &str) -> Result<Config, String> {
        let mut given = Given::default();
        given.insert("values", vec![values.to_string()]);
        let mut config = Config::quick();
        flags().apply_own(&mut config, &given, true).map(|()| config).map_err(|error| error.to_string())
    }

    #[test]
    fn a_good_count_sets_the_config() {
        assert_eq!(given("5000").unwrap().values, 5000);
        assert_eq!(given(&MAX_VALUES.to_string()).unwrap().values, MAX_VALUES);
        let mut config = Config::quick();
        let [Shared::Trials(set)] = &flags().shared[..] else { panic!("the toy reads --trials alone") };
        set(&mut config, 7);
        assert_eq!(config.trials, 7);
    }

    #[test]
    fn a_bad_count_is_refused_naming_it_and_what_is_allowed() {
        let too_many = (MAX_VALUES + 1).to_string();
        for bad in ["0", too_many.as_str(), "-3", "ten", ""] {
            let refused = given(bad).unwrap_err();
            assert_eq!(refused, format!("invalid values = {bad}: 1 to {MAX_VALUES} numbers"));
        }
    }
}
