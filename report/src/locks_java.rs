//! The JVM beside the Rust locks: the article's own primitives (`locks-java/Locks.java`,
//! compiled into this binary as text) are written to a cache folder, compiled there once
//! with the `javac` on PATH, and run with the `java` beside it over the locks experiment's
//! cases. Its rows go to `locks-java.csv` beside `locks.csv`. Without a JDK, or with
//! `--no-java`, nothing runs and the run's manifest says why.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use contention::format::short_number;
use contention::harness::{Progress, ProgressEvent};
use contention::locks::{Config, JavaRow, JAVA_CSV};

use crate::child::{output_by, probe, probe_deadline};
use crate::runtime_budget::{budget_text, SideClock, BUILD_LIMIT};
use crate::runtime_cache::{cache_dir, failure_reason};
use crate::runtime_status::RuntimeStatus;
use crate::write::{write_atomic, write_csv};

const LOCKS_JAVA: &str = include_str!("../locks-java/Locks.java");
/// The JIT guard `Locks.java` relies on: every `op*` method stays a call of its own, so C2
/// can neither coarsen the locks of successive operations nor hoist a read out of the loop.
const DONT_INLINE: &str = "-XX:CompileCommand=dontinline,Locks$*::op*";
/// A JVM's start before `Locks.java`'s clock does: the VM, its classes, the JIT's threads.
const JVM_START: Duration = Duration::from_millis(500);

/// What `contention check` advises when `java -version` does not answer.
pub const JAVA_UNANSWERED: &str = "`java -version` did not answer: reinstall the JDK, or run with --no-java";

/// What a machine without a JDK loses, and how to add one (`contention check`'s advice).
pub fn without_jdk() -> String {
    format!("the JVM's locks are skipped; {}", contention::platform::installers().jdk)
}

/// Runs `Locks.java` over `config`'s cases into `dir/locks-java.csv`, unless `wanted` is
/// false or no `java` and `javac` are on PATH, within `config.budget` ([`SideClock`]). A
/// failure (a timeout among them) is reported in the status, never as an error: the Rust
/// rows, already saved, stay the run's result.
pub fn measure_beside(config: &Config, wanted: bool, dir: &Path, progress: Progress) -> RuntimeStatus {
    if !wanted {
        return RuntimeStatus::Skipped { reason: "--no-java was given".into() };
    }
    let built_by = Instant::now() + BUILD_LIMIT;
    let measured = version_of("java", built_by).and_then(|java| Ok((java, version_of("javac", built_by)?)));
    let measured = measured.and_then(|versions| match versions {
        (Some(java_version), Some(_)) => {
            let classes = build(&java_version, built_by)?;
            measure_with(config, java_version, &classes, dir, progress)
        }
        _ => Ok(RuntimeStatus::Skipped {
            reason: format!(
                "no `java` and `javac` on PATH: {}, and run `contention run locks` again",
                contention::platform::installers().jdk
            ),
        }),
    });
    measured.unwrap_or_else(|error| RuntimeStatus::Failed { reason: failure_reason(&error) })
}

/// Runs the compiled classes within the budget, on a clock started now.
fn measure_with(
    config: &Config,
    java_version: String,
    classes: &Path,
    dir: &Path,
    progress: Progress,
) -> Result<RuntimeStatus> {
    let clock = SideClock::start(config.budget);
    // The JVM's own start and its classes' loading are paid from the budget.
    let Some(budget) = clock.left().checked_sub(JVM_START).filter(|left| *left >= config.trial) else {
        return Ok(RuntimeStatus::Skipped {
            reason: format!(
                "{} leaves less than one {} s trial after the JVM's start ({} s)",
                budget_text(clock.budget()),
                short_number(config.trial.as_secs_f64()),
                short_number(JVM_START.as_secs_f64())
            ),
        });
    };
    let rows = run(classes, config, budget, clock.deadline())?;
    write_csv(&dir.join(JAVA_CSV), &rows)?;
    progress(&ProgressEvent {
        experiment: contention::locks::EXPERIMENT,
        done: 1,
        total: 1,
        label: format!("JVM: {} rows ({java_version})", rows.len()),
    });
    let note = budget_note(&rows, config, &clock);
    Ok(RuntimeStatus::Ran { version: java_version, file: JAVA_CSV.into(), rows: rows.len(), note })
}

