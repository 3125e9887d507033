//! The articles' published numbers, read from `data/reference/` (with polars, like runs).

use std::path::PathBuf;

use anyhow::Result;
use serde::Deserialize;

use crate::load::{read_rows, Column, Kind};

/// `data/reference/`: `CONTENTION_REFERENCE_DIR` when set, else the folder in the source
/// tree this binary was built from.
pub fn reference_dir() -> PathBuf {
    std::env::var_os("CONTENTION_REFERENCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/reference")))
}

/// Article A's stride table.
#[derive(Debug, Clone, Deserialize)]
pub struct StrideReference {
    pub stride_bytes: u64,
    pub time_ms: f64,
    pub relative_to_fastest: f64,
}

pub fn stride() -> Result<Vec<StrideReference>> {
    const COLUMNS: &[Column] = &[
        Column::new("stride_bytes", Kind::Unsigned),
        Column::new("time_ms", Kind::Float),
        Column::new("relative_to_fastest", Kind::Float),
    ];
    read_rows(&reference_dir().join("stride.csv"), COLUMNS, None)
}

/// Article A's four-way control.
#[derive(Debug, Clone, Deserialize)]
pub struct SharingReference {
    pub case: contention::sharing::Case,
    pub threads: u64,
    pub increments_per_thread: u64,
    pub time_ms: f64,
    /// The printed ratio of false sharing's time to this case's ("2.00"); none on its own row.
    #[serde(deserialize_with = "printed_number")]
    pub false_sharing_over_this: Option<String>,
}

pub fn sharing() -> Result<Vec<SharingReference>> {
    const COLUMNS: &[Column] = &[
        Column::new("case", Kind::Text),
        Column::new("threads", Kind::Unsigned),
        Column::new("increments_per_thread", Kind::Unsigned),
        Column::new("time_ms", Kind::Float),
        Column::new("false_sharing_over_this", Kind::Text),
    ];
    read_rows(&reference_dir().join("sharing.csv"), COLUMNS, None)
}

/// Article A's padded-against-compact shards. Empty cells: the article printed nothing.
#[derive(Debug, Clone, Deserialize)]
pub struct CountersReference {
    pub layout: contention::counters::Layout,
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

pub fn counters() -> Result<Vec<CountersReference>> {
    const COLUMNS: &[Column] = &[
        Column::new("layout", Kind::Text),
        Column::new("shards", Kind::Unsigned),
        Column::new("bytes_per_shard", Kind::Unsigned),
        Column::new("bytes", Kind::Unsigned),
        Column::new("time_ms", Kind::Float),
        Column::new("faster_than_compact", Kind::Text),
        Column::new("memory_vs_compact", Kind::Text),
        Column::new("extra_bytes", Kind::Text),
        Column::new("memory_at_100000_counters_mb", Kind::Text),
    ];
    read_rows(&reference_dir().join("counters.csv"), COLUMNS, None)
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

/// Article B's first table: signatures per second against goroutines at GOGC=100.
#[derive(Debug, Clone, Deserialize)]
pub struct GcThreadsReference {
    pub goroutines: u64,
    pub signatures_per_sec: f64,
}

pub fn gc_threads() -> Result<Vec<GcThreadsReference>> {
    const COLUMNS: &[Column] =
        &[Column::new("goroutines", Kind::Unsigned), Column::new("signatures_per_sec", Kind::Float)];
    read_rows(&reference_dir().join("gc.csv"), COLUMNS, None)
}

/// Article B's second table: signatures per second at 48 goroutines against GOGC.
#[derive(Debug, Clone, Deserialize)]
pub struct GcRatioReference {
    pub gogc: contention::gc::GcRatio,
    pub goroutines: u64,
    pub signatures_per_sec: f64,
}

pub fn gc_ratios() -> Result<Vec<GcRatioReference>> {
    const COLUMNS: &[Column] = &[
        Column::new("gogc", Kind::Text),
        Column::new("goroutines", Kind::Unsigned),
        Column::new("signatures_per_sec", Kind::Float),
    ];
    read_rows(&reference_dir().join("gc-gogc.csv"), COLUMNS, None)
}

/// One of article C's published numbers, in the unit the article printed it in.
#[derive(Debug, Clone, Deserialize)]
pub struct PoolReference {
    pub key: String,
    pub value: f64,
    pub unit: String,
    pub what: String,
}

pub fn pool() -> Result<Vec<PoolReference>> {
    const COLUMNS: &[Column] = &[
        Column::new("key", Kind::Text),
        Column::new("value", Kind::Float),
        Column::new("unit", Kind::Text),
        Column::new("what", Kind::Text),
    ];
    read_rows(&reference_dir().join("pool.csv"), COLUMNS, None)
}
