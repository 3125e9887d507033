//! C12, the price of one trip to the kernel: a contended lock's extra time per acquisition
//! over its uncontended cost, divided by the acquisitions that slept. The std Mutex is
//! judged first; where it spun instead of sleeping (a short critical section on few cores),
//! the lock that sleeps at once answers, and the sentence says which did.

use super::claim::{
    against_range, describe, estimate, finding, judged_threads, nanoseconds, not_measured, sleep_rate, too_few,
    ArticleRange, Claim, ClaimFinding,
};
use super::summary::{find, CellSummary};
use super::{Case, Primitive};
use crate::evidence;
use crate::stats::{Ratio, Summary};

/// Fewer sleeps per acquisition than this: the lock did not go to the kernel often enough
/// to put a time on one trip.
pub const MIN_SLEEPS_PER_OP: f64 = 0.001;

/// Extra time per sleep: (contended - uncontended) per acquisition over sleeps per
/// acquisition, its interval from the ends of the three intervals.
fn per_sleep(contended: &Summary, alone: &Summary, sleeps: &Summary) -> Ratio {
    Ratio {
        value: (contended.median - alone.median).max(0.0) / sleeps.median,
        low: (contended.median_low - alone.median_high).max(0.0) / sleeps.median_high,
        high: (contended.median_high - alone.median_low).max(0.0) / sleeps.median_low.max(f64::MIN_POSITIVE),
    }
}

/// One lock's contended and uncontended cells and its sleeps per acquisition.
struct Trip<'a> {
    primitive: Primitive,
    contended: &'a CellSummary,
    alone: &'a CellSummary,
    sleeps: &'a Summary,
}

impl Trip<'_> {
    /// "a contended std Mutex took ... and slept in the kernel on 1 in 300 of them".
    fn described(&self) -> String {
        format!(
            "a contended {} took {} per acquisition, against {} uncontended, and slept in the kernel on {} of them",
            self.primitive.label(),
            nanoseconds(&estimate(&self.contended.ns_per_op)),
            nanoseconds(&estimate(&self.alone.ns_per_op)),
            sleep_rate(self.sleeps.median)
        )
    }

    fn slept_enough(&self) -> bool {
        self.sleeps.median >= MIN_SLEEPS_PER_OP
    }
}

fn trip(summaries: &[CellSummary], primitive: Primitive, threads: u64) -> Option<Trip<'_>> {
    let contended = find(summaries, Case::Contended, primitive, threads, 0.0)?;
    let alone = find(summaries, Case::Uncontended, primitive, 1, 0.0)?;
    Some(Trip { primitive, contended, alone, sleeps: contended.handoffs_per_op.as_ref()? })
}

pub(crate) fn answer(summaries: &[CellSummary], range: &ArticleRange) -> ClaimFinding {
    let claim = Claim::KernelTrip;
    let Some(threads) = judged_threads(summaries, Case::Contended) else {
        let why = "the contended case needs 2 or more threads (--threads) and did not run";
        return not_measured(claim, range.printed, why);
    };
    let Some(mutex) = trip(summaries, Primitive::StdMutex, threads) else {
        let why = "it needs the contended and uncontended std Mutex (--cases), and a count of each thread's sleeps, \
                   which this OS may not give";
        return not_measured(claim, range.printed, why);
    };
    let sleeper = trip(summaries, Primitive::SleepLock, threads);
    let sides = [&mutex.contended.ns_per_op, &mutex.alone.ns_per_op];
    let sides = sides.into_iter().chain(sleeper.iter().flat_map(|s| [&s.contended.ns_per_op, &s.alone.ns_per_op]));
    if let Err(short) = evidence::check(sides) {
        return too_few(claim, range, short);
    }
    let cas = find(summaries, Case::Uncontended, Primitive::FetchAdd, 1, 0.0)
        .map(|fetch| {
            let times = describe(mutex.contended.ns_per_op.median / fetch.ns_per_op.median);
            format!(" (the contended std Mutex: {times} an uncontended fetch_add)")
        })
        .unwrap_or_default();
    let (timed, lead) = match (&sleeper, mutex.slept_enough()) {
        (_, true) => (&mutex, format!("At {threads} threads {}", mutex.described())),
        (Some(sleeper), false) if sleeper.slept_enough() => (
            sleeper,
            format!(
                "At {threads} threads {}: too few trips to time (it spins before it sleeps). Instead {}",
                mutex.described(),
                sleeper.described()
            ),
        ),
        _ => {
            let sentence = format!(
                "C12: At {threads} threads {}: too few trips to the kernel to time one (it spins before it sleeps).",
                mutex.described()
            );
            let figure = format!("slept on {} of the acquisitions: too few to time", sleep_rate(mutex.sleeps.median));
            return ClaimFinding { figure, sentence, ..not_measured(claim, range.printed, "") };
        }
    };
    let measured = per_sleep(&timed.contended.ns_per_op, &timed.alone.ns_per_op, timed.sleeps);
    let judged = if measured.high.is_finite() {
        against_range(&measured, range, "one futex call")
    } else {
        "an interval without an upper end (some trials hardly slept), so nothing is claimed against the article's \
         1-2 us"
            .into()
    };
    let sentence = format!("C12: {lead}: about {} more per sleep, {judged}{cas}.", nanoseconds(&measured));
    let figure = format!("{} per sleep ({})", nanoseconds(&measured), timed.primitive.label());
    finding(claim, range, measured, figure, sentence)
}