/// "4 of 17 cells ran 3 of 5 trials: the 12 s budget was spent", or `None` when every cell
/// ran every trial.
fn budget_note(rows: &[JavaRow], config: &Config, clock: &SideClock) -> Option<String> {
    let cells = contention::group::by_key(rows, |row| (row.case, row.primitive, row.threads, row.read_share.to_bits()));
    let short: Vec<usize> = cells.iter().map(|(_, trials)| trials.len()).filter(|&n| n < config.trials).collect();
    let fewest = short.iter().copied().min()?;
    Some(format!(
        "{} of {} cells ran {} of {} trials: {} was spent",
        short.len(),
        cells.len(),
        if short.iter().all(|&n| n == fewest) { fewest.to_string() } else { format!("{fewest} or more") },
        config.trials,
        budget_text(clock.budget())
    ))
}

/// The first line `<tool> -version` prints (java prints it on stderr), or `None` when
/// there is no working `<tool>`; an error when it hangs.
pub(crate) fn version_of(tool: &str, deadline: Instant) -> Result<Option<String>> {
    let mut command = Command::new(tool);
    command.arg("-version");
    let Some(output) = probe(&mut command, &format!("`{tool} -version`"), probe_deadline(deadline))? else {
        return Ok(None);
    };
    let text = [output.stderr.as_slice(), output.stdout.as_slice()].concat();
    let first = String::from_utf8_lossy(&text).lines().next().map(|line| line.trim().to_string());
    Ok(first.filter(|line| output.status.success() && !line.is_empty()))
}

