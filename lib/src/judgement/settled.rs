//! Settledness: whether a status holds when the run's own trials are drawn again. The
//! claims resample a run [`RESAMPLES`] times (a seeded bootstrap over rounds of trials,
//! the run reader's `Run::bootstrap`, a layer above) and judge each claim again on every resample; a status
//! that comes back in fewer than [`MIN_SETTLED_SHARE`] of them is *unsettled*.

use serde::Serialize;

use super::{Judgement, Status};

/// Resamples a status is judged again over: enough for a share to the nearest few percent,
/// few enough that 42 claims judge in well under a second.
pub const RESAMPLES: usize = 200;

/// The share of resamples a status must come back in to stand.
pub const MIN_SETTLED_SHARE: f64 = 0.8;

/// How often each status came back over the resamples, most often first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settledness {
    /// The share of resamples that gave the run's own status (0..1).
    pub share: f64,
    /// Each status the resamples gave, with its share, most often first.
    pub shares: Vec<(Status, f64)>,
}

/// How `status` (the run's) stands over the statuses its `resampled` trials gave.
pub fn settledness(status: Status, resampled: &[Status]) -> Settledness {
    let total = resampled.len().max(1) as f64;
    let mut shares: Vec<(Status, f64)> = Vec::new();
    for &other in resampled {
        match shares.iter_mut().find(|(seen, _)| *seen == other) {
            Some((_, count)) => *count += 1.0,
            None => shares.push((other, 1.0)),
        }
    }
    shares.iter_mut().for_each(|(_, count)| *count /= total);
    // Stable: equal shares keep the order the resamples first gave them.
    shares.sort_by(|a, b| b.1.total_cmp(&a.1));
    let share = shares.iter().find(|(seen, _)| *seen == status).map_or(0.0, |&(_, share)| share);
    Settledness { share, shares }
}

impl Settledness {
    /// The status came back in at least [`MIN_SETTLED_SHARE`] of the resamples.
    pub fn settled(&self) -> bool {
        self.share >= MIN_SETTLED_SHARE
    }

    /// `judgement` as it stands: itself when settled, else *unsettled* with each status's
    /// share ("reproduced 55%, same direction, smaller 45%").
    pub fn judge(&self, judgement: Judgement) -> Judgement {
        if self.settled() {
            return judgement;
        }
        let shares: Vec<String> = self
            .shares
            .iter()
            .map(|&(status, share)| format!("{} {}", status.label(), crate::format::percent(share)))
            .collect();
        Judgement::new(Status::Unsettled, shares.join(", "))
    }
}
