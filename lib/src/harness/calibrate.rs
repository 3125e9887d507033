//! Sizing the work of a trial so that it is long enough to time: a trial much shorter than
//! the start gate's stagger or a scheduler tick measures those, not the work (criterion
//! grows its iteration count the same way until a time budget is spent).

use std::time::Duration;

use crate::error::RunError;

/// The shortest time a measured trial of the fastest case may take.
pub const MIN_TRIAL_TIME: Duration = Duration::from_millis(10);

/// Most calibration rounds: each grows the work by at least 2x, so 64 rounds outgrow any
/// `u64` work size.
const MAX_ROUNDS: usize = 64;

/// The factor (>= 1) to multiply every case's work by so that the fastest of `cases` takes
/// at least [`MIN_TRIAL_TIME`], never above `max_scale`. `time_case(case, scale)` runs one
/// trial of case `case` at `scale` times the configured work and returns its elapsed time.
/// The first round times every case to find the fastest; later rounds time only that one.
/// Every case gets the same factor, so cases that share a total keep sharing it.
pub fn calibrate(
    cases: usize,
    max_scale: u64,
    mut time_case: impl FnMut(usize, u64) -> Result<Duration, RunError>,
) -> Result<u64, RunError> {
    let mut fastest = (0, Duration::MAX);
    for case in 0..cases {
        let elapsed = time_case(case, 1)?;
        if elapsed < fastest.1 {
            fastest = (case, elapsed);
        }
    }
    let (case, mut elapsed) = fastest;
    let mut scale = 1u64;
    for _ in 0..MAX_ROUNDS {
        if cases == 0 || elapsed >= MIN_TRIAL_TIME || scale >= max_scale {
            break;
        }
        scale = scale.saturating_mul(growth(elapsed)).min(max_scale.max(1));
        elapsed = time_case(case, scale)?;
    }
    Ok(scale)
}

/// One factor (>= 1) per case, each sizing that case's own work so that its trial takes at
/// least [`MIN_TRIAL_TIME`], never above `max_scale`: for cases whose speeds differ by
/// orders of magnitude (a `Mutex` against a local count), which one shared factor would
/// size for the fastest, leaving the slowest trials seconds long. Cases sized this way are
/// compared per operation, never by elapsed time. `time_case` is as for [`calibrate`].
pub fn calibrate_each(
    cases: usize,
    max_scale: u64,
    mut time_case: impl FnMut(usize, u64) -> Result<Duration, RunError>,
) -> Result<Vec<u64>, RunError> {
    (0..cases).map(|case| calibrate(1, max_scale, |_, scale| time_case(case, scale))).collect()
}

/// How much to grow work that took `elapsed`: a quarter past the target, 2x to 1024x.
fn growth(elapsed: Duration) -> u64 {
    let wanted = MIN_TRIAL_TIME.as_secs_f64() * 1.25 / elapsed.as_secs_f64().max(1e-9);
    (wanted.ceil() as u64).clamp(2, 1024)
}

/// The largest scale at which `work` (per thread) times `threads` still fits in a `u64`.
pub fn max_scale(work: u64, threads: usize) -> u64 {
    u64::MAX / work.max(1).saturating_mul(threads.max(1) as u64).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic case: `ns_per_unit` nanoseconds per unit of work.
    fn timed(ns_per_unit: &[u64]) -> impl FnMut(usize, u64) -> Result<Duration, RunError> + '_ {
        move |case, scale| Ok(Duration::from_nanos(ns_per_unit[case].saturating_mul(scale)))
    }

    #[test]
    fn short_work_grows_until_the_fastest_case_takes_ten_milliseconds() {
        let scale = calibrate(3, u64::MAX, timed(&[50_000, 10_000, 900_000])).unwrap();
        assert!(Duration::from_nanos(10_000 * scale) >= MIN_TRIAL_TIME, "scale {scale}");
        assert!(scale < 2 * 1250, "grew far past the target: {scale}");
    }

    #[test]
    fn each_case_gets_its_own_factor() {
        let per_unit = [10_000, 1_000_000, 40_000_000];
        let scales = calibrate_each(3, u64::MAX, timed(&per_unit)).unwrap();
        assert_eq!(scales.len(), 3);
        for (scale, ns) in scales.iter().zip(per_unit) {
            let trial = Duration::from_nanos(ns * scale);
            assert!(trial >= MIN_TRIAL_TIME && trial < 30 * MIN_TRIAL_TIME, "{trial:?} at scale {scale}");
        }
        assert_eq!(scales[2], 1, "work already long enough is left alone");
        assert!(calibrate_each(0, 8, timed(&[])).unwrap().is_empty());
    }

    #[test]
    fn long_work_is_left_alone_and_the_cap_holds() {
        assert_eq!(calibrate(2, u64::MAX, timed(&[20_000_000, 30_000_000])).unwrap(), 1);
        assert_eq!(calibrate(1, 8, timed(&[1])).unwrap(), 8);
        assert_eq!(calibrate(0, 8, timed(&[])).unwrap(), 1);
        assert_eq!(max_scale(u64::MAX, 2), 1);
        assert_eq!(max_scale(10, 10), u64::MAX / 100);
    }
}
