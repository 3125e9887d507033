//! Article C's lock claims' flags: `--threads` (a list), `--trials` and the cases' own.

use super::{Case, Config, MAX_KEYS, MAX_THREADS, MAX_WAIT_MS};
use crate::flags::{number, whole, Dash, Flag, Flags, Shared, Threads};

pub fn flags() -> Flags<Config> {
    Flags {
        shared: vec![
            Shared::Threads {
                most: MAX_THREADS,
                read: Threads::List(|config: &mut Config, threads| config.threads = threads),
            },
            Shared::Trials(|config: &mut Config, trials| config.trials = trials),
        ],
        own: vec![
            Flag::list(
                "cases",
                "CASE",
                "Locks: cases to measure, e.g. uncontended,read-mostly (default: all five)",
                |text| text.parse::<Case>().map_err(|error| error.allowed),
                |config: &mut Config, cases| config.cases = cases,
            ),
            Flag::list(
                "read-share",
                "SHARE",
                "Locks: shares of reads in the read-mostly case, each 0..1 (default 1,0.99,0.9)",
                |text| number(text, (0.0, 1.0), false, || "a share of reads from 0 to 1".into()),
                |config: &mut Config, shares| config.read_shares = shares,
            )
            .dash(Dash::Number),
            Flag::one(
                "wait-ms",
                "MS",
                "Locks: the remote call's wait inside the lock-across-wait case, milliseconds (0..1000)",
                |text| number(text, (0.0, MAX_WAIT_MS), false, || format!("0 to {MAX_WAIT_MS} ms")),
                |config: &mut Config, wait_ms| config.wait_ms = wait_ms,
            )
            .dash(Dash::Number),
            Flag::one(
                "keys",
                "N",
                "Locks: distinct keys the lock-across-wait case asks for (1..1000000)",
                |text| whole(text, 1, MAX_KEYS, || format!("1 to {MAX_KEYS} keys")),
                |config: &mut Config, keys| config.keys = keys,
            ),
            Flag::skip_runtime(
                "no-java",
                "Locks: skip the JVM's own primitives that otherwise run beside the Rust ones when `java` and \
                 `javac` are on PATH",
            ),
        ],
        ..Flags::default()
    }
}
