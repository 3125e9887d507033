//! Pinning by affinity mask, where the OS has one (Linux: `sched_setaffinity`, Windows:
//! `SetThreadAffinityMask`), through core_affinity, whose CI covers both.

use super::{Known, Unknown};

/// The process's affinity mask, ascending.
pub fn available_cpu_ids() -> Vec<usize> {
    let mut ids: Vec<usize> = core_affinity::get_core_ids().unwrap_or_default().into_iter().map(|cpu| cpu.id).collect();
    ids.sort_unstable();
    ids
}

pub fn pin_current_thread(cpu: usize) -> Known<()> {
    core_affinity::set_for_current(core_affinity::CoreId { id: cpu })
        .then_some(())
        .ok_or(Unknown("the OS refused to pin the thread (the CPU is outside this process's mask)"))
}

pub fn pinning_unavailable() -> Option<Unknown> {
    None
}
