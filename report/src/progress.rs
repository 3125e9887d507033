//! Progress on the terminal: a bar when stderr is a terminal, plain lines otherwise (CI
//! logs, pipes), where a bar's carriage returns would be noise.

use std::io::IsTerminal;

use contention::harness::ProgressEvent;
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug)]
pub struct Reporter {
    experiment: &'static str,
    bar: Option<ProgressBar>,
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
        Self { experiment, bar }
    }

    pub fn update(&mut self, event: &ProgressEvent) {
        match &self.bar {
            Some(bar) => {
                bar.set_length(event.total as u64);
                bar.set_position(event.done as u64);
                bar.set_message(event.label.clone());
            }
            None => {
                #[allow(clippy::print_stderr)] // progress lines are the CLI's job
                {
                    eprintln!("{}: {}/{} {}", self.experiment, event.done, event.total, event.label);
                }
            }
        }
    }

    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish();
        }
    }
}
