//! The articles' published numbers (`data/reference/*.csv`), compiled into the lib so an
//! installed binary or a notebook needs no data folder: each file one [`ReferenceFile`] of
//! its row type (declared by the experiment that reads it), read by the one loader
//! ([`ReferenceFile::rows`], the run format's typed reader).

use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::ReferenceText;
use crate::run_format::{parse_rows, RunsError};

/// The folder of the articles' numbers, from the repository's root.
pub const FOLDER: &str = "data/reference";

/// One file of [`FOLDER`] whose rows are `T`s.
#[derive(Debug)]
pub struct ReferenceFile<T> {
    pub file: ReferenceText,
    rows: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> ReferenceFile<T> {
    pub const fn new(name: &'static str, text: &'static str) -> Self {
        Self { file: ReferenceText { name, text }, rows: PhantomData }
    }

    /// Its rows: the one loader of every reference file.
    pub fn rows(&self) -> Result<Vec<T>, RunsError> {
        parse_rows(&format!("{FOLDER}/{}", self.file.name), self.file.text)
    }
}

/// The [`ReferenceFile`] `data/reference/<$name>`, compiled in.
/// The [`ReferenceFile`] of `data/reference/<name>`, compiled in.
#[macro_export]
#[doc(hidden)]
macro_rules! reference_file {
    ($name:literal) => {
        $crate::kit::reference::ReferenceFile::new(
            $name,
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/reference/", $name)),
        )
    };
}

/// A number kept as the article printed it ("2.00" stays "2.00"), or `None` for an empty
/// cell; anything else is refused.
pub fn printed_number<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    let text = String::deserialize(deserializer)?;
    match text.trim() {
        "" => Ok(None),
        number if number.parse::<f64>().is_ok_and(f64::is_finite) => Ok(Some(number.to_string())),
        other => Err(serde::de::Error::custom(format!("expected a number or nothing, got '{other}'"))),
    }
}
