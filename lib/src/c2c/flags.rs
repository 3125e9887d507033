//! Core-to-core latency's flags: the CPUs to pair, the samples per pair, and whether to
//! measure unpinned. An unknown CPU id is refused (exit 2) before anything is measured.

use super::Config;
use crate::flags::{count, Flag, Flags};
use crate::limits::cpus::{cpu_ids, cpu_list_allowed};
use crate::limits::MAX_ROWS;

pub fn flags() -> Flags<Config> {
    Flags {
        own: vec![
            Flag::one(
                "cpus",
                "LIST",
                "Core-to-core latency: logical CPUs to pair, ids and ranges, e.g. 0-3,8,10-11 (default: every CPU)",
                cpu_list,
                |config, cpus| config.cpus = cpus,
            ),
            Flag::one(
                "samples",
                "N",
                "Core-to-core latency: measured samples per pair",
                |text| count(text, MAX_ROWS as u64, "samples per pair"),
                |config, samples| config.samples_per_pair = samples,
            ),
            Flag::switch(
                "unpinned",
                "Core-to-core latency: measure unpinned even where threads can be pinned: the scheduler places the \
                 two threads, each sample reads both threads' CPUs and a sample where one moved is dropped (the \
                 default where the OS cannot pin, as on macOS)",
                |config| config.unpinned = true,
            ),
        ],
        ..Flags::default()
    }
}

/// `--cpus` as the kernel writes CPU lists ("0-3,8,10-11"): ids above 4095, empty entries
/// and ranges that run backwards are refused before anything is expanded.
fn cpu_list(list: &str) -> Result<Vec<usize>, String> {
    match cpu_ids(list) {
        Ok(cpus) if !cpus.is_empty() => Ok(cpus),
        Ok(_) => Err(cpu_list_allowed()),
        Err(why) => Err(format!("{why}: {}", cpu_list_allowed())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_take_ids_and_ranges() {
        assert_eq!(cpu_list("0-1").unwrap(), [0, 1]);
        assert_eq!(cpu_list("0-3,8,10-11").unwrap(), [0, 1, 2, 3, 8, 10, 11]);
        for (bad, why) in [
            ("", ""),
            ("3-1", "the range 3-1 runs backwards: "),
            ("a", "'a' is not a CPU id: "),
            ("0-", "an empty entry: "),
            ("1,,x", "an empty entry: "),
            ("0-4294967295", "CPU 4294967295 is above 4095: "),
        ] {
            let error = cpu_list(bad).unwrap_err();
            assert_eq!(
                error,
                format!("{why}CPU ids from 0 to 4095 and rising ranges, at most 4096 CPUs, e.g. 0-3,8,10-11")
            );
        }
        assert!(count("0", MAX_ROWS as u64, "samples per pair").is_err());
    }
}
