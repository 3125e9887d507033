//! The real Go collector beside the model: the article's benchmark (`gc-go/main.go`,
//! compiled into this binary as text) is written to a cache folder, built there once with
//! the `go` on PATH, and run over the GC sweep's threads x ratio grid with GOMAXPROCS and
//! GOGC. Its rows go to `gc-go.csv` beside the model's `gc.csv`. Without Go, or with
//! `--no-go`, nothing runs and the run's manifest says why.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use contention::format::short_number;
use contention::gc::{Config, GcRatio, GoRow, GO_CSV};
use contention::harness::{Progress, ProgressEvent};

use crate::child::{output_by, probe, probe_deadline};
use crate::runtime_budget::{budget_text, SideClock, BUILD_LIMIT};
use crate::runtime_cache::{cache_dir, failure_reason};
use crate::runtime_status::RuntimeStatus;
use crate::write::{write_atomic, write_csv};

const MAIN_GO: &str = include_str!("../gc-go/main.go");
const GO_MOD: &str = include_str!("../gc-go/go.mod");
/// Untimed signing before each cell's first trial.
const WARMUP_SECONDS: f64 = 0.1;
/// A cell's process before its warm-up: exec, a P-256 key, the metrics' names.
const CELL_START: Duration = Duration::from_millis(100);

/// What `contention check` advises when `go version` does not answer.
pub const GO_UNANSWERED: &str = "`go version` did not answer: reinstall Go, or run without it";

/// What a machine without Go loses, and how to add it (`contention check`'s advice).
pub fn without_go() -> String {
    format!("the GC section runs its model alone; {}", contention::platform::installers().go)
}

/// Runs the Go benchmark over `config`'s grid into `dir/gc-go.csv`, unless `wanted` is
/// false or no `go` is on PATH, within `config.budget` ([`SideClock`]). A failure (a timeout
/// among them) is reported in the status, never as an error: the model's rows, already
/// saved, stay the run's result, and the Go cells that finished before it are kept.
pub fn measure_beside(config: &Config, wanted: bool, dir: &Path, progress: Progress) -> RuntimeStatus {
    if !wanted {
        return RuntimeStatus::Skipped { reason: "--no-go was given".into() };
    }
    let built_by = Instant::now() + BUILD_LIMIT;
    let measured = go_version(built_by).and_then(|version| match version {
        Some(go_version) => {
            let binary = build(&go_version, built_by)?;
            measure_with(config, go_version, &binary, dir, progress)
        }
        None => Ok(RuntimeStatus::Skipped {
            reason: format!(
                "no `go` on PATH: {}, and run `contention run gc` again",
                contention::platform::installers().go
            ),
        }),
    });
    measured.unwrap_or_else(|error| RuntimeStatus::Failed { reason: failure_reason(&error) })
}

/// Runs the built benchmark's cells within the budget, on a clock started now.
fn measure_with(
    config: &Config,
    go_version: String,
    binary: &Path,
    dir: &Path,
    progress: Progress,
) -> Result<RuntimeStatus> {
    let clock = SideClock::start(config.budget);
    let cells = grid(config);
    let estimate = cell_estimate(config);
    if !clock.fits(estimate) {
        return Ok(RuntimeStatus::Skipped {
            reason: format!(
                "a cell takes about {} s, more than {}",
                short_number(estimate.as_secs_f64()),
                budget_text(clock.budget())
            ),
        });
    }
    let measured = run_cells(binary, config, &cells, dir, progress, &clock)?;
    let rows = measured.rows.len();
    Ok(RuntimeStatus::Ran { version: go_version, file: GO_CSV.into(), rows, note: measured.note(&cells, &clock) })
}

/// The threads x ratio grid, in the order the cells run.
fn grid(config: &Config) -> Vec<(usize, GcRatio)> {
    config.threads.iter().flat_map(|&threads| config.ratios.iter().map(move |&ratio| (threads, ratio))).collect()
}

/// What one cell is expected to take: its process's start, the warm-up and the trials.
fn cell_estimate(config: &Config) -> Duration {
    CELL_START + Duration::from_secs_f64(WARMUP_SECONDS) + config.trial * config.trials as u32
}

