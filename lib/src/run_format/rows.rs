//! One experiment's rows as a run holds them: behind its name, their type known only to the
//! experiment, read back by [`super::Run::rows`] with that type.

use std::any::Any;
use std::fmt::Debug;

use crate::experiment::SavedRow;
use crate::perf::CounterReading;

/// Rows of some saved row type.
pub(crate) trait AnyRows: Debug + Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn len(&self) -> usize;
    fn clone_box(&self) -> Box<dyn AnyRows>;
    fn equals(&self, other: &dyn AnyRows) -> bool;
    /// Each row's round of trials (its `trial`, or `sample`), `None` for a row without one.
    fn rounds(&self) -> Vec<Option<u64>>;
    /// The rows at `indices`, in that order (an index may repeat).
    fn select(&self, indices: &[usize]) -> Box<dyn AnyRows>;
}

impl<R: SavedRow> AnyRows for Vec<R> {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn len(&self) -> usize {
        Vec::len(self)
    }

    fn clone_box(&self) -> Box<dyn AnyRows> {
        Box::new(self.clone())
    }

    fn equals(&self, other: &dyn AnyRows) -> bool {
        other.as_any().downcast_ref::<Vec<R>>() == Some(self)
    }

    fn rounds(&self) -> Vec<Option<u64>> {
        let round = |row: &R| {
            let value = serde_json::to_value(row).ok()?;
            ["trial", "sample"].iter().find_map(|key| value.get(key)?.as_u64())
        };
        self.iter().map(round).collect()
    }

    fn select(&self, indices: &[usize]) -> Box<dyn AnyRows> {
        Box::new(indices.iter().filter_map(|&index| self.get(index).cloned()).collect::<Vec<R>>())
    }
}

pub(crate) fn boxed<R: SavedRow>(rows: Vec<R>) -> Box<dyn AnyRows> {
    Box::new(rows)
}

/// One experiment read from a run: its rows, and its real runtime's beside them.
#[derive(Debug)]
pub(crate) struct Loaded {
    /// The experiment's name.
    pub experiment: &'static str,
    pub rows: Box<dyn AnyRows>,
    pub runtime_rows: Option<Box<dyn AnyRows>>,
    /// What its trials recorded of the machine, read through its experiment's hooks.
    pub trials: Trials,
}

/// What one experiment's trials recorded of the machine (its `Measure::placements` and
/// `Measure::cache_misses`): where each ran (its `cpus`, and whether pinned) and the
/// cache-miss readings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trials {
    pub placements: Vec<(String, bool)>,
    pub cache_misses: Vec<CounterReading>,
}

impl Clone for Loaded {
    fn clone(&self) -> Self {
        Self {
            experiment: self.experiment,
            rows: self.rows.clone_box(),
            runtime_rows: self.runtime_rows.as_ref().map(|rows| rows.clone_box()),
            trials: self.trials.clone(),
        }
    }
}

impl PartialEq for Loaded {
    fn eq(&self, other: &Self) -> bool {
        let runtime_rows = match (&self.runtime_rows, &other.runtime_rows) {
            (Some(a), Some(b)) => a.equals(b.as_ref()),
            (None, None) => true,
            _ => false,
        };
        self.experiment == other.experiment
            && self.rows.equals(other.rows.as_ref())
            && runtime_rows
            && self.trials == other.trials
    }
}
