//! How a real runtime's side (Go beside the GC sweep, the JVM beside the locks) keeps to its
//! experiment's budget. Its program is built first, once per source and toolchain (then
//! cached), under its own limit, [`BUILD_LIMIT`]: a laptop's first run pays a cold build of
//! tens of seconds, and a budget spent compiling would measure nothing. The side's clock
//! starts once the program is built, and everything after is paid from that one budget:
//! each process's start-up and the trials. So the side measures for about its budget, never
//! twice it; what the budget cut (cells, trials) the manifest and the page say.

use std::time::{Duration, Instant};

use crate::child::side_deadline;

/// One side's budget, counted from its start.
#[derive(Debug, Clone, Copy)]
pub struct SideClock {
    started: Instant,
    budget: Duration,
    /// Where every child of the side is killed, whatever it is doing ([`side_deadline`]).
    deadline: Instant,
}

impl SideClock {
    /// A clock for `budget`, started now.
    pub fn start(budget: Duration) -> Self {
        Self { started: Instant::now(), budget, deadline: side_deadline(budget) }
    }

    pub fn budget(&self) -> Duration {
        self.budget
    }

    /// What the side has spent so far.
    pub fn spent(&self) -> Duration {
        self.started.elapsed()
    }

    /// What is left of the budget (zero once spent).
    pub fn left(&self) -> Duration {
        self.budget.saturating_sub(self.spent())
    }

    /// True when `next` (what the next step is expected to take) still fits the budget.
    pub fn fits(&self, next: Duration) -> bool {
        next <= self.left()
    }

    /// The hard stop for every child of the side.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// The deadline of one step expected to take `expected`: twice that and a grace for a
    /// loaded machine's start-up, and never past the side's own deadline. A step that hangs
    /// is killed there, and the side keeps what the steps before it measured.
    pub fn step_deadline(&self, expected: Duration) -> Instant {
        self.deadline.min(Instant::now() + 2 * expected + STEP_GRACE)
    }
}

/// The most a one-time build (`go build`, `javac`) may take before it counts as hung: a cold
/// Go build took 12 s on an idle 2-vCPU machine and 21 s beside other builds; a slow laptop
/// may take a few times that.
pub const BUILD_LIMIT: Duration = Duration::from_secs(120);

/// What a step may take beyond twice its expected time before it counts as hung: a
/// process's start on a loaded two-CPU machine takes up to a few seconds.
const STEP_GRACE: Duration = Duration::from_secs(5);

/// "the 15 s budget", as a note names it.
pub fn budget_text(budget: Duration) -> String {
    format!("the {} s budget", contention::format::short_number(budget.as_secs_f64()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_never_outlives_the_side_and_the_budget_runs_down() {
        let clock = SideClock::start(Duration::from_secs(2));
        assert!(clock.step_deadline(Duration::from_secs(600)) <= clock.deadline());
        assert!(clock.step_deadline(Duration::ZERO) <= Instant::now() + STEP_GRACE);
        assert!(clock.fits(Duration::from_secs(1)) && !clock.fits(Duration::from_secs(3)));
        assert!(clock.left() <= clock.budget());
        let spent = SideClock { started: Instant::now() - Duration::from_secs(3), ..clock };
        assert_eq!(spent.left(), Duration::ZERO);
        assert!(!spent.fits(Duration::from_millis(1)));
        assert_eq!(budget_text(Duration::from_millis(12_500)), "the 12.5 s budget");
    }
}
