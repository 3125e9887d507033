//! The work queue a pool of OS threads takes requests from: a mutex-guarded FIFO with a
//! condition variable, like Java's `LinkedBlockingQueue` under a `ThreadPoolExecutor`.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use super::arrivals::Job;

#[derive(Debug, Default)]
struct State {
    jobs: VecDeque<Job>,
    closed: bool,
    peak_len: usize,
}

#[derive(Debug, Default)]
pub struct JobQueue {
    state: Mutex<State>,
    ready: Condvar,
}

impl JobQueue {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds a job and wakes one idle worker.
    pub fn push(&self, job: Job) {
        let mut state = self.lock();
        state.jobs.push_back(job);
        state.peak_len = state.peak_len.max(state.jobs.len());
        drop(state);
        self.ready.notify_one();
    }

    /// The oldest job; blocks while the queue is empty and open; `None` once closed and empty.
    pub fn pop(&self) -> Option<Job> {
        let mut state = self.lock();
        loop {
            if let Some(job) = state.jobs.pop_front() {
                return Some(job);
            }
            if state.closed {
                return None;
            }
            state = self.ready.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// No more jobs will come: workers finish what is queued, then stop.
    pub fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }

    /// The most jobs that waited at once.
    pub fn peak_len(&self) -> usize {
        self.lock().peak_len
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::pool::arrivals::Request;

    fn job(seed: u64) -> Job {
        Job { request: Request { arrival_ns: 0, wait_ns: 0, hit: true, seed }, arrived: Instant::now() }
    }

    #[test]
    fn fifo_until_closed_and_drained_with_peak() {
        let queue = JobQueue::default();
        (0..3).for_each(|seed| queue.push(job(seed)));
        assert_eq!(queue.pop().map(|j| j.request.seed), Some(0));
        queue.push(job(3));
        queue.close();
        let rest: Vec<u64> = std::iter::from_fn(|| queue.pop()).map(|j| j.request.seed).collect();
        assert_eq!(rest, vec![1, 2, 3]);
        assert_eq!(queue.peak_len(), 3);
    }

    #[test]
    fn close_wakes_a_blocked_worker() {
        let queue = JobQueue::default();
        std::thread::scope(|scope| {
            let worker = scope.spawn(|| queue.pop());
            std::thread::sleep(std::time::Duration::from_millis(20));
            queue.close();
            assert!(worker.join().expect("worker").is_none());
        });
    }
}
