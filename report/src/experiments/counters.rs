//! The counter layouts on the command line: flags to config, rows to CSV.

use anyhow::Result;
use contention::counters::Config;

use super::sharing::one_thread_count;
use crate::cli::MeasureArgs;
use crate::load::{Column, Kind};

/// The CSV columns of [`Row`], in order, with their types.
pub const COLUMNS: &[Column] = &[
    Column::new("layout", Kind::Text),
    Column::new("threads", Kind::Unsigned),
    Column::new("trial", Kind::Unsigned),
    Column::new("total_increments", Kind::Unsigned),
    Column::new("increments_per_thread", Kind::Unsigned),
    Column::new("cells", Kind::Unsigned),
    Column::new("bytes_used", Kind::Unsigned),
    Column::new("increments_per_write", Kind::Unsigned),
    Column::new("elapsed_ns", Kind::Unsigned),
    Column::new("ns_per_increment", Kind::Float),
    Column::new("pinned", Kind::Bool),
    Column::new("verified", Kind::Bool),
];

/// The layouts' config from the flags; validated only when they were asked for. Without
/// `--total`, the increments per thread stay the default's whatever `--threads` says.
pub fn config(args: &MeasureArgs, selected: bool) -> Result<Config> {
    let mut config = if args.quick { Config::quick() } else { Config::default() };
    if let Some(threads) = one_thread_count(args, selected, "the counter layouts")? {
        config = config.with_threads(threads);
    }
    if let Some(total) = args.total {
        config.total_increments = total;
    }
    if let Some(flush_every) = args.flush_every {
        config.flush_every = flush_every;
    }
    if let Some(stripes) = args.stripes {
        config.stripes = stripes;
    }
    if let Some(trials) = args.trials {
        config.trials = trials;
    }
    if selected {
        config.validate()?;
    }
    Ok(config)
}
