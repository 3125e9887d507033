//! The real Go collector beside the model: the article's benchmark (`gc-go/main.go`,
//! compiled into this binary as text) is written to a cache folder, built there once with
//! the `go` on PATH, and run over the GC sweep's threads x ratio grid with GOMAXPROCS and
//! GOGC. Its rows go to `gc-go.csv` beside the model's `gc.csv`. Without Go, or with
//! `--no-go`, nothing runs and the run's manifest says why.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use contention::gc::go::HOW_TO_ADD_GO;
use contention::gc::{Config, GcRatio, GoRow, GO_CSV};
use contention::harness::{Progress, ProgressEvent};

use crate::child::{output_by, probe, probe_deadline, side_deadline};
use crate::runtime_cache::{cache_dir, failure_reason};
use crate::runtime_status::RuntimeStatus;
use crate::write::{write_atomic, write_csv};

const MAIN_GO: &str = include_str!("../gc-go/main.go");
const GO_MOD: &str = include_str!("../gc-go/go.mod");
/// Untimed signing before each cell's first trial.
const WARMUP_SECONDS: f64 = 0.1;

/// Runs the Go benchmark over `config`'s grid into `dir/gc-go.csv`, unless `wanted` is
/// false or no `go` is on PATH. A failure (a timeout among them: every `go` process runs
/// under the side's deadline, [`side_deadline`]) is reported in the status, never as an
/// error: the model's rows, already saved, stay the run's result.
pub fn measure_beside(config: &Config, wanted: bool, dir: &Path, progress: Progress) -> RuntimeStatus {
    if !wanted {
        return RuntimeStatus::Skipped { reason: "--no-go was given".into() };
    }
    let deadline = side_deadline(config.budget);
    let measured = go_version(deadline).and_then(|version| match version {
        Some(go_version) => measure_with(config, go_version, dir, progress, deadline),
        None => Ok(RuntimeStatus::Skipped { reason: format!("no `go` on PATH: {HOW_TO_ADD_GO}") }),
    });
    measured.unwrap_or_else(|error| RuntimeStatus::Failed { reason: failure_reason(&error) })
}

fn measure_with(
    config: &Config,
    go_version: String,
    dir: &Path,
    progress: Progress,
    deadline: Instant,
) -> Result<RuntimeStatus> {
    let binary = build(&go_version, deadline)?;
    let cells: Vec<(usize, GcRatio)> =
        config.threads.iter().flat_map(|&threads| config.ratios.iter().map(move |&ratio| (threads, ratio))).collect();
    let mut rows = Vec::with_capacity((cells.len() * config.trials).min(contention::harness::MAX_PREALLOCATED_ROWS));
    // The model's budget holds for Go too, checked before each cell: a long list of cells
    // stops at it, one cell late at most.
    let started = std::time::Instant::now();
    for (done, &(threads, ratio)) in cells.iter().enumerate() {
        if done > 0 && started.elapsed() >= config.budget {
            break;
        }
        rows.extend(run_cell(&binary, config, (threads, ratio), deadline)?);
        progress(&ProgressEvent {
            experiment: contention::gc::EXPERIMENT,
            done: done + 1,
            total: cells.len(),
            label: format!("Go: GOMAXPROCS={threads} GOGC={ratio}"),
        });
    }
    write_csv(&dir.join(GO_CSV), &rows)?;
    Ok(RuntimeStatus::Ran { version: go_version, file: GO_CSV.into(), rows: rows.len() })
}

/// `go version`'s answer, or `None` when there is no working `go`; an error when it hangs.
pub(crate) fn go_version(deadline: Instant) -> Result<Option<String>> {
    let mut command = Command::new("go");
    command.arg("version").env("GOTOOLCHAIN", "local");
    let output = probe(&mut command, "`go version`", probe_deadline(deadline))?;
    Ok(output
        .filter(|output| output.status.success())
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_string()))
}

