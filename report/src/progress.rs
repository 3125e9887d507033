//! Progress on the terminal: a bar when stderr is a terminal, plain lines otherwise (CI
//! logs, pipes), where a bar's carriage returns would be noise. Plain lines come at the
//! first step, at every tenth of the way and at the last: a quick report runs some 700
//! trials, and a line for each buried the log.

use std::io::IsTerminal;

use contention::harness::ProgressEvent;
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug)]
pub struct Reporter {
    experiment: &'static str,
    bar: Option<ProgressBar>,
    /// The tenth of the way the last plain line reported (plain lines only).
    last_tenth: Option<usize>,
}

impl Reporter {
    pub fn new(experiment: &'static str) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(0);
            let style = ProgressStyle::with_template("{prefix:>10} [{bar:30}] {pos}/{len} {msg} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            bar.set_style(style);
            bar.set_prefix(experiment);
            bar
        });
        Self { experiment, bar, last_tenth: None }
    }

    pub fn update(&mut self, event: &ProgressEvent) {
        match &self.bar {
            Some(bar) => {
                bar.set_length(event.total as u64);
                bar.set_position(event.done as u64);
                bar.set_message(event.label.clone());
            }
            None => {
                let Some(tenth) = line_due(event.done, event.total, self.last_tenth) else { return };
                self.last_tenth = Some(tenth);
                let line = format!("{}: {}/{} {}", self.experiment, event.done, event.total, event.label);
                crate::console::to_stderr(&line);
            }
        }
    }

    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish();
        }
    }
}

/// The tenth of the way `done` of `total` reached, when it deserves a plain line: the first
/// step, a tenth not reported yet, or the last step.
fn line_due(done: usize, total: usize, last_tenth: Option<usize>) -> Option<usize> {
    let tenth = (done * 10).checked_div(total).unwrap_or(10);
    (last_tenth.map_or(true, |last| tenth > last) || done >= total).then_some(tenth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines_come_at_the_start_each_tenth_and_the_end() {
        let mut last = None;
        let lines: Vec<usize> = (1..=700)
            .filter(|&done| {
                let due = line_due(done, 700, last);
                last = due.or(last);
                due.is_some()
            })
            .collect();
        assert_eq!(lines, [1, 70, 140, 210, 280, 350, 420, 490, 560, 630, 700]);
        // Short runs keep every step; an unknown total still says something.
        let mut last = None;
        assert!((1..=3).all(|done| {
            let due = line_due(done, 3, last);
            last = due.or(last);
            due.is_some()
        }));
        assert_eq!(line_due(1, 0, None), Some(10));
    }
}
