//! How this copy of the lib was compiled. Timing an unoptimised build measures the
//! compiler's debug scaffolding, not the hardware, so callers check [`BuildInfo::is_optimised`].

use serde::{Deserialize, Serialize};

/// Facts captured by `build.rs` when this crate was compiled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildInfo {
    pub crate_version: String,
    pub rustc_version: String,
    pub target: String,
    /// Cargo's profile name as seen by the build script ("release" or "debug").
    pub profile: String,
    pub opt_level: String,
    pub debug_assertions: bool,
    /// Comma-separated target features enabled at compile time (e.g. "sse2,avx2").
    pub target_features: String,
}

impl BuildInfo {
    /// The build this code is running in.
    pub fn current() -> Self {
        Self {
            crate_version: env!("CARGO_PKG_VERSION").to_string(),
            rustc_version: env!("CONTENTION_RUSTC_VERSION").to_string(),
            target: env!("CONTENTION_TARGET").to_string(),
            profile: env!("CONTENTION_PROFILE").to_string(),
            opt_level: env!("CONTENTION_OPT_LEVEL").to_string(),
            debug_assertions: cfg!(debug_assertions),
            target_features: env!("CONTENTION_TARGET_FEATURES").to_string(),
        }
    }

    /// True when the optimiser ran and debug assertions are off: the only build worth timing.
    pub fn is_optimised(&self) -> bool {
        matches!(self.opt_level.as_str(), "2" | "3") && !self.debug_assertions
    }

    /// `Err` with a message saying how to fix the build, for callers that refuse to time
    /// an unoptimised build (notebook cells, the CLI).
    pub fn require_optimised(&self) -> Result<(), String> {
        if self.is_optimised() {
            Ok(())
        } else {
            Err(format!(
                "this build is not fit for timing (opt-level {}, debug assertions {}): \
                 build with --release, or in evcxr use `:opt 3` with debug assertions and \
                 overflow checks off (see notebooks/evcxr.toml)",
                self.opt_level,
                if self.debug_assertions { "on" } else { "off" }
            ))
        }
    }
}