/// Compiles `Locks.java` once per source and JDK; later runs reuse the classes.
fn build(java_version: &str, deadline: Instant) -> Result<PathBuf> {
    let dir = cache_dir("locks-java", "the JVM's locks", &[LOCKS_JAVA, java_version])?;
    let classes = dir.join("classes");
    if classes.join("Locks.class").is_file() {
        return Ok(classes);
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    write_atomic(&dir.join("Locks.java"), LOCKS_JAVA.as_bytes())?;
    let building = dir.join(format!(".classes.tmp-{}", std::process::id()));
    let mut command = Command::new("javac");
    command.args(["-encoding", "UTF-8", "-d"]).arg(&building).arg(dir.join("Locks.java"));
    let output = output_by(&mut command, "`javac` of the JVM's locks", deadline);
    if !output.as_ref().is_ok_and(|output| output.status.success()) {
        let _ = std::fs::remove_dir_all(&building);
    }
    let output = output?;
    if !output.status.success() {
        bail!(
            "`javac` of the JVM's locks in {} failed: {}",
            dir.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    // Another run may have finished first: its classes are the same source's.
    if std::fs::rename(&building, &classes).is_err() && !classes.join("Locks.class").is_file() {
        bail!("could not install the compiled classes in {}", classes.display());
    }
    let _ = std::fs::remove_dir_all(&building);
    Ok(classes)
}

/// `Locks.java`'s flags for `config` (the same cases, threads, shares, wait and keys), within
/// `budget` (what is left of the side's once the JVM has started).
fn arguments(config: &Config, budget: Duration) -> Vec<String> {
    let list = |items: Vec<String>| items.join(",");
    let flags = [
        ("--cases", list(config.cases.iter().map(|case| case.name().to_string()).collect())),
        ("--threads", list(config.threads.iter().map(ToString::to_string).collect())),
        ("--read-shares", list(config.read_shares.iter().map(ToString::to_string).collect())),
        ("--wait-threads", config.wait_threads.to_string()),
        ("--wait-ms", config.wait_ms.to_string()),
        ("--keys", config.keys.to_string()),
        ("--requests-per-thread", config.requests_per_thread.to_string()),
        ("--trial-ms", (config.trial.as_secs_f64() * 1e3).to_string()),
        ("--trials", config.trials.to_string()),
        ("--warmup-ms", (config.warmup.as_secs_f64() * 1e3).max(100.0).to_string()),
        ("--budget-ms", (budget.as_secs_f64() * 1e3).to_string()),
    ];
    flags.into_iter().flat_map(|(flag, value)| [flag.to_string(), value]).collect()
}

/// One JVM over every cell; its rows checked: one per trial, each verified, of the cases asked.
fn run(classes: &Path, config: &Config, budget: Duration, deadline: Instant) -> Result<Vec<JavaRow>> {
    let mut command = Command::new("java");
    let arguments = arguments(config, budget);
    command.args(["-XX:CompileCommand=quiet", DONT_INLINE, "-cp"]).arg(classes).arg("Locks").args(arguments);
    let output = output_by(&mut command, "the JVM's locks", deadline)?;
    if !output.status.success() {
        bail!("the JVM's locks failed: {}", String::from_utf8_lossy(&output.stderr).trim());
    }
    let rows: Vec<JavaRow> = csv::Reader::from_reader(output.stdout.as_slice())
        .deserialize()
        .collect::<Result<_, _>>()
        .context("reading the JVM's lock rows")?;
    if rows.is_empty() {
        bail!("the JVM's locks printed no rows");
    }
    if let Some(bad) = rows.iter().find(|row| !row.verified || !config.cases.contains(&row.case)) {
        bail!("the JVM's locks gave a row for {} {:?} verified={}", bad.case, bad.primitive, bad.verified);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime_cache::fnv1a;

    #[test]
    fn the_cache_key_follows_source_and_jdk() {
        assert_eq!(fnv1a(&[LOCKS_JAVA, "17"]), fnv1a(&[LOCKS_JAVA, "17"]));
        assert_ne!(fnv1a(&[LOCKS_JAVA, "17"]), fnv1a(&[LOCKS_JAVA, "21"]));
    }

    #[test]
    fn the_program_gets_every_setting_and_prints_the_row_type() {
        let args = arguments(&Config::quick(), Duration::from_secs(12));
        for flag in ["--cases", "--threads", "--read-shares", "--wait-ms", "--keys", "--trials", "--budget-ms"] {
            assert!(args.iter().any(|arg| arg == flag), "{flag} missing from {args:?}");
            assert!(LOCKS_JAVA.contains(&format!("case \"{flag}\"")), "Locks.java does not read {flag}");
        }
        assert!(LOCKS_JAVA.contains("\"case,primitive,threads,read_share,trial,ops,reads,elapsed_ns,ns_per_op,\""));
    }

    #[test]
    fn a_run_the_budget_cut_says_how_many_cells_ran_fewer_trials() {
        let text = "case,primitive,threads,read_share,trial,ops,reads,elapsed_ns,ns_per_op,ops_per_sec,min_share,\
                    max_share,blocked_share,remote_calls,guard,java_version,verified\n";
        let row = |primitive: &str, trial: u64| {
            format!(
                "uncontended,{primitive},1,0.0,{trial},1000,0,20000,20.0,50000000.0,1.0,1.0,0.0,0,g,OpenJDK 17,true\n"
            )
        };
        let mut csv = text.to_string();
        csv.extend((0..3).map(|trial| row("synchronized", trial)));
        csv.extend((0..2).map(|trial| row("reentrant-lock", trial)));
        let rows: Vec<JavaRow> = contention::runs::parse_rows(JAVA_CSV, &csv).unwrap();
        let config = Config { trials: 3, ..Config::quick() };
        let clock = SideClock::start(Duration::from_secs(12));
        assert_eq!(
            budget_note(&rows, &config, &clock).unwrap(),
            "1 of 2 cells ran 2 of 3 trials: the 12 s budget was spent"
        );
        assert_eq!(budget_note(&rows[..3], &config, &clock), None, "every cell ran every trial");
    }

    /// Where a JDK is installed (CI installs one), a tiny run's rows parse, verified, one
    /// per cell; elsewhere the status says why it was skipped.
    #[test]
    fn a_tiny_jvm_run_gives_verified_rows_or_says_why_not() {
        let config = Config {
            cases: vec![contention::locks::Case::Uncontended, contention::locks::Case::LockAcrossWait],
            threads: vec![1],
            wait_threads: 2,
            wait_ms: 0.1,
            keys: 10,
            requests_per_thread: 5,
            trial: std::time::Duration::from_millis(2),
            trials: 1,
            warmup: std::time::Duration::ZERO,
            ..Config::quick()
        };
        let dir = std::env::temp_dir().join(format!("locks-java-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let status = measure_beside(&config, true, &dir, &mut contention::harness::no_progress);
        match status {
            RuntimeStatus::Ran { rows, .. } => {
                let text = std::fs::read_to_string(dir.join(JAVA_CSV)).unwrap();
                let parsed: Vec<JavaRow> = contention::runs::parse_rows(JAVA_CSV, &text).unwrap();
                assert_eq!((rows, parsed.len()), (7, 7), "5 uncontended cells and 2 map cells, one trial each");
                assert!(parsed.iter().all(|row| row.verified && row.ops > 0));
            }
            RuntimeStatus::Skipped { reason } => assert!(reason.contains("no `java`"), "{reason}"),
            RuntimeStatus::Failed { reason } => panic!("the JVM run failed: {reason}"),
        }
        assert!(matches!(
            measure_beside(&config, false, &dir, &mut contention::harness::no_progress),
            RuntimeStatus::Skipped { .. }
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
