//! The hardware counters' cache misses, per case of one experiment, in one sentence.

use crate::perf::CounterReading;
use crate::stats::Summary;

/// What the hardware counters said for one experiment's trials, grouped by case (stride,
/// sharing case), in one sentence: the median per case, or that they were unavailable.
pub fn cache_miss_note(groups: Vec<(String, Vec<CounterReading>)>) -> String {
    let medians: Vec<String> = groups
        .into_iter()
        .filter_map(|(case, readings)| {
            let counts: Vec<f64> = readings
                .iter()
                .filter_map(|reading| match reading {
                    CounterReading::Counted(count) => Some(*count as f64),
                    CounterReading::Unavailable => None,
                })
                .collect();
            Summary::of(&counts).map(|summary| format!("{case}: {:.0}", summary.median))
        })
        .collect();
    if medians.is_empty() {
        "Cache misses per trial: unavailable here (the kernel allowed no hardware counter).".into()
    } else {
        format!("Median cache misses per trial (perf_event_open): {}.", medians.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_miss_note_gives_medians_or_says_unavailable() {
        let counted = vec![
            (
                "8 B".to_string(),
                vec![CounterReading::Counted(100), CounterReading::Counted(300), CounterReading::Counted(150)],
            ),
            ("64 B".to_string(), vec![CounterReading::Unavailable, CounterReading::Counted(20)]),
        ];
        assert_eq!(cache_miss_note(counted), "Median cache misses per trial (perf_event_open): 8 B: 150, 64 B: 20.");
        let unavailable = vec![("8 B".to_string(), vec![CounterReading::Unavailable])];
        assert!(cache_miss_note(unavailable).starts_with("Cache misses per trial: unavailable here"));
    }
}
