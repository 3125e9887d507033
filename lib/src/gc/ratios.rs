//! The ratios a sweep runs, as written on the command line: single ratios (`100`, `off`),
//! ranges `FROM..TO:STEP` (the article's search was `100..20000:100`), or a list of both.
//! A list is bounded before anything is expanded, so no input allocates or runs for days.

use super::types::GcRatio;
use crate::error::ConfigError;

/// The most ratios one sweep may run: the article's search (200 ratios) and a few more.
/// Each ratio is a cell per thread count, each cell a trial per round, so a sweep of this
/// many already takes minutes per round at default sizes.
pub const MAX_RATIOS: usize = 256;

/// What a ratio list may hold, for messages.
pub fn allowed() -> String {
    format!(
        "ratios of at least 1 (GOGC-style percents), off, or ranges FROM..TO:STEP (e.g. 100..20000:100), \
         separated by commas, at most {MAX_RATIOS} ratios in all"
    )
}

/// The ratios of `items` (each a ratio, `off` or a range), in the order written, each once.
pub fn parse_ratios<S: AsRef<str>>(items: &[S]) -> Result<Vec<GcRatio>, ConfigError> {
    let written = || items.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(",");
    let mut ratios: Vec<GcRatio> = Vec::new();
    for item in items {
        let item = item.as_ref().trim();
        let expanded = match item.split_once("..") {
            Some((from, rest)) => range(item, from, rest)?,
            None => vec![item.parse::<GcRatio>()?],
        };
        for ratio in expanded {
            if !ratios.contains(&ratio) {
                ratios.push(ratio);
            }
            if ratios.len() > MAX_RATIOS {
                return Err(ConfigError::new("ratios", written(), allowed()));
            }
        }
    }
    Ok(ratios)
}

/// `FROM..TO:STEP`, counted before it is expanded.
fn range(item: &str, from: &str, rest: &str) -> Result<Vec<GcRatio>, ConfigError> {
    let refuse = |why: &str| ConfigError::new("ratios", item, format!("{why}; {}", allowed()));
    let (to, step) = rest.split_once(':').ok_or_else(|| refuse("a range needs its step: FROM..TO:STEP"))?;
    let number = |text: &str| text.trim().parse::<u32>().ok();
    let (Some(from), Some(to), Some(step)) = (number(from), number(to), number(step)) else {
        return Err(refuse("FROM, TO and STEP are whole numbers"));
    };
    if from == 0 || step == 0 || from > to {
        return Err(refuse("FROM at least 1, STEP at least 1, FROM no larger than TO"));
    }
    let count = (u64::from(to) - u64::from(from)) / u64::from(step) + 1;
    if count > MAX_RATIOS as u64 {
        return Err(refuse(&format!("this range gives {count} ratios")));
    }
    Ok((0..count).map(|index| GcRatio::Percent(from + (index as u32) * step)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn percents(ratios: &[GcRatio]) -> Vec<String> {
        ratios.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn ranges_and_single_ratios_mix_in_the_order_written() {
        let ratios = parse_ratios(&["100..500:200", "off", "300", "2400"]).unwrap();
        assert_eq!(percents(&ratios), ["100", "300", "500", "off", "2400"], "300 once");
        assert_eq!(parse_ratios(&["100..20000:100"]).unwrap().len(), 200, "the article's search");
        assert_eq!(percents(&parse_ratios(&["100..2000:100"]).unwrap()).last().unwrap(), "2000");
        assert_eq!(percents(&parse_ratios(&["5..12:4"]).unwrap()), ["5", "9"], "the step decides where it ends");
    }

    #[test]
    fn absurd_and_malformed_ranges_are_refused_before_expanding() {
        let huge = parse_ratios(&["1..4000000000:1"]).unwrap_err().to_string();
        assert!(huge.starts_with("invalid ratios = 1..4000000000:1: this range gives 4000000000 ratios;"), "{huge}");
        assert!(huge.ends_with("at most 256 ratios in all"), "{huge}");
        let many = parse_ratios(&["100..20000:100", "20100..40000:100"]).unwrap_err().to_string();
        assert!(many.starts_with("invalid ratios = 100..20000:100,20100..40000:100: ratios of at least 1"), "{many}");
        for bad in ["100..2000", "0..100:10", "100..50:10", "100..200:0", "a..b:c", "100..200:-5"] {
            let error = parse_ratios(&[bad]).unwrap_err();
            assert_eq!((error.field, error.value.as_str()), ("ratios", bad));
        }
        assert_eq!(parse_ratios(&["0"]).unwrap_err().field, "ratios");
    }
}
