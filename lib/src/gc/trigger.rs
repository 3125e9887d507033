//! The pacer: how many bytes may be allocated after a cycle before the next one starts.
//!
//! Go starts a cycle when the heap grows by GOGC % of what the previous cycle found live,
//! and never aims below a 4 MiB heap scaled the same way (`heapMinimum = 4 MiB x GOGC/100`).
//! With a tiny live heap it is that floor that sets how often the collector runs, so more
//! threads allocating faster means proportionally more cycles. `off` never paces; only the
//! heap ceiling (Go's memory limit) forces a cycle.

use super::types::GcRatio;

/// Go's minimum heap at GOGC=100.
pub const MIN_HEAP_BYTES: u64 = 4 << 20;

/// Go's heap minimum at `percent`: `heapMinimum = 4 MiB x GOGC/100` (runtime/mgcpacer.go), the
/// lowest heap goal the pacer sets. With a live heap near 0 MB it, not the live heap, spaces the
/// cycles: 4 MiB at GOGC=100, 96 MiB at 2400, 452 MiB at 11300.
pub fn heap_minimum_bytes(percent: u32) -> u64 {
    let scaled = u128::from(MIN_HEAP_BYTES) * u128::from(percent) / 100;
    u64::try_from(scaled).unwrap_or(u64::MAX)
}

/// Bytes allocated since the last cycle that start the next one: `max(live, min_heap) x
/// percent / 100`, or for `off` everything up to the ceiling; never more than the ceiling
/// leaves above the live heap.
pub fn trigger_bytes(live_bytes: u64, ratio: GcRatio, min_heap_bytes: u64, ceiling_bytes: u64) -> u64 {
    let headroom = ceiling_bytes.saturating_sub(live_bytes);
    match ratio {
        GcRatio::Off => headroom,
        GcRatio::Percent(percent) => {
            let paced = u128::from(live_bytes.max(min_heap_bytes)) * u128::from(percent) / 100;
            u64::try_from(paced).unwrap_or(u64::MAX).min(headroom)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;

    #[test]
    fn floor_sets_the_trigger_for_a_small_live_heap() {
        assert_eq!(trigger_bytes(MIB, GcRatio::Percent(100), MIN_HEAP_BYTES, GIB), 4 * MIB);
        assert_eq!(trigger_bytes(0, GcRatio::Percent(50), MIN_HEAP_BYTES, GIB), 2 * MIB);
        // The article's best setting: 4 MiB x 113.
        assert_eq!(trigger_bytes(MIB, GcRatio::Percent(11300), MIN_HEAP_BYTES, GIB), 452 * MIB);
    }

    #[test]
    fn the_heap_minimum_scales_with_the_ratio() {
        assert_eq!(heap_minimum_bytes(100), 4 * MIB);
        assert_eq!(heap_minimum_bytes(2400), 96 * MIB);
        assert_eq!(heap_minimum_bytes(11300), 452 * MIB);
        assert_eq!(heap_minimum_bytes(u32::MAX), (4 * MIB as u128 * u128::from(u32::MAX) / 100) as u64);
    }

    #[test]
    fn live_heap_sets_the_trigger_above_the_floor() {
        assert_eq!(trigger_bytes(16 * MIB, GcRatio::Percent(100), MIN_HEAP_BYTES, GIB), 16 * MIB);
        assert_eq!(trigger_bytes(16 * MIB, GcRatio::Percent(200), MIN_HEAP_BYTES, GIB), 32 * MIB);
        assert_eq!(trigger_bytes(10 * MIB, GcRatio::Percent(1), MIN_HEAP_BYTES, GIB), 104_857);
    }

    #[test]
    fn off_and_large_ratios_stop_at_the_ceiling() {
        assert_eq!(trigger_bytes(MIB, GcRatio::Off, MIN_HEAP_BYTES, GIB), GIB - MIB);
        assert_eq!(trigger_bytes(MIB, GcRatio::Percent(100_000), MIN_HEAP_BYTES, GIB), GIB - MIB);
        assert_eq!(trigger_bytes(MIB, GcRatio::Percent(u32::MAX), u64::MAX, GIB), GIB - MIB);
        assert_eq!(trigger_bytes(2 * GIB, GcRatio::Off, MIN_HEAP_BYTES, GIB), 0);
    }
}
