//! Open-loop arrivals: a Poisson schedule drawn up front (so every variant of a trial gets
//! the same requests), and a dispatcher that releases each request at its time whatever the
//! pool is doing. Latency is measured from the *scheduled* arrival, so a dispatcher or pool
//! that falls behind shows up as latency instead of hiding it (no coordinated omission).

use std::time::{Duration, Instant};

/// One request of the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    /// Scheduled arrival, from the start of the run.
    pub arrival_ns: u64,
    /// Simulated IO: how long the request blocks after its CPU work.
    pub wait_ns: u64,
    /// Served from the cache (short wait) rather than the database.
    pub hit: bool,
    /// Input of the request's CPU work.
    pub seed: u64,
}

/// A request released to a pool: its schedule entry and when it arrived.
#[derive(Debug, Clone, Copy)]
pub struct Job {
    pub request: Request,
    pub arrived: Instant,
}

/// The load of one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Load {
    pub rate_per_s: f64,
    pub window: Duration,
    pub hit_rate: f64,
    pub hit_wait_ms: [f64; 2],
    pub miss_wait_ms: [f64; 2],
}

/// SplitMix64 (Steele, Lea & Flood 2014): small, fast and good enough for arrival times.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Draws the run's requests: exponential gaps at `rate_per_s` until the window ends; each
/// request a hit with probability `hit_rate`, its wait uniform in its class's range.
pub fn schedule(load: &Load, seed: u64) -> Vec<Request> {
    let mut rng = SplitMix64::new(seed);
    let window_ns = load.window.as_nanos() as f64;
    let mean_gap_ns = 1e9 / load.rate_per_s;
    let mut requests = Vec::with_capacity((window_ns / mean_gap_ns * 1.1) as usize + 16);
    let mut time_ns = 0.0;
    loop {
        // Inverse transform: -ln(1 - U) is exponential with mean 1.
        time_ns += -(1.0 - rng.next_f64()).ln() * mean_gap_ns;
        if time_ns >= window_ns {
            return requests;
        }
        requests.push(draw_request(load, &mut rng, time_ns as u64));
    }
}

/// One request arriving at `arrival_ns`: a hit with probability `hit_rate`, its wait
/// uniform in its class's range.
pub fn draw_request(load: &Load, rng: &mut SplitMix64, arrival_ns: u64) -> Request {
    let hit = rng.next_f64() < load.hit_rate;
    let [low_ms, high_ms] = if hit { load.hit_wait_ms } else { load.miss_wait_ms };
    let wait_ms = low_ms + (high_ms - low_ms) * rng.next_f64();
    Request { arrival_ns, wait_ns: (wait_ms * 1e6) as u64, hit, seed: rng.next_u64() }
}

/// Releases every request at its scheduled time through `submit`, sleeping in between, and
/// calls `between` after each wake-up (the caller samples memory there). Requests whose time
/// has passed are released at once, stamped with their scheduled time. Returns how many
/// requests were released.
pub fn dispatch(start: Instant, requests: &[Request], mut submit: impl FnMut(Job), mut between: impl FnMut()) -> u64 {
    let mut released = 0;
    for request in requests {
        let arrived = start + Duration::from_nanos(request.arrival_ns);
        let now = Instant::now();
        if arrived > now {
            std::thread::sleep(arrived - now);
            between();
        }
        submit(Job { request: *request, arrived });
        released += 1;
    }
    released
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(hit_rate: f64) -> Load {
        Load {
            rate_per_s: 2000.0,
            window: Duration::from_secs(5),
            hit_rate,
            hit_wait_ms: [1.0, 2.0],
            miss_wait_ms: [40.0, 80.0],
        }
    }

    #[test]
    fn schedule_is_ordered_inside_the_window_with_waits_in_range() {
        let requests = schedule(&load(0.9), 1);
        assert!(requests.windows(2).all(|pair| pair[0].arrival_ns <= pair[1].arrival_ns));
        assert!(requests.iter().all(|r| r.arrival_ns < 5_000_000_000));
        for request in &requests {
            let range = if request.hit { 1_000_000..=2_000_000 } else { 40_000_000..=80_000_000 };
            assert!(range.contains(&request.wait_ns), "wait {} ns, hit {}", request.wait_ns, request.hit);
        }
    }

    #[test]
    fn schedule_matches_rate_and_hit_rate_within_sampling_error() {
        let requests = schedule(&load(0.92), 2);
        // 10 000 expected; a Poisson count's sd is 100, so 5 sd is 500.
        assert!((requests.len() as f64 - 10_000.0).abs() < 500.0, "{} requests", requests.len());
        let hits = requests.iter().filter(|r| r.hit).count() as f64 / requests.len() as f64;
        assert!((hits - 0.92).abs() < 0.015, "hit share {hits}");
    }

    #[test]
    fn same_seed_same_schedule_and_extreme_hit_rates() {
        assert_eq!(schedule(&load(0.5), 9), schedule(&load(0.5), 9));
        assert!(schedule(&load(1.0), 3).iter().all(|r| r.hit));
        assert!(schedule(&load(0.0), 3).iter().all(|r| !r.hit));
    }

    #[test]
    fn dispatch_releases_every_request_in_order() {
        let requests = schedule(&Load { window: Duration::from_millis(50), ..load(0.9) }, 4);
        let mut seen = Vec::new();
        let released = dispatch(Instant::now(), &requests, |job| seen.push(job.request), || {});
        assert_eq!(released as usize, requests.len());
        assert_eq!(seen, requests);
    }
}
