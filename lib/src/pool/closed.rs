//! Where a run's requests come from: the open-loop schedule (the latency runs), or a closed
//! loop of callers that each send their next request as soon as the last one finished or
//! was dropped (the capacity probe: the pool is never short of work, so what it completes
//! per second is what it can serve).

use std::time::{Duration, Instant};

use super::arrivals::{dispatch, draw_request, Job, Load, Request, SplitMix64};
use super::gate::Gate;
use super::tally::Tally;

/// The closed loop of the capacity probe.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClosedLoop {
    pub clients: usize,
    /// The request mix; its window is how long callers keep sending.
    pub load: Load,
    pub seed: u64,
}

impl ClosedLoop {
    /// Completions are counted after the first third of the window: the callers start all at
    /// once, and the slow class takes a while to fill the queues it will hold in steady state.
    pub fn ramp_up(&self) -> Duration {
        self.load.window / 3
    }
}

/// Where one run's requests come from.
#[derive(Debug, Clone, Copy)]
pub enum Feed<'a> {
    /// The schedule, released at its times; `window` is how long it spans.
    Open {
        requests: &'a [Request],
        window: Duration,
    },
    Closed(ClosedLoop),
}

impl Feed<'_> {
    /// The span, from a run's `start`, whose completions give its throughput: while requests
    /// arrive, less a closed loop's ramp-up.
    pub fn counted(&self, start: Instant) -> (Instant, Instant) {
        match self {
            Feed::Open { window, .. } => (start, start + *window),
            Feed::Closed(closed) => (start + closed.ramp_up(), start + closed.load.window),
        }
    }

    /// The tally this feed needs: a closed loop's finished requests free their callers.
    pub fn tally(&self, queue_timeout: Duration) -> Tally {
        match self {
            Feed::Open { .. } => Tally::new(queue_timeout),
            Feed::Closed(closed) => Tally::gated(queue_timeout, Gate::new(closed.clients)),
        }
    }

    /// Releases the requests through `submit`, calling `between` after each wait; returns
    /// how many were released.
    pub fn run(&self, start: Instant, tally: &Tally, mut submit: impl FnMut(Job), between: impl FnMut()) -> u64 {
        match self {
            Feed::Open { requests, .. } => dispatch(start, requests, submit, between),
            Feed::Closed(closed) => {
                let gate = tally.gate().expect("a closed loop's tally is gated (Feed::tally)");
                send_closed(closed, gate, start, &mut submit, between)
            }
        }
    }
}

/// Sends a request whenever a caller is idle, until the window ends. A request's latency
/// starts when it is sent (a closed loop has no schedule to fall behind).
fn send_closed(
    closed: &ClosedLoop,
    gate: &Gate,
    start: Instant,
    submit: &mut impl FnMut(Job),
    mut between: impl FnMut(),
) -> u64 {
    let mut rng = SplitMix64::new(closed.seed);
    let deadline = start + closed.load.window;
    let mut sent = 0;
    while gate.send_before(deadline) {
        let now = Instant::now();
        let request = draw_request(&closed.load, &mut rng, now.duration_since(start).as_nanos() as u64);
        submit(Job { request, arrived: now });
        sent += 1;
        between();
    }
    sent
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_loop_keeps_at_most_its_clients_outstanding_and_stops_at_the_window() {
        let load = Load {
            rate_per_s: 1.0,
            window: Duration::from_millis(30),
            hit_rate: 0.5,
            hit_wait_ms: [1.0, 2.0],
            miss_wait_ms: [40.0, 80.0],
        };
        let feed = Feed::Closed(ClosedLoop { clients: 3, load, seed: 1 });
        let tally = feed.tally(Duration::from_secs(1));
        let mut jobs = Vec::new();
        let started = Instant::now();
        // Nobody serves: after three sends the callers wait until the window ends.
        let sent = feed.run(started, &tally, |job| jobs.push(job), || {});
        assert_eq!(sent, 3);
        assert!(started.elapsed() >= Duration::from_millis(30));
        jobs.iter().for_each(|job| tally.complete(job));
        assert_eq!(tally.completed(), 3);
    }
}
