//! The pool's two charts (one per file): latency against pool size ([`latency`]) and the
//! context switches behind it ([`switches`]).

pub mod latency;
pub mod switches;
