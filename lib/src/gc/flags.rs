//! The GC sweep's flags: `--threads` (a list), `--seconds` (each trial's length), `--trials`,
//! and the sweep's own. The ratios are read only when the sweep was asked for.

use super::{parse_ratios, Config, Workload, MAX_THREADS};
use crate::error::ConfigError;
use crate::flags::{whole, Flag, Flags, Given, Shared, Threads};
use crate::limits::max_heap_bytes;

pub fn flags() -> Flags<Config> {
    Flags {
        shared: vec![
            Shared::Threads {
                most: MAX_THREADS,
                read: Threads::List(|config: &mut Config, threads| config.threads = threads),
            },
            Shared::Seconds {
                sense: "the seconds each GC trial runs",
                set: |config: &mut Config, trial| config.trial = trial,
            },
            Shared::Trials(|config: &mut Config, trials| config.trials = trials),
        ],
        own: own(),
        settle: ceiling_fits,
    }
}

fn own() -> Vec<Flag<Config>> {
    vec![
        Flag::whole_list(
            "ratios",
            "RATIO",
            "GC sweep: collection ratios, GOGC-style percents (at least 1), off, or ranges FROM..TO:STEP, e.g. \
             100,400,off or 100..2000:100,off (at most 256 ratios)",
            ratio,
            |config: &mut Config, ratios| {
                config.ratios = parse_ratios(&ratios).map_err(|error| error.allowed)?;
                Ok(())
            },
        )
        .selected_only(),
        Flag::one(
            "live-bytes",
            "B",
            "GC sweep: bytes of the live object graph every cycle traces (at most half of physical memory)",
            live_bytes,
            |config: &mut Config, bytes| config.live_bytes = bytes,
        ),
        Flag::one(
            "alloc-per-op",
            "B",
            "GC sweep: bytes each operation allocates",
            heap_bytes,
            |config: &mut Config, bytes| config.alloc_per_op_bytes = bytes,
        ),
        Flag::one(
            "ceiling-bytes",
            "B",
            "GC sweep: the heap's ceiling in bytes (what collects when the ratio is off; at most half of physical \
             memory)",
            heap_bytes,
            |config: &mut Config, bytes| config.ceiling_bytes = bytes,
        ),
        Flag::one(
            "workload",
            "WORKLOAD",
            "GC sweep: work per operation, ecdsa (the article's P-256 signing) or hash (cheaper)",
            |text| text.parse::<Workload>().map_err(|error| error.allowed),
            |config: &mut Config, workload| config.workload = workload,
        ),
        Flag::skip_runtime(
            "no-go",
            "GC sweep: skip the real Go benchmark that otherwise runs beside the model when `go` is on PATH",
        ),
    ]
}

/// A ceiling given alone is what is wrong when it is too small for the other sizes.
fn ceiling_fits(config: &mut Config, given: &Given) -> Result<(), ConfigError> {
    let smallest = config.smallest_ceiling_bytes();
    let alone = given.has("ceiling-bytes") && !given.has("live-bytes") && !given.has("alloc-per-op");
    if alone && config.ceiling_bytes < smallest {
        let allowed = format!(
            "at least {smallest} bytes: the live graph ({} bytes) plus 4 spans per worker and one more, and twice \
             an operation's allocation ({} bytes)",
            config.live_bytes, config.alloc_per_op_bytes
        );
        return Err(ConfigError::new("ceiling-bytes", config.ceiling_bytes, allowed));
    }
    Ok(())
}

/// One item of `--ratios`: a ratio, `off`, or a range FROM..TO:STEP (the list's total is
/// bounded when the sweep is asked for).
fn ratio(text: &str) -> Result<String, String> {
    parse_ratios(&[text]).map(|_| text.to_string()).map_err(|error| error.allowed)
}

/// The live graph's size in bytes: 0 to half this machine's memory.
fn live_bytes(text: &str) -> Result<u64, String> {
    let most = max_heap_bytes();
    whole(text, 0, most, || format!("at most {most} bytes (half of this machine's memory)"))
}

/// A heap size in bytes: 1 to half this machine's memory.
fn heap_bytes(text: &str) -> Result<u64, String> {
    let most = max_heap_bytes();
    whole(text, 1, most, || format!("1 to {most} bytes (half of this machine's memory at most)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_are_above_0_or_off() {
        assert!(ratio("0").is_err() && ratio("off").is_ok());
    }
}
