//! What happened to a real runtime run beside a model (Go beside the GC sweep, the JVM
//! beside the locks), as the run's manifest records it under the experiment's config:
//! `{"status": "ran", "<runtime>_version": ..., "file": ..., "rows": ...}`, or `skipped` and
//! `failed` with their reason. Each runtime keeps the version key runs have always saved
//! (`go_version`, `java_version`), and reading accepts either.

use serde::Deserialize;
use serde_json::{json, Value};

/// The keys the manifest records each runtime's version under (the aliases below repeat
/// them: serde's attributes take literals only).
pub const GO_VERSION_KEY: &str = "go_version";
pub const JAVA_VERSION_KEY: &str = "java_version";
pub use contention::runs::RUNTIME_NOTE_KEY as NOTE_KEY;

/// One runtime's side of a run; the model's rows are kept whatever it says.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum RuntimeStatus {
    Ran {
        #[serde(alias = "go_version", alias = "java_version")]
        version: String,
        file: String,
        rows: usize,
        /// What the run left out and why (cells past the budget, a cell that timed out),
        /// where it left anything out; the page shows it beside the runtime's rows.
        #[serde(default)]
        note: Option<String>,
    },
    Skipped {
        reason: String,
    },
    /// The runtime was there but its build or a run failed.
    Failed {
        reason: String,
    },
}

impl RuntimeStatus {
    /// The status as the manifest holds it, the version under `version_key`.
    pub fn to_manifest(&self, version_key: &str) -> Value {
        match self {
            Self::Ran { version, file, rows, note } => {
                let mut fields = json!({"status": "ran", "file": file, "rows": rows});
                fields[version_key] = version.as_str().into();
                if let Some(note) = note {
                    fields[NOTE_KEY] = note.as_str().into();
                }
                fields
            }
            Self::Skipped { reason } => json!({"status": "skipped", "reason": reason}),
            Self::Failed { reason } => json!({"status": "failed", "reason": reason}),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The real runtimes beside the models, in the registry's order (Go, then the JVM).
    fn real_runtimes() -> Vec<contention::experiment::RealRuntime> {
        contention::Experiment::ALL.iter().filter_map(|experiment| experiment.real_runtime()).collect()
    }

    /// The saved fixture run's statuses, as an older run wrote them.
    fn fixture_statuses() -> Vec<Value> {
        let manifest: Value =
            serde_json::from_str(include_str!("../tests/fixtures/run-fixture/manifest.json")).unwrap();
        let experiments = manifest["experiments"].as_array().unwrap();
        let configs = experiments.iter().map(|experiment| &experiment["config"]);
        configs
            .flat_map(|config| real_runtimes().into_iter().map(move |runtime| &config[runtime.key]))
            .filter(|status| !status.is_null())
            .cloned()
            .collect()
    }

    #[test]
    fn a_saved_manifests_go_and_java_versions_read_back_and_are_written_as_before() {
        let saved = fixture_statuses();
        assert_eq!(saved.len(), 2, "the fixture ran Go and the JVM");
        let read: Vec<RuntimeStatus> =
            saved.iter().map(|status| serde_json::from_value(status.clone()).unwrap()).collect();
        let go = RuntimeStatus::Ran {
            version: "go version go1.19.8 linux/amd64".into(),
            file: real_runtimes()[0].file.into(),
            rows: 48,
            note: None,
        };
        let java = RuntimeStatus::Ran {
            version: "openjdk version \"17.0.15\" 2025-04-15".into(),
            file: real_runtimes()[1].file.into(),
            rows: 160,
            note: None,
        };
        assert_eq!(read, [go.clone(), java.clone()]);
        assert_eq!(go.to_manifest(GO_VERSION_KEY), saved[0]);
        assert_eq!(java.to_manifest(JAVA_VERSION_KEY), saved[1]);
    }

    #[test]
    fn skipped_and_failed_keep_their_reason_and_a_runs_elapsed_time_is_ignored() {
        let skipped = json!({"status": "skipped", "reason": "--no-go was given"});
        let failed = json!({"status": "failed", "reason": "`go build` timed out", "elapsed_s": 6.5});
        for (saved, status) in [
            (skipped, RuntimeStatus::Skipped { reason: "--no-go was given".into() }),
            (failed, RuntimeStatus::Failed { reason: "`go build` timed out".into() }),
        ] {
            assert_eq!(serde_json::from_value::<RuntimeStatus>(saved.clone()).unwrap(), status);
            let written = status.to_manifest(GO_VERSION_KEY);
            assert_eq!(written["status"], saved["status"]);
            assert_eq!(written["reason"], saved["reason"]);
        }
    }
}