/// The cells measured, in order, and why the rest were not.
struct Measured {
    rows: Vec<GoRow>,
    cells_done: usize,
    /// The cell that failed or timed out, with why; `None` when the run stopped otherwise.
    failed: Option<String>,
    /// Seconds a cell took on average.
    seconds_per_cell: f64,
}

/// Runs the cells in order while the next one fits the budget (the average cell so far,
/// or the estimate before the first), writing the rows after each so a later failure loses
/// nothing. A cell that fails or times out stops the run; the cells before it are kept.
fn run_cells(
    binary: &Path,
    config: &Config,
    cells: &[(usize, GcRatio)],
    dir: &Path,
    progress: Progress,
    clock: &SideClock,
) -> Result<Measured> {
    let mut measured = Measured { rows: Vec::new(), cells_done: 0, failed: None, seconds_per_cell: 0.0 };
    let started = Instant::now();
    for &(threads, ratio) in cells {
        let done = measured.cells_done;
        let expected = if done == 0 { cell_estimate(config) } else { started.elapsed() / done as u32 };
        if !clock.fits(expected) {
            break;
        }
        match run_cell(binary, config, (threads, ratio), clock.step_deadline(expected)) {
            Ok(rows) => measured.rows.extend(rows),
            Err(error) if done == 0 => return Err(error),
            Err(error) => {
                measured.failed = Some(failure_reason(&error));
                break;
            }
        }
        write_csv(&dir.join(GO_CSV), &measured.rows)?;
        measured.cells_done += 1;
        measured.seconds_per_cell = started.elapsed().as_secs_f64() / measured.cells_done as f64;
        progress(&ProgressEvent {
            experiment: contention::gc::EXPERIMENT,
            done: done + 1,
            total: cells.len(),
            label: format!("Go: GOMAXPROCS={threads} GOGC={ratio}"),
        });
    }
    Ok(measured)
}

impl Measured {
    /// What the run left out and why, for the manifest and the page; `None` when every cell ran.
    fn note(&self, cells: &[(usize, GcRatio)], clock: &SideClock) -> Option<String> {
        let left_out = &cells[self.cells_done..];
        if left_out.is_empty() {
            return None;
        }
        let why = match &self.failed {
            Some(reason) => format!("{reason}; the cells after it did not run"),
            None => format!(
                "{} was spent ({} s a cell); not measured: {}",
                budget_text(clock.budget()),
                short_number(self.seconds_per_cell),
                left_out
                    .iter()
                    .map(|(threads, ratio)| format!("GOMAXPROCS={threads} GOGC={ratio}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        Some(format!("measured {} of {} cells: {why}", self.cells_done, cells.len()))
    }
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
    fn a_run_that_left_cells_out_names_them_and_why() {
        let cells = [(1, GcRatio::DEFAULT), (1, GcRatio::Off), (8, GcRatio::DEFAULT), (8, GcRatio::Off)];
        let clock = SideClock::start(Duration::from_secs(15));
        let ran = |cells_done, failed: Option<&str>| Measured {
            rows: Vec::new(),
            cells_done,
            failed: failed.map(String::from),
            seconds_per_cell: 0.75,
        };
        assert_eq!(ran(4, None).note(&cells, &clock), None, "every cell ran");
        assert_eq!(
            ran(2, None).note(&cells, &clock).unwrap(),
            "measured 2 of 4 cells: the 15 s budget was spent (0.75 s a cell); not measured: GOMAXPROCS=8 GOGC=100, \
             GOMAXPROCS=8 GOGC=off"
        );
        let hung = "the Go benchmark at GOMAXPROCS=1 GOGC=off timed out after 6.5 s";
        assert_eq!(
            ran(1, Some(hung)).note(&cells, &clock).unwrap(),
            format!("measured 1 of 4 cells: {hung}; the cells after it did not run")
        );
    }

    #[test]
    fn the_embedded_program_reads_both_pause_metrics() {
        assert!(MAIN_GO.contains("/gc/pauses:seconds") && MAIN_GO.contains("/sched/pauses/total/gc:seconds"));
        assert!(GO_MOD.starts_with("module "));
    }
}
