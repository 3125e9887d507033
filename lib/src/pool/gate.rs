//! The closed loop's callers, shared by the loop that sends (`closed`) and the tally that
//! frees a caller when its request ends.

use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Instant;

/// Callers with a request outstanding, at most `clients` of them.
#[derive(Debug)]
pub struct Gate {
    outstanding: Mutex<usize>,
    freed: Condvar,
    clients: usize,
}

impl Gate {
    pub fn new(clients: usize) -> Self {
        Self { outstanding: Mutex::new(0), freed: Condvar::new(), clients }
    }

    /// Waits for an idle caller until `deadline`; true when one sends a request.
    pub(super) fn send_before(&self, deadline: Instant) -> bool {
        let mut outstanding = self.outstanding.lock().unwrap_or_else(PoisonError::into_inner);
        while *outstanding >= self.clients {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            outstanding =
                self.freed.wait_timeout(outstanding, deadline - now).unwrap_or_else(PoisonError::into_inner).0;
        }
        *outstanding += 1;
        true
    }

    /// A request finished: its caller may send the next.
    pub fn release(&self) {
        let mut outstanding = self.outstanding.lock().unwrap_or_else(PoisonError::into_inner);
        *outstanding = outstanding.saturating_sub(1);
        drop(outstanding);
        self.freed.notify_one();
    }
}
