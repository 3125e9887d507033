//! Each of the laptop check's probes, over what the runs themselves call: the lib's build
//! facts, machine description and harness, and the runtimes' version probes.

use std::time::{Duration, Instant};

use contention::build_info::BuildInfo;
use contention::format::short_number;
use contention::harness::{clock_resolution, run_team};
use contention::machine::clocks::Clocks;
use contention::machine::conditions::CpuTimes;
use contention::machine::{available_cpu_ids, load_average, Machine};
use contention::placement::cpu_list;

use super::{Check, Status};
use crate::room::client::{list_runs, Room};

/// A clock that steps more coarsely than this blurs the shortest trials (the lab's
/// per-operation figures are nanoseconds, each trial at least 10 ms).
const COARSE_CLOCK_NS: u64 = 1_000;
/// How long a runtime's version probe may take.
const PROBE_TIME: Duration = Duration::from_secs(10);

fn check(name: &'static str, found: impl Into<String>, status: Status) -> Check {
    Check { name, found: found.into(), status }
}

fn warn(fix: impl Into<String>) -> Status {
    Status::Warn { fix: fix.into() }
}

fn fail(fix: impl Into<String>) -> Status {
    Status::Fail { fix: fix.into() }
}

/// Whether the binary was built optimised: an unoptimised build times the compiler's checks.
pub fn build() -> Check {
    let build = BuildInfo::current();
    let found = format!(
        "contention {} ({} profile, opt-level {}, {}, {})",
        build.crate_version, build.profile, build.opt_level, build.target, build.rustc_version
    );
    match build.is_optimised() {
        true => check("build", found, Status::Ok),
        false => check(
            "build",
            found,
            fail("build with --release: `just check`, or `cargo run --release -p contention-report -- check`"),
        ),
    }
}

/// How many CPUs this process may use, and whether a team of threads gets pinned to them.
pub fn cpus_and_pinning() -> Check {
    let cpus = available_cpu_ids();
    // Where the OS names no CPU a thread may be pinned to (macOS, the portable fallback),
    // the standard library still counts them.
    let count = match cpus.len() {
        0 => std::thread::available_parallelism().map_or(1, |count| count.get()),
        named => named,
    };
    let team = count.clamp(1, 2);
    let timing = match run_team("check", team, |_| {}) {
        Ok(timing) => timing,
        Err(error) => {
            return check(
                "threads",
                format!("a team of {team} threads could not start: {error}"),
                fail("close other programs and run the check again"),
            )
        }
    };
    let usable = match cpus.is_empty() {
        true => format!("{count} CPUs usable (not named by the OS)"),
        false => format!("{count} CPUs usable ({})", cpu_list(&cpus)),
    };
    if count < 2 {
        let fix = "contention between cores cannot show on one CPU: pair up with a neighbour, or use the shared Linux machine";
        return check("threads", usable, fail(fix));
    }
    match (timing.pinned, std::env::consts::OS) {
        (true, _) => check("threads", format!("{usable}; {team} threads pinned to CPUs {}", timing.cpu_list()), Status::Ok),
        (false, "macos") => check(
            "threads",
            format!("{usable}; threads not pinned (macOS only hints at affinity)"),
            warn("nothing to fix: the effects still show, the verdict says \"limited\"; skip the c2c pair-by-pair exercises"),
        ),
        (false, os) => check(
            "threads",
            format!("{usable}; threads could not be pinned on {os}"),
            warn("a container or cgroup may forbid sched_setaffinity: run outside it, or accept a \"limited\" verdict"),
        ),
    }
}

/// The smallest step the clock shows, and what one read costs.
pub fn timer() -> Check {
    let resolution = clock_resolution(200_000);
    let cost = format!("one read costs {} ns", short_number(resolution.read_cost_ns));
    match resolution.smallest_step_ns {
        Some(step) if step <= COARSE_CLOCK_NS => check("timer", format!("steps of {step} ns; {cost}"), Status::Ok),
        Some(step) => check(
            "timer",
            format!("steps of {step} ns, coarser than {COARSE_CLOCK_NS} ns; {cost}"),
            warn("the figures stay right but noisier; on a VM, a TSC clock source helps (/sys/devices/system/clocksource)"),
        ),
        None => check("timer", format!("the clock did not move over 200000 reads; {cost}"), fail("this clock cannot time trials: use another machine")),
    }
}

