//! CPU clock facts, read from Linux's cpufreq files before and after each experiment: the
//! current frequency, the governor, and whether boost (turbo) is on. A single thread may
//! run at a higher clock than a whole team (article B: 3.0 GHz on one core, 2.1 GHz on
//! all), and a clock that moves during an experiment changes every time it measured.
//! Whatever the kernel does not expose (most VMs, other OSes) is `None`, shown "unknown".

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::disturbance::Disturbance;

/// A clock that moved by more than this share between the start and the end of an
/// experiment counts against the verdict.
pub const MAX_CLOCK_CHANGE: f64 = 0.10;

/// The clock state at one moment.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Clocks {
    /// Mean of every CPU's `scaling_cur_freq`, in MHz.
    pub mean_mhz: Option<f64>,
    /// CPU 0's cpufreq governor ("performance", "powersave", "schedutil", ...).
    pub governor: Option<String>,
    /// Boost / turbo enabled (`cpufreq/boost`, or the inverse of `intel_pstate/no_turbo`).
    pub boost: Option<bool>,
}

impl Clocks {
    /// Reads this machine's clocks.
    pub fn read() -> Self {
        crate::platform::cpu_frequency_root().map_or_else(|_| Self::default(), Self::read_from)
    }

    /// Reads the clocks from a sysfs-shaped folder (`cpuN/cpufreq/...`): tests pass their
    /// own.
    pub fn read_from(root: &Path) -> Self {
        let text = |path: &Path| std::fs::read_to_string(path).ok().map(|text| text.trim().to_string());
        let mut khz = Vec::new();
        for cpu in 0.. {
            let dir = root.join(format!("cpu{cpu}"));
            if !dir.is_dir() {
                break;
            }
            if let Some(value) = text(&dir.join("cpufreq/scaling_cur_freq")).and_then(|t| t.parse::<f64>().ok()) {
                khz.push(value);
            }
        }
        let boost = match (text(&root.join("cpufreq/boost")), text(&root.join("intel_pstate/no_turbo"))) {
            (Some(boost), _) => Some(boost == "1"),
            (None, Some(no_turbo)) => Some(no_turbo == "0"),
            (None, None) => None,
        };
        Self {
            mean_mhz: (!khz.is_empty()).then(|| khz.iter().sum::<f64>() / khz.len() as f64 / 1000.0),
            governor: text(&root.join("cpu0/cpufreq/scaling_governor")).filter(|governor| !governor.is_empty()),
            boost,
        }
    }

    /// "2100 MHz, governor performance, boost on", with "unknown" for what was not read.
    pub fn describe(&self) -> String {
        let mhz = self.mean_mhz.map_or("unknown".into(), |mhz| format!("{mhz:.0} MHz"));
        let governor = self.governor.as_deref().unwrap_or("unknown");
        let boost = self.boost.map_or("unknown", |on| if on { "on" } else { "off" });
        format!("{mhz}, governor {governor}, boost {boost}")
    }
}

/// The clocks over an experiment in words: "2100 MHz -> 1900 MHz, governor performance,
/// boost on", each fact "unknown" where it was not read and "a -> b" where it changed.
pub fn describe_change(before: &Clocks, after: &Clocks) -> String {
    fn span<T: PartialEq>(before: Option<T>, after: Option<T>, show: impl Fn(T) -> String) -> String {
        match (before, after) {
            (Some(a), Some(b)) if a == b => show(a),
            (a, b) => {
                let word = |value: Option<T>| value.map_or("unknown".to_string(), &show);
                format!("{} -> {}", word(a), word(b))
            }
        }
    }
    let mhz = match (before.mean_mhz, after.mean_mhz) {
        (Some(a), Some(b)) => format!("{a:.0} MHz -> {b:.0} MHz"),
        (a, b) => span(a.map(|mhz| mhz as u64), b.map(|mhz| mhz as u64), |mhz| format!("{mhz} MHz")),
    };
    let governor = span(before.governor.as_deref(), after.governor.as_deref(), str::to_string);
    let boost = span(before.boost, after.boost, |on| if on { "on".to_string() } else { "off".to_string() });
    format!("{mhz}, governor {governor}, boost {boost}")
}

/// How far the mean clock moved from `before` to `after`, as a share of `before`
/// (positive when it rose); `None` when either was not read.
pub fn clock_change(before: &Clocks, after: &Clocks) -> Option<f64> {
    let (before, after) = (before.mean_mhz?, after.mean_mhz?);
    (before > 0.0).then(|| (after - before) / before)
}

/// The largest clock move of one experiment, for the verdict: its size (a share, signed)
/// and the experiment.
pub fn moved_most(changes: impl IntoIterator<Item = (String, Option<f64>)>) -> Option<Disturbance> {
    changes
        .into_iter()
        .filter_map(|(during, change)| Some(Disturbance { share: change?, during }))
        .max_by(|a, b| a.share.abs().total_cmp(&b.share.abs()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_sysfs(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
        let root = std::env::temp_dir().join(format!("contention-clocks-{name}-{}", std::process::id()));
        for (path, text) in files {
            let file = root.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, text).unwrap();
        }
        root
    }

    #[test]
    fn clocks_read_frequency_governor_and_boost() {
        let root = fake_sysfs(
            "full",
            &[
                ("cpu0/cpufreq/scaling_cur_freq", "3000000\n"),
                ("cpu0/cpufreq/scaling_governor", "performance\n"),
                ("cpu1/cpufreq/scaling_cur_freq", "2000000\n"),
                ("intel_pstate/no_turbo", "0\n"),
            ],
        );
        let clocks = Clocks::read_from(&root);
        std::fs::remove_dir_all(&root).unwrap();
        assert_eq!(clocks.mean_mhz, Some(2500.0));
        assert_eq!(clocks.describe(), "2500 MHz, governor performance, boost on");
    }

    #[test]
    fn missing_files_are_unknown() {
        let root = fake_sysfs("empty", &[("cpu0/topology/core_id", "0")]);
        let clocks = Clocks::read_from(&root);
        std::fs::remove_dir_all(&root).unwrap();
        assert_eq!(clocks, Clocks::default());
        assert_eq!(clocks.describe(), "unknown, governor unknown, boost unknown");
        assert_eq!(clock_change(&clocks, &clocks), None);
    }

    #[test]
    fn changes_are_described_fact_by_fact() {
        let before = Clocks { mean_mhz: Some(2100.0), governor: Some("performance".into()), boost: Some(true) };
        let after = Clocks { mean_mhz: Some(1900.4), boost: Some(false), ..before.clone() };
        assert_eq!(describe_change(&before, &after), "2100 MHz -> 1900 MHz, governor performance, boost on -> off");
        let unknown = Clocks::default();
        assert_eq!(
            describe_change(&unknown, &unknown),
            "unknown -> unknown, governor unknown -> unknown, boost unknown -> unknown"
        );
    }

    #[test]
    fn the_largest_move_either_way_is_reported() {
        let at = |mhz| Clocks { mean_mhz: Some(mhz), ..Clocks::default() };
        assert_eq!(clock_change(&at(2000.0), &at(2300.0)), Some(0.15));
        let worst = moved_most([
            ("stride".to_string(), clock_change(&at(3000.0), &at(2100.0))),
            ("sharing".to_string(), clock_change(&at(2000.0), &at(2100.0))),
            ("c2c".to_string(), None),
        ]);
        assert_eq!(worst.map(|moved| moved.during), Some("stride".to_string()));
    }
}
