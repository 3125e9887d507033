//! Bounds on what a saved run may hold, applied when a run folder or a pack is read
//! (the run reader): the same bounds the flags give a measurement, so a row, a label or a
//! page can hold nothing a measurement on a real machine would not.
//!
//! # Where the numbers come from
//!
//! - Amounts (times, rates, shares) are 0 or within [`MIN_AMOUNT`] to [`MAX_AMOUNT`]: 27
//!   decades, wider than any unit a row uses needs (a nanosecond per add is about 1e-1 to
//!   1e6; a pause share 1e-12 at least, the shortest pause over the longest trial; a rate
//!   at most 1e12 per second). Subnormal numbers (below 2.2e-308), infinities and spans of
//!   hundreds of decades are refused where they are read, by file, line and column.
//! - Counts are whole numbers from 1 to [`MAX_COUNT`] ([`super::MAX_INCREMENTS_PER_TRIAL`]);
//!   thread and CPU counts from 1 to [`super::MAX_CPUS`]; CPU ids below it
//!   ([`super::cpus`]).
//! - An experiment holds at most [`MAX_CASES`] cases, so the work of a page grows with its
//!   rows, not with their square.
//! - A page holds at most [`MAX_PAGE_BYTES`] of run files, all runs together (see
//!   the run reader's `load_all`): its memory stays within a small multiple of that.
//! - Text from outside (labels, host names, failure texts) holds no control characters
//!   but line breaks and tabs where prose allows them, no bidirectional overrides, and at
//!   most [`MAX_TEXT_BYTES`] per string (the text check, `checked::text::check_text`).

/// The smallest non-zero amount a row may hold.
pub const MIN_AMOUNT: f64 = 1e-12;
/// The largest amount a row may hold.
pub const MAX_AMOUNT: f64 = 1e15;
/// The largest count a row may hold (increments, strides, round trips).
pub const MAX_COUNT: u64 = super::MAX_INCREMENTS_PER_TRIAL;
/// The most threads (or CPUs) a row may count.
pub const MAX_THREADS: u64 = super::MAX_CPUS as u64;
/// The most cases (strides, pairs of CPUs, GC cells, pool cases) one experiment may hold:
/// a page shows a row per case, and eight thousand already make a table no one reads (a
/// core-to-core matrix of 128 CPUs has 8128 pairs). Configs are held to it too.
pub const MAX_CASES: usize = 8192;
/// The most bytes of run files one page (one `report`, one room) reads, all runs together:
/// as much as one pack may hold (a pack's `MAX_PACK_BYTES`). A workshop's quick
/// run is well under 1 MiB, so a room of a hundred laptops stays far below it.
pub const MAX_PAGE_BYTES: u64 = 256 << 20;
/// The longest string a manifest may hold (a failure text, a command line); the lab cuts
/// what it writes to [`MAX_WRITTEN_TEXT_BYTES`].
pub const MAX_TEXT_BYTES: usize = 64 << 10;
/// The longest string the lab writes into a manifest (a command line of 10 000 thread
/// counts is cut, saying so).
pub const MAX_WRITTEN_TEXT_BYTES: usize = 16 << 10;