/// Builds the benchmark once per source and Go version; later runs reuse the binary.
fn build(go_version: &str, deadline: Instant) -> Result<PathBuf> {
    let dir = cache_dir("gc-go", "the Go benchmark", &[MAIN_GO, GO_MOD, go_version])?;
    let binary = dir.join("gc-go-bench");
    if binary.is_file() {
        return Ok(binary);
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    write_atomic(&dir.join("main.go"), MAIN_GO.as_bytes())?;
    write_atomic(&dir.join("go.mod"), GO_MOD.as_bytes())?;
    let building = dir.join(format!(".gc-go-bench.tmp-{}", std::process::id()));
    let mut command = Command::new("go");
    command
        .args(["build", "-trimpath", "-o"])
        .arg(&building)
        .arg(".")
        .current_dir(&dir)
        // Offline and self-contained: the standard library only, this Go only.
        .env("GOCACHE", dir.join("gocache"))
        .env("GOPATH", dir.join("gopath"))
        .env("GOFLAGS", "-mod=mod")
        .env("GOPROXY", "off")
        .env("GOTOOLCHAIN", "local")
        .env("CGO_ENABLED", "0");
    let output = output_by(&mut command, "`go build` of the Go GC benchmark", deadline);
    if !output.as_ref().is_ok_and(|output| output.status.success()) {
        let _ = std::fs::remove_file(&building);
    }
    let output = output?;
    if !output.status.success() {
        bail!(
            "`go build` of the Go GC benchmark in {} failed: {}",
            dir.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    std::fs::rename(&building, &binary).with_context(|| format!("installing {}", binary.display()))?;
    Ok(binary)
}

/// One cell: a process with GOMAXPROCS = threads and GOGC = ratio, its trials checked.
fn run_cell(
    binary: &Path,
    config: &Config,
    (threads, ratio): (usize, GcRatio),
    deadline: Instant,
) -> Result<Vec<GoRow>> {
    let cell = format!("Go benchmark at GOMAXPROCS={threads} GOGC={ratio}");
    let mut command = Command::new(binary);
    command
        .args(["-seconds", &config.trial.as_secs_f64().to_string()])
        .args(["-trials", &config.trials.to_string()])
        .args(["-warmup", &WARMUP_SECONDS.to_string()])
        .env("GOMAXPROCS", threads.to_string())
        .env("GOGC", ratio.to_string())
        .env_remove("GOMEMLIMIT")
        .env_remove("GODEBUG");
    let output = output_by(&mut command, &format!("the {cell}"), deadline)?;
    if !output.status.success() {
        bail!("the {cell} failed: {}", String::from_utf8_lossy(&output.stderr).trim());
    }
    let rows: Vec<GoRow> = csv::Reader::from_reader(output.stdout.as_slice())
        .deserialize()
        .collect::<Result<_, _>>()
        .with_context(|| format!("reading the {cell}'s rows"))?;
    if rows.len() != config.trials {
        bail!("the {cell} printed {} rows, not one per trial ({})", rows.len(), config.trials);
    }
    if let Some(bad) = rows.iter().find(|row| row.threads != threads as u64 || row.ratio != ratio || !row.verified) {
        bail!("the {cell} gave a row for GOMAXPROCS={} GOGC={} verified={}", bad.threads, bad.ratio, bad.verified);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime_cache::fnv1a;

    #[test]
    fn the_cache_key_follows_source_and_go_version() {
        assert_ne!(fnv1a(&["a", "b"]), fnv1a(&["ab", ""]));
        assert_eq!(fnv1a(&[MAIN_GO, GO_MOD, "go1.19.8"]), fnv1a(&[MAIN_GO, GO_MOD, "go1.19.8"]));
        assert_ne!(fnv1a(&[MAIN_GO, GO_MOD, "go1.19.8"]), fnv1a(&[MAIN_GO, GO_MOD, "go1.22.0"]));
    }

    #[test]
    fn the_embedded_program_reads_both_pause_metrics() {
        assert!(MAIN_GO.contains("/gc/pauses:seconds") && MAIN_GO.contains("/sched/pauses/total/gc:seconds"));
        assert!(GO_MOD.starts_with("module "));
    }
}
