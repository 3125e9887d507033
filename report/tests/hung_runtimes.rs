//! Issue 35, item 2: a `go`, `javac` or `java` on PATH that never returns (here a shell
//! script that sleeps, in its version probe, its build or the benchmark itself) no longer
//! hangs `run gc` / `run locks`: each child runs under a deadline (a build under its own
//! limit, the others under one derived from the experiment's budget) and is killed with its
//! process group; the manifest says "timed out after N s" and the model's rows are kept.
//! The quick budgets (12 s, 15 s) and the build's limit (2 minutes) bound each test.
#![cfg(unix)] // links, FIFOs, file modes and shell scripts made as Unix makes them

mod common;

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::*;

/// A folder holding `tools`, each an executable shell script with the given body.
fn fake_tools(dir: &Path, tools: &[(&str, &str)]) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for (name, body) in tools {
        let path = bin.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

/// `contention args` with `bin` first on PATH and a cache folder of the test's own; how
/// long it took.
fn run_with(bin: &Path, dir: &Path, args: &[&str]) -> (Output, Duration) {
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_contention"))
        .args(args)
        .env("PATH", path)
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .output()
        .expect("the binary runs");
    (output, started.elapsed())
}

/// The run saved in `out`: exit 0, `csv` kept, and the manifest's runtime status says
/// `expected` timed out.
fn check_kept(output: &Output, out: &Path, csv: &str, expected: &str) {
    assert_eq!(output.status.code(), Some(0), "{}", stderr(output));
    let run = only_run_folder(out);
    assert!(run.join(csv).is_file(), "the model's rows are kept");
    let manifest = std::fs::read_to_string(run.join("manifest.json")).unwrap();
    let timed_out = format!("{expected} timed out after ");
    assert!(manifest.contains("\"status\": \"failed\"") && manifest.contains(&timed_out), "{manifest}");
}

const LOCKS: [&str; 5] = ["run", "locks", "--quick", "--cases", "uncontended"];

#[test]
fn a_java_that_hangs_in_its_version_probe_is_killed() {
    let dir = scratch("hung-java-probe");
    let bin = fake_tools(&dir, &[("java", "sleep 600"), ("javac", "sleep 600")]);
    let out = dir.join("runs");
    let (output, took) = run_with(&bin, &dir, &[&LOCKS[..], &["--out", out.to_str().unwrap()]].concat());
    check_kept(&output, &out, "locks.csv", "`java -version`");
    // The probe's limit (10 s) within the side's deadline, and the model's seconds.
    assert!(took < Duration::from_secs(25), "{took:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_jvm_benchmark_that_hangs_is_killed_at_the_budget() {
    let dir = scratch("hung-java-run");
    let version = "echo 'openjdk version \"21\"' >&2";
    // javac -encoding UTF-8 -d <classes> <source>: makes the class folder, as javac does.
    let javac = format!("{version}; [ \"$1\" = -version ] || {{ mkdir -p \"$4\" && touch \"$4/Locks.class\"; }}");
    let java = format!("[ \"$1\" = -version ] && {{ {version}; exit 0; }}; sleep 600");
    let bin = fake_tools(&dir, &[("java", &java), ("javac", &javac)]);
    let out = dir.join("runs");
    let (output, took) = run_with(&bin, &dir, &[&LOCKS[..], &["--out", out.to_str().unwrap()]].concat());
    check_kept(&output, &out, "locks.csv", "the JVM's locks");
    // The quick budget (12 s), a quarter more and 5 s, after the model's seconds.
    assert!(took < Duration::from_secs(35), "{took:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_go_build_that_hangs_is_killed_at_its_limit() {
    let dir = scratch("hung-go-build");
    let go = "[ \"$1\" = version ] && { echo 'go version go1.22.0 linux/amd64'; exit 0; }; sleep 600";
    let bin = fake_tools(&dir, &[("go", go)]);
    let out = dir.join("runs");
    let args = ["run", "gc", "--quick", "--threads", "1", "--ratios", "100", "--trials", "1", "--seconds", "0.05"];
    let (output, took) = run_with(&bin, &dir, &[&args[..], &["--out", out.to_str().unwrap()]].concat());
    check_kept(&output, &out, "gc.csv", "`go build` of the Go GC benchmark");
    // A build's own limit (2 minutes: it is not paid from the budget), after the model's
    // seconds.
    assert!(took < Duration::from_secs(150), "{took:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `go` whose build writes a benchmark that answers every cell but GOGC=off, where it
/// hangs: `-seconds S -trials N -warmup W` are its arguments, GOMAXPROCS and GOGC its cell.
const GO_HANGING_AT_OFF: &str = r#"[ "$1" = version ] && { echo 'go version go1.22.0 linux/amd64'; exit 0; }
cat > "$4" <<'BENCH'
#!/bin/sh
[ "$GOGC" = off ] && sleep 600
echo threads,ratio,trial,go_version,elapsed_ns,operations,ops_per_sec,cycles,cycles_per_sec,pause_total_ns,pause_share,pause_metric,alloc_bytes_per_op,alloc_objects_per_op,verified,cpu_share,heap_goal_bytes
trial=0
while [ "$trial" -lt "$4" ]; do
  echo "$GOMAXPROCS,$GOGC,$trial,go1.22.0,50000000,1750,35000.0,12,240.0,100000,0.002,/sched/pauses/total/gc:seconds,2573.0,33.5,true,0.5,4194304"
  trial=$((trial + 1))
done
BENCH
chmod +x "$4""#;

#[test]
fn a_go_cell_that_hangs_is_named_and_the_cells_before_it_are_kept() {
    let dir = scratch("hung-go-cell");
    let bin = fake_tools(&dir, &[("go", GO_HANGING_AT_OFF)]);
    let out = dir.join("runs");
    let args = ["run", "gc", "--quick", "--threads", "1", "--ratios", "100,2400,off,200", "--trials", "2"];
    let seconds = ["--seconds", "0.05", "--out", out.to_str().unwrap()];
    let (output, took) = run_with(&bin, &dir, &[&args[..], &seconds].concat());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let run = only_run_folder(&out);
    let rows = std::fs::read_to_string(run.join("gc-go.csv")).unwrap();
    let cells: Vec<&str> = rows.lines().skip(1).map(|line| line.split(',').nth(1).unwrap()).collect();
    assert_eq!(cells, ["100", "100", "2400", "2400"], "the two cells before the hung one, two trials each");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("manifest.json")).unwrap()).unwrap();
    let gc = manifest["experiments"].as_array().unwrap().iter().find(|e| e["name"] == "gc").unwrap();
    let go = &gc["config"]["go"];
    assert_eq!((go["status"].as_str(), go["rows"].as_u64()), (Some("ran"), Some(4)), "{go}");
    let note = go["note"].as_str().unwrap();
    assert!(
        note.starts_with("measured 2 of 4 cells: the Go benchmark at GOMAXPROCS=1 GOGC=off timed out after "),
        "{note}"
    );
    assert!(note.ends_with("the cells after it did not run"), "{note}");
    // The page says so beside the Go rows.
    let page = Command::new(env!("CARGO_BIN_EXE_contention"))
        .args(["report", "--from", run.to_str().unwrap(), "--format", "markdown", "--out", "-"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&page.stdout).contains("Go: measured 2 of 4 cells"), "{}", stderr(&page));
    // A cell's own limit (twice its expected 0.3 s and 5 s), not the side's (15 s, a quarter more and 5 s).
    assert!(took < Duration::from_secs(30), "{took:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
