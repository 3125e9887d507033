//! A seat's hardware as the room's columns show it, read from its run's manifest: what a
//! workshop asks first when two laptops disagree ("why is yours 12x and mine 2x?").

use serde::Serialize;

use crate::format;
use crate::runs::Run;

/// The hardware facts of one seat's run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatHardware {
    /// As the CPU names itself, or "unknown".
    pub cpu_model: String,
    pub os: String,
    pub arch: String,
    pub logical_cpus: usize,
    /// The first data (or unified) cache's coherency line, where the OS reported one.
    pub line_bytes: Option<u64>,
}

impl SeatHardware {
    pub fn of(run: &Run) -> Self {
        let machine = &run.manifest.machine;
        let line_of = |kinds: &[&str]| {
            machine
                .caches
                .iter()
                .filter(|cache| kinds.contains(&cache.kind.as_str()))
                .find_map(|cache| cache.line_bytes)
        };
        Self {
            cpu_model: machine.cpu_model.clone().unwrap_or_else(|| "unknown".into()),
            os: machine.os.clone(),
            arch: machine.arch.clone(),
            logical_cpus: machine.logical_cpus,
            line_bytes: line_of(&["Data"]).or_else(|| line_of(&["Unified"])),
        }
    }

    /// "64 B", or n/a.
    pub fn line_text(&self) -> String {
        self.line_bytes.map_or_else(|| format::NOT_AVAILABLE.into(), format::bytes)
    }

    /// The CPU's family: its model's first two words once the trademark signs are dropped
    /// ("AMD EPYC 7763 64-Core Processor" and "AMD EPYC 9654" are both "AMD EPYC"; "Apple M2
    /// Pro" is "Apple M2"), so laptops of one line group together.
    pub fn cpu_family(&self) -> String {
        let cleaned = self.cpu_model.replace("(R)", " ").replace("(TM)", " ").replace("(tm)", " ");
        let words: Vec<&str> = cleaned.split_whitespace().take(2).collect();
        if words.is_empty() {
            "unknown".into()
        } else {
            words.join(" ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_model(model: &str) -> SeatHardware {
        SeatHardware {
            cpu_model: model.into(),
            os: "linux".into(),
            arch: "x86_64".into(),
            logical_cpus: 8,
            line_bytes: Some(64),
        }
    }

    #[test]
    fn a_family_is_the_models_first_two_words_without_trademark_signs() {
        assert_eq!(with_model("Intel(R) Core(TM) i7-1165G7 @ 2.80GHz").cpu_family(), "Intel Core");
        assert_eq!(with_model("AMD EPYC 7763 64-Core Processor").cpu_family(), "AMD EPYC");
        assert_eq!(with_model("Apple M2 Pro").cpu_family(), "Apple M2");
        assert_eq!(with_model("   ").cpu_family(), "unknown");
        assert_eq!(with_model("x").line_text(), "64 B");
    }
}
