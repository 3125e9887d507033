//! What the laptop check tells the user of each OS: where each fact it lists is read and what
//! to do when one is missing (by the platform body in use: the fallback reads nothing on any
//! OS), and how to install Go and a JDK (by the OS itself, whichever body runs). Every OS's
//! words are compiled on every OS, so CI here tests that none names another OS's files,
//! settings or installer.

/// Where one OS reads each fact the laptop check lists; `None` where it keeps none for a
/// program to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FactSources {
    pub cpu_model: Option<&'static str>,
    pub cache_lines: Option<&'static str>,
    pub smt_siblings: Option<&'static str>,
    pub numa_nodes: Option<&'static str>,
    pub load_average: Option<&'static str>,
    pub cpu_time_and_steal: Option<&'static str>,
    pub scheduler_delays: Option<&'static str>,
    pub cpu_clock: Option<&'static str>,
    pub cache_miss_counters: Option<&'static str>,
}

/// One OS's advice, in the laptop check's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Advice {
    pub sources: FactSources,
    /// What to do when some facts cannot be read.
    pub missing_facts: &'static str,
}

/// How to install the runtimes the lab runs beside its models, on one OS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Installers {
    pub go: &'static str,
    /// A JDK 15 or later.
    pub jdk: &'static str,
}

pub const LINUX: Advice = Advice {
    sources: FactSources {
        cpu_model: Some("/proc/cpuinfo"),
        cache_lines: Some("sysfs"),
        smt_siblings: Some("sysfs"),
        numa_nodes: Some("sysfs"),
        load_average: Some("getloadavg"),
        cpu_time_and_steal: Some("/proc/stat"),
        scheduler_delays: Some("/proc/thread-self/schedstat"),
        cpu_clock: Some("cpufreq"),
        cache_miss_counters: Some("perf_event_open"),
    },
    missing_facts: "nothing blocks the workshop: the report shows these as unknown (counters: sysctl \
                    kernel.perf_event_paranoid=1; most VMs have none)",
};

pub const MACOS: Advice = Advice {
    sources: FactSources {
        cpu_model: Some("sysctl machdep.cpu"),
        cache_lines: Some("sysctl hw.cachelinesize"),
        smt_siblings: Some("sysctl hw.physicalcpu"),
        numa_nodes: None,
        load_average: Some("getloadavg"),
        cpu_time_and_steal: None,
        scheduler_delays: None,
        cpu_clock: None,
        cache_miss_counters: None,
    },
    missing_facts: "nothing: macOS gives a program none of these, and the report shows them as unknown",
};

pub const WINDOWS: Advice = Advice {
    sources: FactSources {
        cpu_model: Some("the registry"),
        cache_lines: Some("GetLogicalProcessorInformationEx"),
        smt_siblings: Some("GetLogicalProcessorInformationEx"),
        numa_nodes: Some("GetLogicalProcessorInformationEx"),
        load_average: None,
        cpu_time_and_steal: None,
        scheduler_delays: None,
        cpu_clock: None,
        cache_miss_counters: None,
    },
    missing_facts: "nothing: Windows gives a program none of these through a public call, and the report \
                    shows them as unknown",
};

pub const FALLBACK: Advice = Advice {
    sources: FactSources {
        cpu_model: None,
        cache_lines: None,
        smt_siblings: None,
        numa_nodes: None,
        load_average: None,
        cpu_time_and_steal: None,
        scheduler_delays: None,
        cpu_clock: None,
        cache_miss_counters: None,
    },
    missing_facts: "this build reads nothing from the OS (the portable fallback): the report shows these as \
                    unknown; build without --features platform-fallback to read them",
};

pub const LINUX_INSTALLERS: Installers = Installers {
    go: "install Go (Debian/Ubuntu: apt-get install golang-go; elsewhere https://go.dev/dl)",
    jdk: "install a JDK 15 or later (Debian/Ubuntu: apt-get install default-jdk-headless; Fedora: dnf \
         install java-21-openjdk-devel)",
};

pub const MACOS_INSTALLERS: Installers = Installers {
    go: "install Go (Homebrew: brew install go; or the installer from https://go.dev/dl)",
    jdk: "install a JDK 15 or later (Homebrew: brew install openjdk; or the installer from \
         https://adoptium.net)",
};

pub const WINDOWS_INSTALLERS: Installers = Installers {
    go: "install Go (winget install GoLang.Go, or the installer from https://go.dev/dl), then open a new \
        terminal",
    jdk: "install a JDK 15 or later (winget install Microsoft.OpenJDK.21, or the installer from \
         https://adoptium.net), then open a new terminal",
};

pub const OTHER_INSTALLERS: Installers =
    Installers { go: "install Go (https://go.dev/dl)", jdk: "install a JDK 15 or later (https://adoptium.net)" };

/// The advice of the platform body in use.
pub fn advice() -> &'static Advice {
    match super::BODY {
        "linux" => &LINUX,
        "macos" => &MACOS,
        "windows" => &WINDOWS,
        _ => &FALLBACK,
    }
}

/// How to install Go and a JDK on the OS this binary was built for.
pub fn installers() -> &'static Installers {
    match std::env::consts::OS {
        "linux" => &LINUX_INSTALLERS,
        "macos" => &MACOS_INSTALLERS,
        "windows" => &WINDOWS_INSTALLERS,
        _ => &OTHER_INSTALLERS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(advice: &Advice, installers: &Installers) -> String {
        let s = advice.sources;
        let sources = [
            s.cpu_model,
            s.cache_lines,
            s.smt_siblings,
            s.numa_nodes,
            s.load_average,
            s.cpu_time_and_steal,
            s.scheduler_delays,
            s.cpu_clock,
            s.cache_miss_counters,
        ];
        let mut text: Vec<&str> = sources.into_iter().flatten().collect();
        text.extend([advice.missing_facts, installers.go, installers.jdk]);
        text.join("\n")
    }

    #[test]
    fn no_os_is_told_another_os_s_files_settings_or_installer() {
        let others = [
            ("macOS", &MACOS, &MACOS_INSTALLERS),
            ("Windows", &WINDOWS, &WINDOWS_INSTALLERS),
            ("fallback", &FALLBACK, &OTHER_INSTALLERS),
        ];
        for (name, advice, installers) in others {
            let text = words(advice, installers);
            for linux_only in ["/proc", "sysfs", "perf_event", "kernel.", "apt-get", "cpufreq", "schedstat"] {
                assert!(!text.contains(linux_only), "{name}'s advice names {linux_only}: {text}");
            }
        }
        let (linux, macos, windows) =
            (words(&LINUX, &LINUX_INSTALLERS), words(&MACOS, &MACOS_INSTALLERS), words(&WINDOWS, &WINDOWS_INSTALLERS));
        assert!(!windows.contains("brew") && !linux.contains("winget") && !linux.contains("brew"));
        assert!(!macos.contains("winget") && !macos.contains("registry"));
    }

    #[test]
    fn the_advice_in_use_names_a_source_exactly_for_the_facts_read_here() {
        let sources = advice().sources;
        let pairs = [
            ("load average", sources.load_average, super::super::load_average().is_ok()),
            ("CPU time", sources.cpu_time_and_steal, super::super::system_cpu_times().is_ok()),
            ("scheduler delays", sources.scheduler_delays, super::super::thread_run_delay_ns().is_ok()),
        ];
        for (fact, source, read) in pairs {
            assert!(!read || source.is_some(), "{fact} is read here but the advice names no source");
        }
        let model_read = super::super::cpu_facts().model.is_some();
        assert!(!model_read || sources.cpu_model.is_some(), "the CPU model is read here but has no source");
    }
}
