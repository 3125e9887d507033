//! Sizing rules: Goetz's formula as the article used it (with the *mean* W/C of two unlike
//! paths), and the per-class reasoning the split variant follows instead.

use serde::{Deserialize, Serialize};

use super::config::Config;

/// Headroom over the mean concurrency a per-class pool needs (Little's law): a pool sized to
/// the mean is fully busy on average, so any burst queues.
pub const SPLIT_HEADROOM: f64 = 1.5;

/// Goetz's N = Ncpu x U x (1 + W/C): threads that keep `cpus` at `utilization` when each
/// task waits `wait` for every `compute` of CPU (same unit for both).
pub fn goetz_threads(cpus: f64, utilization: f64, wait: f64, compute: f64) -> f64 {
    cpus * utilization * (1.0 + wait / compute)
}

/// Little's law: the mean number of requests in a stage is arrival rate x time in the stage.
pub fn mean_concurrency(rate_per_s: f64, seconds_in_stage: f64) -> f64 {
    rate_per_s * seconds_in_stage
}

/// The two pools of the split variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitSizes {
    /// Does every request's CPU work and waits on the cache for hits.
    pub fast_threads: usize,
    /// Waits on the database for misses: bounded like a connection pool.
    pub db_connections: usize,
}

/// Per-class sizing: each pool holds [`SPLIT_HEADROOM`] times the mean number of requests in
/// its stage, by Little's law, unless the config sets the size. The fast pool keeps at least
/// one thread per CPU so the CPU work can use every CPU.
pub fn split_sizes(config: &Config, cpus: usize, hit_rate: f64, rate_per_s: f64) -> SplitSizes {
    let mid = |[low, high]: [f64; 2]| (low + high) / 2.0 / 1e3;
    let fast_stage_s = config.cpu_work.as_secs_f64() + hit_rate * mid(config.hit_wait_ms);
    let db_stage_s = mid(config.miss_wait_ms);
    let fast = (SPLIT_HEADROOM * mean_concurrency(rate_per_s, fast_stage_s)).ceil() as usize;
    let db = (SPLIT_HEADROOM * mean_concurrency(rate_per_s * (1.0 - hit_rate), db_stage_s)).ceil() as usize;
    SplitSizes {
        fast_threads: config.split_fast_threads.unwrap_or(fast.max(cpus)),
        db_connections: config.split_db_connections.unwrap_or(db.max(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_articles_inputs_give_320() {
        // 8 cores x 0.8 x (1 + 49 ms / 1 ms), as the article computed it.
        let threads = goetz_threads(8.0, 0.8, 49.0, 1.0);
        assert!((threads - 320.0).abs() < 1e-9, "got {threads}");
    }

    #[test]
    fn the_formula_scales_with_each_input() {
        assert!((goetz_threads(2.0, 1.0, 0.0, 1.0) - 2.0).abs() < 1e-12);
        assert!((goetz_threads(4.0, 0.5, 3.0, 1.0) - 8.0).abs() < 1e-12);
    }

    #[test]
    fn split_pools_follow_littles_law_with_headroom() {
        let config = Config { cpu_work: std::time::Duration::from_millis(1), ..Config::default() };
        // 1000 req/s, hit 0.5: fast stage 1 ms + 0.5 x 1.5 ms = 1.75 ms -> 1.75 x 1.5 = 2.625 -> 3;
        // misses 500/s x 60 ms = 30 -> 45.
        let sizes = split_sizes(&config, 2, 0.5, 1000.0);
        assert_eq!(sizes, SplitSizes { fast_threads: 3, db_connections: 45 });
        let fixed = Config { split_fast_threads: Some(7), split_db_connections: Some(9), ..config };
        assert_eq!(split_sizes(&fixed, 2, 0.5, 1000.0), SplitSizes { fast_threads: 7, db_connections: 9 });
    }
}
