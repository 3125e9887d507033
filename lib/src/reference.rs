//! The articles' published numbers (`data/reference/*.csv`), compiled into the lib so an
//! installed binary or a notebook needs no data folder, read by the one typed reader. It
//! sits above the experiments (its rows use their types) and below the presentation; an
//! experiment that judges against the article (the locks) is handed these rows.

use serde::Deserialize;

use crate::runs::{parse_rows, RunsError};

/// Article A's stride table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct StrideReference {
    pub stride_bytes: u64,
    pub time_ms: f64,
    pub relative_to_fastest: f64,
}

pub fn stride() -> Result<Vec<StrideReference>, RunsError> {
    parse_rows("data/reference/stride.csv", include_str!("../../data/reference/stride.csv"))
}

/// Article A's four-way control.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SharingReference {
    pub case: crate::sharing::Case,
    pub threads: u64,
    pub increments_per_thread: u64,
    pub time_ms: f64,
    /// The printed ratio of false sharing's time to this case's ("2.00"); none on its own row.
    #[serde(deserialize_with = "printed_number")]
    pub false_sharing_over_this: Option<String>,
}

pub fn sharing() -> Result<Vec<SharingReference>, RunsError> {
    parse_rows("data/reference/sharing.csv", include_str!("../../data/reference/sharing.csv"))
}

/// Article A's padded-against-compact shards. Empty cells: the article printed nothing.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CountersReference {
    pub layout: crate::counters::Layout,
    pub shards: u64,
    pub bytes_per_shard: u64,
    pub bytes: u64,
    pub time_ms: f64,
    #[serde(deserialize_with = "printed_number")]
    pub faster_than_compact: Option<String>,
    #[serde(deserialize_with = "printed_number")]
    pub memory_vs_compact: Option<String>,
    #[serde(deserialize_with = "printed_number")]
    pub extra_bytes: Option<String>,
    #[serde(deserialize_with = "printed_number")]
    pub memory_at_100000_counters_mb: Option<String>,
}

pub fn counters() -> Result<Vec<CountersReference>, RunsError> {
    parse_rows("data/reference/counters.csv", include_str!("../../data/reference/counters.csv"))
}

/// Article B's first table: signatures per second against goroutines at GOGC=100.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GcThreadsReference {
    pub goroutines: u64,
    pub signatures_per_sec: f64,
}

pub fn gc_threads() -> Result<Vec<GcThreadsReference>, RunsError> {
    parse_rows("data/reference/gc.csv", include_str!("../../data/reference/gc.csv"))
}

/// Article B's second table: signatures per second at 48 goroutines against GOGC.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GcRatioReference {
    pub gogc: crate::gc::GcRatio,
    pub goroutines: u64,
    pub signatures_per_sec: f64,
}

pub fn gc_ratios() -> Result<Vec<GcRatioReference>, RunsError> {
    parse_rows("data/reference/gc-gogc.csv", include_str!("../../data/reference/gc-gogc.csv"))
}

/// One of article C's published numbers, in the unit the article printed it in.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PoolReference {
    pub key: String,
    pub value: f64,
    pub unit: String,
    pub what: String,
}

pub fn pool() -> Result<Vec<PoolReference>, RunsError> {
    parse_rows("data/reference/pool.csv", include_str!("../../data/reference/pool.csv"))
}

pub use crate::locks::LocksReference;

pub fn locks() -> Result<Vec<LocksReference>, RunsError> {
    parse_rows("data/reference/locks.csv", include_str!("../../data/reference/locks.csv"))
}

/// One numbered claim of the three articles (ids as in the project's shared claims list),
/// in the project's words, with the figure as printed and, where it is a number, its range
/// in `unit`; `experiment` names the experiment that answers it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ClaimReference {
    pub id: String,
    /// "A", "B" or "C".
    pub article: String,
    pub text: String,
    /// As printed; empty where the article gives no figure.
    pub figure: String,
    pub unit: String,
    /// The range's ends as written, to the digits the article printed (what the judgement's
    /// precision rule reads), empty where it printed no number.
    #[serde(deserialize_with = "printed_number")]
    pub low: Option<String>,
    #[serde(deserialize_with = "printed_number")]
    pub high: Option<String>,
    pub experiment: String,
    /// The threads of the article's setting, where the figure's size depends on them: a
    /// machine with fewer CPUs never reproduces it.
    pub threads: Option<u64>,
}

impl ClaimReference {
    /// The printed figure's range, when it is a number (a point: low = high).
    pub fn range(&self) -> Option<(f64, f64)> {
        let number = |printed: &Option<String>| printed.as_deref().and_then(|text| text.parse::<f64>().ok());
        let (low, high) = (number(&self.low), number(&self.high));
        Some((low.or(high)?, high.unwrap_or(f64::INFINITY)))
    }
}

pub fn claims() -> Result<Vec<ClaimReference>, RunsError> {
    parse_rows("data/reference/claims.csv", include_str!("../../data/reference/claims.csv"))
}

/// A number kept as the article printed it ("2.00" stays "2.00"), or `None` for an empty
/// cell; anything else is refused.
fn printed_number<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    let text = String::deserialize(deserializer)?;
    match text.trim() {
        "" => Ok(None),
        number if number.parse::<f64>().is_ok_and(f64::is_finite) => Ok(Some(number.to_string())),
        other => Err(serde::de::Error::custom(format!("expected a number or nothing, got '{other}'"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reference_table_reads() {
        assert_eq!(stride().unwrap().iter().map(|r| r.stride_bytes).collect::<Vec<_>>(), [8, 16, 32, 64, 128, 256]);
        assert_eq!(sharing().unwrap().len(), 4);
        let counters = counters().unwrap();
        assert_eq!(counters[0].faster_than_compact, None);
        assert_eq!(counters[1].faster_than_compact.as_deref(), Some("50.95"));
        assert!(!gc_threads().unwrap().is_empty());
        assert!(gc_ratios().unwrap().iter().any(|r| r.gogc.to_string() == "off"));
        assert!(pool().unwrap().iter().any(|r| r.key == "cores"));
        assert!(locks().unwrap().iter().any(|r| r.claim == "C14" && r.key == "high" && r.value == 7.0));
        let claims = claims().unwrap();
        let per_article = |article: &str| claims.iter().filter(|claim| claim.article == article).count();
        assert_eq!((claims.len(), per_article("A"), per_article("B"), per_article("C")), (42, 12, 9, 21));
        assert_eq!(claims.iter().find(|claim| claim.id == "C8").and_then(ClaimReference::range), Some((80.0, 120.0)));
        assert_eq!(
            claims.iter().find(|claim| claim.id == "C5").and_then(ClaimReference::range),
            Some((300.0, f64::INFINITY))
        );
    }
}
