//! `contention run c2c machine` end to end: the matrix has one cell per requested pair, an
//! unknown CPU is refused with exit 2, the verdict is printed and saved, and hardware
//! counters that the kernel refuses are recorded as "unavailable" without failing the run.
#![allow(clippy::print_stdout)] // a test prints why it checks an unknown instead of a measured fact

mod common;

use common::*;

/// The CPU ids this test process may run on (as the binary will see them).
fn usable_cpus() -> Vec<usize> {
    contention::machine::available_cpu_ids()
}

/// Why no CPU can be named here, where the OS names none a thread may be pinned to, printed
/// so a run says which path it checked.
fn no_cpu_ids_here() -> Option<&'static str> {
    let why = contention::machine::cpu_ids_unnamed()?;
    println!("this build names no CPU ids ({why}): no pair is measured");
    Some(why)
}

#[test]
fn unknown_or_repeated_cpus_exit_2_before_anything_is_measured() {
    let out = scratch("bad");
    let out_arg = out.to_str().unwrap();
    // Where the OS names no CPU a thread may be pinned to (macOS, the fallback), any listed
    // CPU is refused with why.
    let refused_here = match no_cpu_ids_here() {
        Some(why) => [0; 3]
            .map(|_| format!("invalid cpus = 0: a logical CPU this process may run on; none is named here: {why}")),
        None => [
            "invalid cpus = 4095: a logical CPU this process may run on: 0",
            "invalid cpus = 0: each CPU listed once",
            "invalid cpus = 0: at least two CPUs to pair",
        ]
        .map(String::from),
    };
    let cases: &[(&[&str], &str)] = &[
        (&["--cpus", "0,4095"], &refused_here[0]),
        (&["--cpus", "0,4096"], "invalid cpus = 0,4096: CPU 4096 is above 4095: CPU ids from 0 to 4095"),
        (&["--cpus", "0,0"], &refused_here[1]),
        (&["--cpus", "0"], &refused_here[2]),
        (&["--samples", "0"], "invalid samples = 0: 1 to "),
        (&["--samples", "18446744073709551615"], "invalid samples = 18446744073709551615: 1 to "),
    ];
    for (flags, message) in cases {
        let mut args = vec!["run", "c2c", "machine", "--out", out_arg];
        args.extend_from_slice(flags);
        let output = contention(&args);
        assert_eq!(output.status.code(), Some(2), "{flags:?}: {}", stderr(&output));
        assert!(stderr(&output).contains(message), "{flags:?}: {}", stderr(&output));
    }
    let output = contention(&["run", "machine", "--trials", "1", "--out", out_arg]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("invalid trials = 1: at least 2"), "{}", stderr(&output));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0, "nothing measured, nothing written");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn run_c2c_machine_saves_one_cell_per_pair_and_prints_the_verdict() {
    let out = scratch("run");
    let output = contention(&["run", "c2c", "machine", "--quick", "--samples", "7", "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let printed = stdout(&output);
    assert!(printed.contains("Fitness checks") && printed.contains("Verdict: "), "{printed}");
    let run = std::fs::read_dir(&out).unwrap().next().unwrap().unwrap().path();

    let cpus = usable_cpus();
    let pairs = cpus.len() * cpus.len().saturating_sub(1) / 2;
    let c2c = std::fs::read_to_string(run.join("c2c.csv")).unwrap_or_default();
    let no_pairs = no_cpu_ids_here().is_some();
    if no_pairs {
        // No pair: no rows, as on a one-CPU machine; the page's finding says why (below).
        assert!(c2c.is_empty(), "{c2c}");
    } else {
        assert!(c2c.starts_with("cpu_a,cpu_b,"), "{c2c}");
    }
    // A row's cell is its first two columns, the pair of CPUs.
    fn cell(line: &str) -> &str {
        line.match_indices(',').nth(1).map_or(line, |(end, _)| &line[..end])
    }
    let mut cells: Vec<&str> = c2c.lines().skip(1).map(cell).collect();
    assert_eq!(cells.len(), pairs * 7, "7 samples for each of {pairs} pairs");
    cells.dedup();
    assert_eq!(cells.len(), pairs, "one cell per pair");

    let machine = std::fs::read_to_string(run.join("machine.csv")).unwrap();
    assert!(machine.starts_with(
        "threads,trial,trials_planned,iters_per_thread,elapsed_ns,ns_per_op,pinned,cpus,cache_misses,\
         snoop_hit_modified"
    ));
    for line in machine.lines().skip(1) {
        let cache_misses = line.rsplit(',').next().unwrap();
        assert!(cache_misses == "unavailable" || cache_misses.parse::<u64>().is_ok(), "{line}");
    }

    let verdict: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("verdict.json")).unwrap()).unwrap();
    let fitness = verdict["verdict"]["fitness"].as_str().unwrap();
    assert!(["fit", "limited", "unfit"].contains(&fitness), "{verdict}");
    assert!(printed.contains(&format!("> Verdict: {fitness}.")), "{printed}");
    let counters = verdict["hardware_counters"].as_str().unwrap();
    assert!(counters.starts_with("available") || counters.starts_with("unavailable"), "{counters}");

    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("manifest.json")).unwrap()).unwrap();
    let names: Vec<&str> =
        manifest["experiments"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["c2c", "machine"]);
    assert!(manifest["experiments"][1].get("steal_share").is_some(), "steal recorded (or null) per experiment");

    let page = out.join("page.html");
    let output = contention(&["report", "--from", run.to_str().unwrap(), "--out", page.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("id=\"machine\"") && html.contains(&format!("Verdict: {fitness}")));
    if no_pairs {
        assert!(html.contains("Core-to-core latency was not measured: it needs two CPUs"));
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_summary_leads_with_the_verdict() {
    let page = scratch("summary").join("page.html");
    let output = contention(&["report", "--from", fixture().to_str().unwrap(), "--out", page.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let html = std::fs::read_to_string(&page).unwrap();
    let summary = &html[html.find("id=\"summary\"").unwrap()..];
    let first_line = &summary[summary.find("<li>").unwrap()..summary.find("</li>").unwrap()];
    assert!(first_line.contains("href=\"#machine\"") && first_line.contains("This machine"), "{first_line}");
    assert!(html.contains("One-way latency (ns)"), "the heatmap is drawn");
    std::fs::remove_dir_all(page.parent().unwrap()).unwrap();
}

fn render(run: &std::path::Path) -> std::process::Output {
    let page = run.parent().unwrap().join("page.html");
    contention(&["report", "--from", run.to_str().unwrap(), "--out", page.to_str().unwrap()])
}

#[test]
fn a_bad_counter_cell_is_named_and_unavailable_reads_back() {
    let run = fixture_copy("counter-cell");
    let machine = std::fs::read_to_string(run.join("machine.csv")).unwrap();
    assert!(machine.lines().nth(1).unwrap().ends_with(",unavailable"), "the fixture ran without counters");
    assert!(render(&run).status.success());
    std::fs::write(run.join("machine.csv"), machine.replacen(",unavailable", ",lots", 1)).unwrap();
    // Only the machine's scaling rows are left out, with why; the rest of the run renders.
    let output = render(&run);
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = "machine.csv, line 2, column 'cache_misses': invalid value: string \"lots\", expected a count \
                    (whole number >= 0) or \"unavailable\"";
    assert!(stderr(&output).contains(&format!("not shown: {}", run.join("").display())), "{}", stderr(&output));
    assert!(stderr(&output).contains(expected), "{}", stderr(&output));
    std::fs::remove_dir_all(run.parent().unwrap()).unwrap();
}

#[test]
fn a_machine_without_pairs_saves_no_rows_and_still_renders() {
    let run = fixture_copy("no-pairs");
    let manifest_path = run.join("manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
    let c2c = manifest["experiments"].as_array_mut().unwrap().iter_mut().find(|e| e["name"] == "c2c").unwrap();
    c2c["rows"] = 0.into();
    std::fs::write(&manifest_path, serde_json::to_string(&manifest).unwrap()).unwrap();
    // What `contention run c2c` writes on a one-CPU machine: no rows, not even a header.
    std::fs::write(run.join("c2c.csv"), "").unwrap();
    let output = render(&run);
    assert!(output.status.success(), "{}", stderr(&output));
    let html = std::fs::read_to_string(run.parent().unwrap().join("page.html")).unwrap();
    assert!(html.contains("Core-to-core latency was not measured: it needs two CPUs"));
    std::fs::remove_dir_all(run.parent().unwrap()).unwrap();
}

#[test]
fn run_c2c_unpinned_saves_the_pairs_the_scheduler_gave_or_says_why_not() {
    let out = scratch("unpinned");
    let out_arg = out.to_str().unwrap();
    let output = contention(&["run", "c2c", "--unpinned", "--cpus", "0,1", "--out", out_arg]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    if let Err(why) = contention::platform::current_cpu() {
        println!("this build reads no CPU number ({why}): --unpinned is refused");
        let output = contention(&["run", "c2c", "--unpinned", "--quick", "--out", out_arg]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(
            stderr(&output).contains("invalid unpinned = true: a build that reads which CPU"),
            "{}",
            stderr(&output)
        );
        std::fs::remove_dir_all(&out).unwrap();
        return;
    }
    assert!(stderr(&output).contains("no list with --unpinned"), "{}", stderr(&output));
    let output = contention(&["run", "c2c", "--unpinned", "--quick", "--samples", "5", "--out", out_arg]);
    assert!(output.status.success(), "{}", stderr(&output));
    let run = std::fs::read_dir(&out).unwrap().next().unwrap().unwrap().path();
    let rows: Vec<contention::c2c::Row> =
        contention::runs::parse_checked("c2c.csv", &std::fs::read_to_string(run.join("c2c.csv")).unwrap()).unwrap();
    assert!(!rows.is_empty() && rows.iter().all(|row| row.unpinned_method && !row.pinned));
    let page = out.join("page.html");
    let output = contention(&["report", "--from", run.to_str().unwrap(), "--out", page.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("The unpinned matrix took"), "the page counts the samples it dropped");
    std::fs::remove_dir_all(&out).unwrap();
}
