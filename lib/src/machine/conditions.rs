//! What else the machine was doing while we measured: load average, CPU time stolen by the
//! hypervisor, CPU time used by other programs, and the CPU clocks ([`super::clocks`]), from
//! snapshots taken before and after.
//!
//! The load average alone cannot say this: our own worker threads raise it. So the
//! background share subtracts this process's CPU time (getrusage) from the busy time of the
//! whole machine (`/proc/stat`). Linux only; elsewhere every value is `None` ("unknown").

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::clocks::{clock_change, Clocks};
use super::load_average;

/// Other programs using more than this share of all CPU time count as background load.
pub const MAX_BACKGROUND_SHARE: f64 = 0.10;
/// The hypervisor stealing more than this share of CPU time counts as a noisy neighbour.
pub const MAX_STEAL_SHARE: f64 = 0.02;
/// `/proc/stat` counts whole clock ticks (usually 10 ms): over fewer ticks than this (summed
/// over CPUs) a share would be mostly rounding, so it is left unknown.
pub const MIN_TICKS_FOR_SHARES: u64 = 20;

/// Cumulative CPU time of the whole machine, summed over CPUs (the first line of
/// `/proc/stat`), in clock ticks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CpuTimes {
    /// user + nice + system + irq + softirq: time some program ran.
    pub busy_ticks: u64,
    /// idle + iowait.
    pub idle_ticks: u64,
    /// Time this guest's virtual CPUs wanted to run but the hypervisor ran something else.
    pub steal_ticks: u64,
}

impl CpuTimes {
    pub fn read() -> Option<Self> {
        Self::parse(&crate::platform::system_cpu_times().ok()?)
    }

    /// Parses the aggregate `cpu` line of `/proc/stat` (guest time is already in user).
    pub fn parse(proc_stat: &str) -> Option<Self> {
        let line = proc_stat.lines().find(|line| line.starts_with("cpu "))?;
        let fields: Vec<u64> = line.split_whitespace().skip(1).map(str::parse).collect::<Result<_, _>>().ok()?;
        let field = |index: usize| fields.get(index).copied().unwrap_or(0);
        if fields.len() < 4 {
            return None;
        }
        Some(Self {
            busy_ticks: field(0) + field(1) + field(2) + field(5) + field(6),
            idle_ticks: field(3) + field(4),
            steal_ticks: field(7),
        })
    }

    fn total_ticks(&self) -> u64 {
        self.busy_ticks + self.idle_ticks + self.steal_ticks
    }
}

/// The machine's state at one moment; two of them bracket a measurement.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    pub load_average: Option<[f64; 3]>,
    pub cpu_times: Option<CpuTimes>,
    /// CPU time this process has used so far, in clock ticks (fractional).
    pub own_cpu_ticks: Option<f64>,
    pub clocks: Clocks,
    pub at: Instant,
}

impl Snapshot {
    pub fn take() -> Self {
        Self {
            at: Instant::now(),
            load_average: load_average(),
            cpu_times: CpuTimes::read(),
            own_cpu_ticks: own_cpu_ticks(),
            clocks: Clocks::read(),
        }
    }
}

/// What the machine did between two snapshots.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conditions {
    pub load_average_before: Option<[f64; 3]>,
    pub load_average_after: Option<[f64; 3]>,
    /// Share of all CPU time (0..1) the hypervisor stole.
    pub steal_share: Option<f64>,
    /// Share of all CPU time (0..1) other programs used.
    pub background_share: Option<f64>,
    /// The CPU clocks when the experiment started and when it finished.
    #[serde(default)]
    pub clocks_before: Clocks,
    #[serde(default)]
    pub clocks_after: Clocks,
    /// Seconds it ran (a real runtime run beside it excluded); unknown for older runs.
    #[serde(default)]
    pub elapsed_s: Option<f64>,
    /// The real runtime run beside it (e.g. "Go") and the seconds that took.
    #[serde(default)]
    pub runtime_elapsed: Option<(String, f64)>,
}

impl Conditions {
    pub fn between(before: &Snapshot, after: &Snapshot) -> Self {
        let (steal_share, background_share) = match (before.cpu_times, after.cpu_times) {
            (Some(start), Some(end)) if end.total_ticks() >= start.total_ticks() + MIN_TICKS_FOR_SHARES => {
                let total = (end.total_ticks() - start.total_ticks()) as f64;
                let steal = end.steal_ticks.saturating_sub(start.steal_ticks) as f64 / total;
                let busy = end.busy_ticks.saturating_sub(start.busy_ticks) as f64;
                let own = match (before.own_cpu_ticks, after.own_cpu_ticks) {
                    (Some(start), Some(end)) => Some((end - start).max(0.0)),
                    _ => None,
                };
                (Some(steal), own.map(|own| ((busy - own) / total).clamp(0.0, 1.0)))
            }
            _ => (None, None),
        };
        Self {
            load_average_before: before.load_average,
            load_average_after: after.load_average,
            steal_share,
            background_share,
            clocks_before: before.clocks.clone(),
            clocks_after: after.clocks.clone(),
            elapsed_s: Some(after.at.saturating_duration_since(before.at).as_secs_f64()),
            runtime_elapsed: None,
        }
    }

