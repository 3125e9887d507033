//! A request handler in place of the sweep's fixed operation: what a worker does with one
//! request, and where it allocates. The sweep's own operation allocates Go's `Sign` objects
//! around the work; a handler decides for itself what to allocate on the collected heap
//! (the allocation challenge, in the challenge module a layer above, hands it to a student).

use std::fmt;

use super::workload::Work;

/// The collected heap as a handler sees it: the worker's span, a safepoint at every call.
pub trait Allocate {
    /// Allocates an object of `bytes` payload filled with `fill`, garbage once the request
    /// returns (a cycle that stops the request midway keeps it as a root).
    fn allocate(&mut self, bytes: usize, fill: u8);
}

/// What one worker runs per request; each worker has its own (built by a [`Handlers`]), so
/// state it keeps between requests needs no lock.
pub trait Handler: Send {
    /// Answers the request `message`: its signature, from `work.perform(message)`.
    fn handle(&mut self, message: &[u8; 32], heap: &mut dyn Allocate, work: &Work) -> [u8; 64];
}

/// Builds one handler per worker.
#[derive(Clone, Copy)]
pub struct Handlers<'a>(pub &'a (dyn Fn() -> Box<dyn Handler> + Sync));

impl fmt::Debug for Handlers<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Handlers")
    }
}
