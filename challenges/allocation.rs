//! Challenge B, allocation under a collector: a signing handler that allocates, per
//! request, what Go's P-256 `Sign` allocates (33 temporaries, 2573 bytes) on the lab's
//! collected heap, so the collector stops the world and marks the live graph every few
//! thousand requests. Make `YourHandler` allocate less (reuse, pool, batch); every
//! signature must still verify, and each request needs its own.
//!
//! Check it (from the repository root; `-- --quick` for a first try in seconds):
//!
//!     cargo run --release --example challenge-allocation
//!
//! What is measured: signatures per second and collector cycles per second, at as many
//! workers as CPUs and Go's default ratio (GOGC=100). Hints: docs/workshop.md, "Fix it yourself".

#[path = "common.rs"]
mod common;

use contention::challenge::allocation::{check, sign_temporaries, Allocate, Handler, Work};
use contention::challenge::Challenge;

/// The baseline as handed out: every request allocates its temporaries on the collected
/// heap, half before signing and half after. Each worker has its own handler. Edit it.
struct YourHandler {
    temporaries: Vec<usize>,
}

impl Default for YourHandler {
    fn default() -> Self {
        Self { temporaries: sign_temporaries() }
    }
}

impl Handler for YourHandler {
    fn handle(&mut self, message: &[u8; 32], heap: &mut dyn Allocate, work: &Work) -> [u8; 64] {
        let (before, after) = self.temporaries.split_at(self.temporaries.len() / 2);
        for (object, &bytes) in before.iter().enumerate() {
            heap.allocate(bytes, message[object % message.len()]);
        }
        let signature = work.perform(message);
        for (object, &bytes) in after.iter().enumerate() {
            heap.allocate(bytes, message[(before.len() + object) % message.len()]);
        }
        signature
    }
}

fn main() -> std::process::ExitCode {
    common::check_and_save(Challenge::Allocation, check::<YourHandler>)
}
