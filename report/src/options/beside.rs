//! The real runtimes measured beside a model once its rows are saved (the Go benchmark
//! beside the GC model, the JVM's primitives beside the locks), found by the model's config.

use std::any::Any;
use std::path::Path;

use contention::harness::Progress;

use crate::runtime_status::{GO_VERSION_KEY, JAVA_VERSION_KEY};

/// What the manifest records of the runtime beside the model whose config is `config`
/// (skipped unless `wanted`); `None` for a model without one.
pub fn measure(config: &dyn Any, wanted: bool, dir: &Path, progress: Progress) -> Option<serde_json::Value> {
    if let Some(config) = config.downcast_ref::<contention::gc::Config>() {
        return Some(crate::gc_go::measure_beside(config, wanted, dir, progress).to_manifest(GO_VERSION_KEY));
    }
    let config = config.downcast_ref::<contention::locks::Config>()?;
    Some(crate::locks_java::measure_beside(config, wanted, dir, progress).to_manifest(JAVA_VERSION_KEY))
}
