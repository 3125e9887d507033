//! Challenge C, a lock held across a wait: a cache whose missing entry is computed with its
//! shard's write lock held, the computation a remote call that waits (as Java's
//! `computeIfAbsent` ran it), so every request for any key of that shard waits the call out,
//! hits included. Restructure `YourCache` so the wait holds no lock; every key must still hold
//! the service's value, computed at most once per thread that can miss it at once.
//!
//! Check it (from the repository root; `-- --quick` for a first try in seconds):
//!
//!     cargo run --release --example challenge-lock-across-wait
//!
//! Hints: docs/workshop.md, "Fix it yourself".

#[path = "common.rs"]
mod common;

use contention::challenge::lock_wait::{check, DashMap, Remote, RemoteCache};
use contention::challenge::Challenge;

/// The baseline as handed out: `entry().or_insert_with(call)` runs the call under the
/// shard's write lock. Edit it.
struct YourCache {
    map: DashMap<u64, u64>,
}

impl RemoteCache for YourCache {
    fn new() -> Self {
        Self { map: DashMap::new() }
    }
    fn get(&self, key: u64, remote: &Remote) -> u64 {
        *self.map.entry(key).or_insert_with(|| remote.call(key))
    }
}

fn main() -> std::process::ExitCode {
    common::check_and_save(Challenge::LockAcrossWait, check::<YourCache>)
}
