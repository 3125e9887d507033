//! The two locks this lab builds itself, because no crate it uses offers them bare: a
//! spin lock (never sleeps) and a sequence lock (readers write nothing shared). Both guard
//! data held in atomics accessed with `Relaxed` loads and stores inside the critical
//! section, so neither needs `unsafe`: the lock's acquire and release order those accesses,
//! and on x86-64 and aarch64 a relaxed load or store is a plain `mov`/`ldr`/`str`.

use std::hint::spin_loop;
use std::sync::atomic::{fence, AtomicBool, AtomicU64, Ordering};
use std::thread;

/// Spins between yields: after this many failed looks at a held lock a waiter yields its
/// CPU, so a team with more threads than CPUs still progresses (a preempted holder would
/// otherwise cost every spinner a whole time slice). A yield is not a sleep: the thread
/// stays runnable and no voluntary context switch is counted.
const SPINS_BEFORE_YIELD: u32 = 128;

/// A test-and-test-and-set spin lock: `swap(true)` to take it, and while it is held, plain
/// loads (which keep the line shared in every waiter's cache) until it looks free.
#[derive(Debug, Default)]
pub struct SpinLock {
    locked: AtomicBool,
}

/// Holds a [`SpinLock`]; dropping it releases the lock.
#[derive(Debug)]
pub struct SpinGuard<'a> {
    lock: &'a SpinLock,
}

impl SpinLock {
    pub fn lock(&self) -> SpinGuard<'_> {
        let mut spins = 0u32;
        while self.locked.swap(true, Ordering::Acquire) {
            while self.locked.load(Ordering::Relaxed) {
                spin_loop();
                spins += 1;
                if spins % SPINS_BEFORE_YIELD == 0 {
                    thread::yield_now();
                }
            }
        }
        SpinGuard { lock: self }
    }
}

impl Drop for SpinGuard<'_> {
    fn drop(&mut self) {
        self.lock.locked.store(false, Ordering::Release);
    }
}

/// What a [`SeqLock`] protects: a version and two fields derived from it, so a read that
/// mixed two writes is caught by [`Snapshot::is_consistent`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snapshot {
    pub version: u64,
    pub scaled: u64,
    pub flipped: u64,
}

/// The factor and mask tying the fields to the version.
const SCALE: u64 = 0x9e37_79b9_7f4a_7c15;
const FLIP: u64 = 0xa5a5_a5a5_a5a5_a5a5;

impl Snapshot {
    /// The fields every writer stores for `version`.
    pub fn of(version: u64) -> Self {
        Self { version, scaled: version.wrapping_mul(SCALE), flipped: version ^ FLIP }
    }

    /// The two derived fields folded into one number (what a verification error shows).
    pub fn fingerprint(&self) -> u64 {
        self.scaled ^ self.flipped
    }

    /// True when all three fields come from one write.
    pub fn is_consistent(&self) -> bool {
        *self == Self::of(self.version)
    }
}

/// A sequence lock with optimistic reads (Linux's seqlock, Java's `StampedLock` optimistic
/// mode). A writer takes the writers' lock, makes the sequence odd, writes the fields and
/// makes it even again. A reader reads the sequence, the fields, then the sequence again;
/// when the two differ (or the first was odd) a writer came between and the read is retried.
/// Readers store nothing, so with no writer the line stays shared in every reader's cache.
///
/// The orderings are the C++ memory model's seqlock (Boehm, "Can seqlocks get along with
/// programming language memory models?", MSPC 2012): fields as relaxed atomics, an acquire
/// fence before the second sequence read, a release fence after the writer's first store.
#[derive(Debug)]
pub struct SeqLock {
    sequence: AtomicU64,
    version: AtomicU64,
    scaled: AtomicU64,
    flipped: AtomicU64,
    writers: SpinLock,
}

impl Default for SeqLock {
    /// Version 0, its fields consistent.
    fn default() -> Self {
        let zero = Snapshot::of(0);
        Self {
            sequence: AtomicU64::new(0),
            version: AtomicU64::new(zero.version),
            scaled: AtomicU64::new(zero.scaled),
            flipped: AtomicU64::new(zero.flipped),
            writers: SpinLock::default(),
        }
    }
}

impl SeqLock {
    /// A consistent snapshot and how many attempts were retried because a writer came
    /// between (torn reads caught and thrown away).
    #[inline]
    pub fn read(&self) -> (Snapshot, u64) {
        let mut retries = 0;
        loop {
            let before = self.sequence.load(Ordering::Acquire);
            if before % 2 == 0 {
                let snapshot = Snapshot {
                    version: self.version.load(Ordering::Relaxed),
                    scaled: self.scaled.load(Ordering::Relaxed),
                    flipped: self.flipped.load(Ordering::Relaxed),
                };
                fence(Ordering::Acquire);
                if self.sequence.load(Ordering::Relaxed) == before {
                    return (snapshot, retries);
                }
            }
            retries += 1;
            spin_loop();
        }
    }

    /// Moves the protected state to the next version; returns it.
    #[inline]
    pub fn write_next(&self) -> u64 {
        let _writer = self.writers.lock();
        let sequence = self.sequence.load(Ordering::Relaxed);
        self.sequence.store(sequence + 1, Ordering::Relaxed);
        fence(Ordering::Release);
        let next = Snapshot::of(self.version.load(Ordering::Relaxed) + 1);
        self.version.store(next.version, Ordering::Relaxed);
        self.scaled.store(next.scaled, Ordering::Relaxed);
        self.flipped.store(next.flipped, Ordering::Relaxed);
        self.sequence.store(sequence + 2, Ordering::Release);
        next.version
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spin_lock_excludes() {
        let lock = SpinLock::default();
        let count = AtomicU64::new(0);
        thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for _ in 0..10_000 {
                        let _guard = lock.lock();
                        count.store(count.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
                    }
                });
            }
        });
        assert_eq!(count.into_inner(), 40_000);
    }

    #[test]
    fn optimistic_reads_never_return_a_torn_snapshot() {
        let lock = SeqLock::default();
        let done = AtomicBool::new(false);
        thread::scope(|scope| {
            scope.spawn(|| {
                for _ in 0..20_000 {
                    lock.write_next();
                }
                done.store(true, Ordering::Release);
            });
            let mut last = 0;
            while !done.load(Ordering::Acquire) {
                let (snapshot, _) = lock.read();
                assert!(snapshot.is_consistent(), "torn read escaped: {snapshot:?}");
                assert!(snapshot.version >= last, "versions went back");
                last = snapshot.version;
            }
        });
        assert_eq!(lock.read().0, Snapshot::of(20_000));
    }
}
