//! A run drawn again from its own trials, the bootstrap a claim's settledness is judged over
//! (the judgement's settledness rule). The unit drawn is a round of trials (every row with the same
//! `trial`, or `sample`): the harness interleaves its cases round by round, so a round keeps
//! the cases that ran side by side together. Each resample draws as many rounds as the
//! experiment ran, with replacement; rows without a round are kept whole in every resample.

use super::rows::{AnyRows, Loaded};
use super::Run;

/// Resamples of one run, each a [`Run`] the claims read as they read the run itself; the
/// same seed gives the same resamples.
#[derive(Debug)]
pub struct Bootstrap<'a> {
    run: &'a Run,
    /// Per experiment read, its rows' rounds and its real runtime's.
    rounds: Vec<(Rounds, Option<Rounds>)>,
    state: u64,
}

/// One table's rows by round of trials.
#[derive(Debug)]
struct Rounds {
    /// Row indices, one list per round, in the order the rounds first appear.
    drawn: Vec<Vec<usize>>,
    /// Rows with no round, kept in every resample.
    kept: Vec<usize>,
}

impl Rounds {
    fn of(rows: &dyn AnyRows) -> Self {
        let mut by_round: Vec<(u64, Vec<usize>)> = Vec::new();
        let mut kept = Vec::new();
        for (index, round) in rows.rounds().into_iter().enumerate() {
            match round {
                None => kept.push(index),
                Some(round) => match by_round.iter_mut().find(|(seen, _)| *seen == round) {
                    Some((_, indices)) => indices.push(index),
                    None => by_round.push((round, vec![index])),
                },
            }
        }
        Self { drawn: by_round.into_iter().map(|(_, indices)| indices).collect(), kept }
    }

    /// The row indices of one resample: as many rounds as there are, drawn with replacement.
    fn draw(&self, state: &mut u64) -> Vec<usize> {
        let mut indices = Vec::with_capacity(self.kept.len() + self.drawn.iter().map(Vec::len).sum::<usize>());
        for _ in 0..self.drawn.len() {
            let pick = (splitmix64(state) % self.drawn.len() as u64) as usize;
            indices.extend_from_slice(&self.drawn[pick]);
        }
        indices.extend_from_slice(&self.kept);
        indices
    }
}

/// splitmix64: a small seeded generator, enough to pick rounds.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Run {
    /// Endless resamples of this run's trials, seeded by `seed` (take as many as needed).
    pub fn bootstrap(&self, seed: u64) -> Bootstrap<'_> {
        let rounds = self
            .loaded
            .iter()
            .map(|loaded| (Rounds::of(loaded.rows.as_ref()), loaded.runtime_rows.as_deref().map(Rounds::of)))
            .collect();
        Bootstrap { run: self, rounds, state: seed }
    }
}

impl Iterator for Bootstrap<'_> {
    type Item = Run;

    fn next(&mut self) -> Option<Run> {
        let state = &mut self.state;
        let loaded = self
            .run
            .loaded
            .iter()
            .zip(&self.rounds)
            .map(|(loaded, (rows, runtime_rows))| Loaded {
                experiment: loaded.experiment,
                trials: loaded.trials.clone(),
                rows: loaded.rows.select(&rows.draw(state)),
                runtime_rows: loaded
                    .runtime_rows
                    .as_ref()
                    .zip(runtime_rows.as_ref())
                    .map(|(saved, rounds)| saved.select(&rounds.draw(state))),
            })
            .collect();
        Some(Run { loaded, ..self.run.without_rows() })
    }
}

impl Run {
    /// This run's manifest, label and notes, with no rows.
    fn without_rows(&self) -> Run {
        Run {
            dir: self.dir.clone(),
            manifest: self.manifest.clone(),
            label: self.label.clone(),
            loaded: Vec::new(),
            notes: self.notes.clone(),
            verdict: self.verdict.clone(),
        }
    }
}

impl Run {
    /// This run with every row twice: the same trials as a run of twice the rounds would give
    /// them, narrower intervals and the same medians (a test's stand-in for a longer profile).
    #[cfg(test)]
    pub(crate) fn with_each_row_twice(&self) -> Run {
        let twice = |rows: &dyn AnyRows| rows.select(&(0..rows.len()).chain(0..rows.len()).collect::<Vec<_>>());
        let loaded = self
            .loaded
            .iter()
            .map(|loaded| Loaded {
                experiment: loaded.experiment,
                trials: loaded.trials.clone(),
                rows: twice(loaded.rows.as_ref()),
                runtime_rows: loaded.runtime_rows.as_deref().map(twice),
            })
            .collect();
        Run { loaded, ..self.without_rows() }
    }
}
