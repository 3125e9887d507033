//! What every counter layout is to the runner, the layouts and the spread counters alike:
//! the one trait their files share.

use std::fmt::Debug;

use super::Layout;

/// A counter that many threads add to, then read once they have all been joined.
pub trait Counter: Sync + Debug {
    fn layout(&self) -> Layout;
    /// Adds 1, `count` times, as worker `worker`: the timed loop.
    fn add_ones(&self, worker: usize, count: u64);
    /// The total (call after the workers have been joined).
    fn read(&self) -> u64;
    /// Back to zero between trials.
    fn reset(&self);
    /// Memory cells the layout uses.
    fn cells(&self) -> usize;
    /// Bytes those cells occupy.
    fn bytes_used(&self) -> usize;
    /// Increments per write to memory other threads see.
    fn increments_per_write(&self) -> u64 {
        1
    }
}