    /// How far the mean CPU clock moved during the experiment (a signed share).
    pub fn clock_change(&self) -> Option<f64> {
        clock_change(&self.clocks_before, &self.clocks_after)
    }

    /// Other programs or the hypervisor took enough CPU time to disturb the measurement.
    pub fn under_load(&self) -> bool {
        self.background_share.is_some_and(|share| share > MAX_BACKGROUND_SHARE)
            || self.steal_share.is_some_and(|share| share > MAX_STEAL_SHARE)
    }
}

/// This process's user + system CPU time (all threads, joined ones included), in the
/// clock ticks `/proc/stat` counts in (where there is one).
fn own_cpu_ticks() -> Option<f64> {
    let ticks_per_second = crate::platform::clock_ticks_per_second().ok()?;
    let cpu_ns = crate::platform::process_times().ok()?.cpu_ns;
    Some(cpu_ns as f64 / 1e9 * ticks_per_second)
}

/// Runs `measure` and returns its result with what the rest of the machine did meanwhile
/// (other programs' CPU share, steal time), for a notebook's the assessment's `MachineRun::conditions`.
pub fn watched<T>(measure: impl FnOnce() -> T) -> (T, Conditions) {
    let before = Snapshot::take();
    let result = measure();
    (result, Conditions::between(&before, &Snapshot::take()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT: &str = "cpu  100 10 50 800 40 5 5 30 0 0\ncpu0 50 5 25 400 20 2 3 15 0 0\n";

    fn snapshot(cpu_times: CpuTimes, own_cpu_ticks: f64) -> Snapshot {
        Snapshot {
            load_average: Some([0.5, 0.4, 0.3]),
            cpu_times: Some(cpu_times),
            own_cpu_ticks: Some(own_cpu_ticks),
            clocks: Clocks::default(),
            at: Instant::now(),
        }
    }

    #[test]
    fn proc_stat_aggregate_line_parses() {
        let times = CpuTimes::parse(STAT).unwrap();
        assert_eq!(times, CpuTimes { busy_ticks: 170, idle_ticks: 840, steal_ticks: 30 });
        assert!(CpuTimes::parse("intr 1 2 3").is_none());
        assert!(CpuTimes::parse("cpu  1 x 3 4").is_none());
    }

    #[test]
    fn shares_subtract_our_own_cpu_time() {
        let before = snapshot(CpuTimes { busy_ticks: 1000, idle_ticks: 1000, steal_ticks: 10 }, 50.0);
        // 200 ticks elapsed in all: 150 busy (100 ours), 40 idle, 10 stolen.
        let after = snapshot(CpuTimes { busy_ticks: 1150, idle_ticks: 1040, steal_ticks: 20 }, 150.0);
        let conditions = Conditions::between(&before, &after);
        assert_eq!(conditions.steal_share, Some(0.05));
        assert_eq!(conditions.background_share, Some(0.25));
        assert!(conditions.under_load());
    }

    #[test]
    fn elapsed_time_runs_between_the_snapshots() {
        let times = CpuTimes { busy_ticks: 1000, idle_ticks: 1000, steal_ticks: 0 };
        let before = snapshot(times, 0.0);
        let after = Snapshot { at: before.at + std::time::Duration::from_millis(2500), ..snapshot(times, 0.0) };
        assert_eq!(Conditions::between(&before, &after).elapsed_s, Some(2.5));
        assert_eq!(Conditions::between(&after, &before).elapsed_s, Some(0.0), "never negative");
    }

    #[test]
    fn a_quiet_machine_is_not_under_load() {
        let before = snapshot(CpuTimes { busy_ticks: 1000, idle_ticks: 1000, steal_ticks: 0 }, 0.0);
        let after = snapshot(CpuTimes { busy_ticks: 1100, idle_ticks: 1100, steal_ticks: 0 }, 95.0);
        let conditions = Conditions::between(&before, &after);
        assert_eq!(conditions.steal_share, Some(0.0));
        assert!(!conditions.under_load(), "{conditions:?}");
    }

    #[test]
    fn too_few_ticks_means_unknown_not_a_rounding_error() {
        let before = CpuTimes { busy_ticks: 5, idle_ticks: 5, steal_ticks: 0 };
        let after = CpuTimes { busy_ticks: 5 + MIN_TICKS_FOR_SHARES - 1, ..before };
        let conditions = Conditions::between(&snapshot(before, 0.0), &snapshot(after, 0.0));
        assert_eq!((conditions.steal_share, conditions.background_share), (None, None));
        assert!(!conditions.under_load());
    }

    #[cfg(all(target_os = "linux", not(feature = "platform-fallback")))]
    #[test]
    fn linux_snapshots_read_proc_and_rusage() {
        let snapshot = Snapshot::take();
        assert!(snapshot.cpu_times.is_some() && snapshot.own_cpu_ticks.is_some(), "{snapshot:?}");
    }
}
