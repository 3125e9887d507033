//! Which measuring flags the command line set: they decide a run's profile, and where
//! nothing is measured (`report --from`, `--compare`) they would be silently ignored, so
//! they are refused there.

use anyhow::Result;

use crate::cli::MeasureArgs;
use crate::usage::usage;

/// Flags that name or shape a run without setting an experiment's sizes.
const NOT_SIZES: [&str; 3] = ["label", "quick", "no-go"];

/// Every measuring flag given, by its name on the command line, in the order of `--help`.
pub fn measure_flags(args: &MeasureArgs) -> Vec<&'static str> {
    flags(args).into_iter().filter(|(_, set)| *set).map(|(flag, _)| flag).collect()
}

/// Every measuring flag, and whether `args` set it (a test checks this names them all).
fn flags(args: &MeasureArgs) -> [(&'static str, bool); 33] {
    [
        ("label", args.label.is_some()),
        ("quick", args.quick),
        ("threads", !args.threads.is_empty()),
        ("strides", !args.strides.is_empty()),
        ("iters", args.iters.is_some()),
        ("trials", args.trials.is_some()),
        ("total", args.total.is_some()),
        ("padding", args.padding.is_some()),
        ("flush-every", args.flush_every.is_some()),
        ("stripes", args.stripes.is_some()),
        ("cpus", args.cpus.is_some()),
        ("samples", args.samples.is_some()),
        ("ratios", !args.ratios.is_empty()),
        ("seconds", args.seconds.is_some()),
        ("live-bytes", args.live_bytes.is_some()),
        ("alloc-per-op", args.alloc_per_op.is_some()),
        ("ceiling-bytes", args.ceiling_bytes.is_some()),
        ("workload", args.workload.is_some()),
        ("no-go", args.no_go),
        ("pool-sizes", !args.pool_sizes.is_empty()),
        ("hit", !args.hit.is_empty()),
        ("rate", args.rate.is_some()),
        ("variant", args.variant.is_some()),
        ("hit-wait-ms", !args.hit_wait_ms.is_empty()),
        ("miss-wait-ms", !args.miss_wait_ms.is_empty()),
        ("rate-per-cpu", args.rate_per_cpu.is_some()),
        ("work-share", args.work_share.is_some()),
        ("cpu-work-ms", args.cpu_work_ms.is_some()),
        ("lock-hold-us", args.lock_hold_us.is_some()),
        ("db-connections", args.db_connections.is_some()),
        ("queue-timeout-ms", args.queue_timeout_ms.is_some()),
        ("capacity-seconds", args.capacity_seconds.is_some()),
        ("capacity-clients", args.capacity_clients.is_some()),
    ]
}

/// Whether any flag set an experiment's size (the run's profile is then "custom").
pub fn sized(args: &MeasureArgs) -> bool {
    measure_flags(args).iter().any(|flag| !NOT_SIZES.contains(flag))
}

/// Refuses the first measuring flag given beside `source` (`--from` or `--compare`, which
/// read runs already measured), and `--runs` (where a measured run would go).
pub fn refuse_beside_saved_runs(args: &MeasureArgs, runs_given: bool, source: &str) -> Result<()> {
    let flag = measure_flags(args).first().copied().or(runs_given.then_some("runs"));
    let Some(flag) = flag else { return Ok(()) };
    let what = match flag {
        "label" => "names a run being measured",
        "runs" => "names the folder a measured run goes to",
        _ => "sets how a run is measured",
    };
    Err(usage(format!(
        "--{flag} cannot be used with {source}: --{flag} {what}, and {source} reads runs that are already \
         measured (drop --{flag}, or measure with `contention run`)"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_set_is_named_and_only_sizes_make_a_custom_profile() {
        let quick = MeasureArgs { quick: true, label: Some("a".into()), no_go: true, ..MeasureArgs::default() };
        assert_eq!(measure_flags(&quick), vec!["label", "quick", "no-go"]);
        assert!(!sized(&quick));
        let ms = |value: f64| crate::flag_values::Number { value, text: value.to_string() };
        let trials = MeasureArgs { trials: Some(5), miss_wait_ms: vec![ms(1.0), ms(2.0)], ..MeasureArgs::default() };
        assert_eq!(measure_flags(&trials), vec!["trials", "miss-wait-ms"]);
        assert!(sized(&trials));
        let error = refuse_beside_saved_runs(&trials, false, "--from").unwrap_err().to_string();
        assert!(
            error.starts_with("--trials cannot be used with --from: --trials sets how a run is measured"),
            "{error}"
        );
        assert!(refuse_beside_saved_runs(&MeasureArgs::default(), false, "--compare").is_ok());
        assert!(refuse_beside_saved_runs(&MeasureArgs::default(), true, "--compare").is_err());
    }

    #[test]
    fn the_list_names_every_measuring_flag_clap_knows() {
        use clap::Args;
        let command = MeasureArgs::augment_args(clap::Command::new("measure"));
        let declared: Vec<String> =
            command.get_arguments().filter_map(|arg| arg.get_long()).map(str::to_string).collect();
        let listed: Vec<String> = flags(&MeasureArgs::default()).iter().map(|(flag, _)| flag.to_string()).collect();
        assert_eq!(listed, declared, "a flag missing here would be silently ignored beside --from");
    }
}
