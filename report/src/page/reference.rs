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
