//! A way for tests to make a trial's sum wrong, so every experiment's verification error can
//! be driven from outside: while [`with_extra_increments`] runs, each verified trial on the
//! calling thread adds `extra` increments of its own after the team is joined, exactly as
//! a lost or doubled update would leave the counters. Thread-local, so tests running in
//! parallel do not disturb each other; zero (no effect) everywhere else.

use std::cell::Cell;

thread_local! {
    static EXTRA_INCREMENTS: Cell<u64> = const { Cell::new(0) };
}

/// Runs `run` with `extra` stray increments added to every verified trial it starts on
/// this thread. For tests only.
#[doc(hidden)]
pub fn with_extra_increments<T>(extra: u64, run: impl FnOnce() -> T) -> T {
    /// Puts the previous value back even if `run` panics.
    struct Restore(u64);
    impl Drop for Restore {
        fn drop(&mut self) {
            EXTRA_INCREMENTS.with(|cell| cell.set(self.0));
        }
    }
    let _restore = Restore(EXTRA_INCREMENTS.with(|cell| cell.replace(extra)));
    run()
}

/// The stray increments a verified trial on this thread must add (0 outside tests).
pub(crate) fn extra_increments() -> u64 {
    EXTRA_INCREMENTS.with(Cell::get)
}
