//! CPU lists as the kernel writes them ("0-3,8,10-11"), read wherever one enters: the
//! `--cpus` flag, sysfs, a saved row's `cpus` cell, a manifest's SMT sibling groups. Every
//! id is checked against [`MAX_CPUS`] and every range's size is added up *before* anything
//! is expanded, so no list can ask for more memory or time than a machine's CPUs would.

use super::MAX_CPUS;

/// The highest CPU id accepted: [`MAX_CPUS`] - 1.
pub const MAX_CPU_ID: usize = MAX_CPUS - 1;

/// What a CPU list may hold, in words (the end of every message about one).
pub fn cpu_list_allowed() -> String {
    format!("CPU ids from 0 to {MAX_CPU_ID} and rising ranges, at most {MAX_CPUS} CPUs, e.g. 0-3,8,10-11")
}

/// The CPU ids of `list`, ranges expanded, in the order written; empty for an empty list.
/// Refused, with why: an empty entry ("0,,1"), anything but decimal digits, an id above
/// [`MAX_CPU_ID`], a range that runs backwards, more than [`MAX_CPUS`] ids in all.
pub fn cpu_ids(list: &str) -> Result<Vec<usize>, String> {
    let list = list.trim();
    if list.is_empty() {
        return Ok(Vec::new());
    }
    let mut ranges = Vec::new();
    let mut count = 0usize;
    for part in list.split(',') {
        let (first, last) = match part.split_once('-') {
            Some((first, last)) => (cpu_id(first)?, cpu_id(last)?),
            None => {
                let id = cpu_id(part)?;
                (id, id)
            }
        };
        if first > last {
            return Err(format!("the range {first}-{last} runs backwards"));
        }
        count += last - first + 1;
        if count > MAX_CPUS {
            return Err(format!("more than {MAX_CPUS} CPUs"));
        }
        ranges.push(first..=last);
    }
    Ok(ranges.into_iter().flatten().collect())
}

/// One id: decimal digits only (no sign, no spaces inside), at most [`MAX_CPU_ID`].
fn cpu_id(text: &str) -> Result<usize, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("an empty entry".into());
    }
    if !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(format!("'{}' is not a CPU id", text.chars().take(24).collect::<String>()));
    }
    match text.parse::<usize>() {
        Ok(id) if id <= MAX_CPU_ID => Ok(id),
        _ => Err(format!("CPU {} is above {MAX_CPU_ID}", text.chars().take(24).collect::<String>())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_expand_within_the_bound() {
        assert_eq!(cpu_ids("0-3,8,10-11"), Ok(vec![0, 1, 2, 3, 8, 10, 11]));
        assert_eq!(cpu_ids(" 0 \n"), Ok(vec![0]));
        assert_eq!(cpu_ids(""), Ok(vec![]));
        assert_eq!(cpu_ids(&format!("0-{MAX_CPU_ID}")).map(|ids| ids.len()), Ok(MAX_CPUS));
    }

    #[test]
    fn huge_or_malformed_lists_are_refused_before_expanding() {
        let cases = [
            ("0-4294967295", "CPU 4294967295 is above 4095"),
            ("0-18446744073709551615", "is above 4095"),
            ("0-99999999999999999999999", "is above 4095"),
            ("0-100000", "CPU 100000 is above 4095"),
            ("0,,1", "an empty entry"),
            ("3-1", "runs backwards"),
            ("+1", "'+1' is not a CPU id"),
            ("0x10", "'0x10' is not a CPU id"),
            ("0-4095,0-4095", "more than 4096 CPUs"),
        ];
        for (list, reason) in cases {
            let error = cpu_ids(list).unwrap_err();
            assert!(error.contains(reason), "{list}: {error}");
        }
    }
}
