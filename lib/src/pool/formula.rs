//! Sizing rules: Goetz's formula as the article used it (one W for two unlike paths), and
//! the arithmetic of the per-class reasoning the split variant follows instead
//! (the config applies it: [`super::config::split_sizes`]).

use serde::{Deserialize, Serialize};

/// The article's inputs: W = 49 ms (a mean *response time* under load, queueing included,
/// not the mean wait of its two paths) and C = 1 ms.
pub const ARTICLE_WAIT_MS: f64 = 49.0;
pub const ARTICLE_COMPUTE_MS: f64 = 1.0;
/// The article's two paths: 92% hits at 1-2 ms, misses at 40-80 ms.
pub const ARTICLE_HIT_RATE: f64 = 0.92;
pub const ARTICLE_HIT_WAIT_MS: [f64; 2] = [1.0, 2.0];
pub const ARTICLE_MISS_WAIT_MS: [f64; 2] = [40.0, 80.0];

/// The mean wait of the article's own paths (6.18 ms): what W should have been.
pub fn article_path_wait_ms() -> f64 {
    let mid = |[low, high]: [f64; 2]| (low + high) / 2.0;
    ARTICLE_HIT_RATE * mid(ARTICLE_HIT_WAIT_MS) + (1.0 - ARTICLE_HIT_RATE) * mid(ARTICLE_MISS_WAIT_MS)
}

/// The article's machine and target: 8 cores kept 80% busy.
pub const ARTICLE_CPUS: f64 = 8.0;
pub const ARTICLE_UTILIZATION: f64 = 0.8;

/// Goetz's threads for the article's machine with W from its own paths (45.9, so 46): inside
/// the author's own rule of thumb of 32-64 threads on 8 cores, where 49 ms gave 320.
pub fn article_path_threads() -> f64 {
    goetz_threads(ARTICLE_CPUS, ARTICLE_UTILIZATION, article_path_wait_ms(), ARTICLE_COMPUTE_MS)
}

/// Headroom over the mean concurrency a per-class pool needs (Little's law): a pool sized to
/// the mean is fully busy on average, so any burst queues.
pub const SPLIT_HEADROOM: f64 = 1.5;

/// Goetz's N = Ncpu x U x (1 + W/C): threads that keep `cpus` at `utilization` when each
/// task waits `wait` for every `compute` of CPU (same unit for both).
pub fn goetz_threads(cpus: f64, utilization: f64, wait: f64, compute: f64) -> f64 {
    cpus * utilization * (1.0 + wait / compute)
}

/// A pool size from the formula: the nearest whole thread, at least one.
pub fn rounded(threads: f64) -> usize {
    (threads.round() as usize).max(1)
}

/// Little's law: the mean number of requests in a stage is arrival rate x time in the stage.
pub fn mean_concurrency(rate_per_s: f64, seconds_in_stage: f64) -> f64 {
    rate_per_s * seconds_in_stage
}

/// The two pools of the split variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitSizes {
    /// Does every request's CPU work and shared section, and waits on the cache for hits.
    pub fast_threads: usize,
    /// Waits on the database for misses: one thread per database connection.
    pub miss_threads: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_articles_inputs_give_320() {
        // 8 cores x 0.8 x (1 + 49 ms / 1 ms), as the article computed it.
        let threads = goetz_threads(ARTICLE_CPUS, ARTICLE_UTILIZATION, ARTICLE_WAIT_MS, ARTICLE_COMPUTE_MS);
        assert!((threads - 320.0).abs() < 1e-9, "got {threads}");
    }

    #[test]
    fn the_articles_paths_give_a_wait_of_6_2_ms_and_46_threads() {
        // 0.92 x 1.5 ms + 0.08 x 60 ms = 6.18 ms; 8 x 0.8 x (1 + 6.18) = 45.95.
        assert!((article_path_wait_ms() - 6.18).abs() < 1e-9, "got {}", article_path_wait_ms());
        assert!((article_path_threads() - 45.952).abs() < 1e-9, "got {}", article_path_threads());
        assert_eq!(rounded(article_path_threads()), 46);
        assert!((32..=64).contains(&rounded(article_path_threads())), "inside the author's 32-64");
    }

    #[test]
    fn the_formula_scales_with_each_input() {
        assert!((goetz_threads(2.0, 1.0, 0.0, 1.0) - 2.0).abs() < 1e-12);
        assert!((goetz_threads(4.0, 0.5, 3.0, 1.0) - 8.0).abs() < 1e-12);
    }
}