/// Which of the kernel facts the runs read can be read here, each named with where this OS
/// keeps it; what cannot is "unknown" in the report, never a failure.
pub fn kernel_settings() -> Check {
    let machine = Machine::describe();
    let advice = contention::platform::advice();
    let sources = advice.sources;
    let facts = [
        ("CPU model", sources.cpu_model, machine.cpu_model.is_some()),
        ("cache line sizes", sources.cache_lines, machine.largest_line_bytes().is_some()),
        ("SMT siblings", sources.smt_siblings, machine.physical_cores.is_some()),
        ("NUMA nodes", sources.numa_nodes, machine.numa_nodes.is_some()),
        ("load average", sources.load_average, load_average().is_some()),
        ("CPU time and steal", sources.cpu_time_and_steal, CpuTimes::read().is_some()),
        ("scheduler delays", sources.scheduler_delays, contention::pool::schedstat::thread_run_delay_ns().is_some()),
        ("CPU clock", sources.cpu_clock, Clocks::read().mean_mhz.is_some()),
        ("cache-miss counters", sources.cache_miss_counters, contention::perf::availability().is_ok()),
    ];
    let named = |(name, source): (&str, Option<&str>)| match source {
        Some(source) => format!("{name} ({source})"),
        None => name.to_string(),
    };
    let missing: Vec<String> =
        facts.iter().filter(|(_, _, read)| !read).map(|&(name, source, _)| named((name, source))).collect();
    let read = facts.len() - missing.len();
    let found = format!("{read} of {} readable", facts.len());
    match missing.as_slice() {
        [] => check("kernel settings", found, Status::Ok),
        missing => {
            check("kernel settings", format!("{found}; not: {}", missing.join(", ")), warn(advice.missing_facts))
        }
    }
}

/// Go, which runs the article's GC benchmark beside the model.
pub fn go() -> Check {
    match crate::gc_go::go_version(Instant::now() + PROBE_TIME) {
        Ok(Some(version)) => check("Go", version, Status::Ok),
        Ok(None) => check("Go", "no `go` on PATH", warn(crate::gc_go::without_go())),
        Err(error) => check("Go", format!("{error:#}"), warn(crate::gc_go::GO_UNANSWERED)),
    }
}

/// A JDK, which runs the article's own lock primitives beside the Rust ones.
pub fn jdk() -> Check {
    let deadline = Instant::now() + PROBE_TIME;
    let java = crate::locks_java::version_of("java", deadline);
    let javac = crate::locks_java::version_of("javac", deadline);
    match (java, javac) {
        (Ok(Some(java)), Ok(Some(_))) => check("JDK", java, Status::Ok),
        (Err(error), _) | (_, Err(error)) => {
            check("JDK", format!("{error:#}"), warn(crate::locks_java::JAVA_UNANSWERED))
        }
        _ => check("JDK", "no `java` and `javac` on PATH", warn(crate::locks_java::without_jdk())),
    }
}

/// Whether the room at `room` answers its list of runs.
pub fn room(room: &Room) -> Check {
    match list_runs(room) {
        Ok((200, body)) => {
            let runs = serde_json::from_str::<serde_json::Value>(&body)
                .ok()
                .and_then(|list| list.get("runs").and_then(|runs| runs.as_array()).map(Vec::len));
            match runs {
                Some(count) => check("room", format!("{} answers: {count} runs in the room", room.url), Status::Ok),
                None => check(
                    "room",
                    format!("{} answered, but not with a room's list of runs", room.url),
                    fail("check the URL the instructor shared: it is the one `contention room serve` printed"),
                ),
            }
        }
        Ok((status, body)) => check(
            "room",
            format!("{} answered {status}: {}", room.url, body.lines().next().unwrap_or("")),
            fail("use the address the room printed (page: http://...), not another name for it"),
        ),
        Err(why) => check(
            "room",
            why,
            fail("is this laptop on the room's network (same Wi-Fi), and the URL the one the instructor shared?"),
        ),
    }
}
