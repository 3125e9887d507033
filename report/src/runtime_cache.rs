//! What the real runtimes run beside a model (Go beside the GC sweep, the JVM beside the
//! locks) share: a build folder under the user's cache folder, keyed by their source and
//! their toolchain's version, and a failure told in text the manifest may hold.

use std::path::PathBuf;

use anyhow::{Context, Result};
use contention::limits::saved::MAX_WRITTEN_TEXT_BYTES;

/// `<cache>/contention-lab/<name>-<key>`, the key hashed from `texts` (the sources and the
/// toolchain's version), so a changed source or toolchain builds afresh; never under data/.
/// `what` names the program in the error when there is no cache folder.
pub fn cache_dir(name: &str, what: &str, texts: &[&str]) -> Result<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .with_context(|| format!("neither XDG_CACHE_HOME nor HOME is set: no cache folder for {what}"))?;
    Ok(base.join("contention-lab").join(format!("{name}-{:016x}", fnv1a(texts))))
}

/// FNV-1a over the texts: a cache key stable across Rust versions (std's hasher is not).
pub fn fnv1a(texts: &[&str]) -> u64 {
    texts
        .iter()
        .flat_map(|text| text.bytes().chain([0]))
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// Why a runtime failed, as its status records it: visible characters, clipped to what a
/// manifest's text may hold.
pub fn failure_reason(error: &anyhow::Error) -> String {
    let reason = contention::runs::visible_lines(&format!("{error:#}"));
    contention::runs::clipped(&reason, MAX_WRITTEN_TEXT_BYTES)
}
