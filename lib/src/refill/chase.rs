//! The working set a thread walks and the buffer another thread evicts it with.
//!
//! The working set is one node per cache line, linked in one random cycle (Sattolo's
//! shuffle), so each load's address comes from the load before it: the prefetcher cannot
//! run ahead and every line costs its full latency. A pass follows the cycle once around
//! and must come back to where it started, which checks that every node was visited.

use std::hint::black_box;

/// Words per node: one cache line of `line_bytes`, at least one word.
fn words_per_line(line_bytes: usize) -> usize {
    (line_bytes / std::mem::size_of::<usize>()).max(1)
}

/// A pointer-chased working set of `lines` cache lines.
#[derive(Debug)]
pub struct WorkingSet {
    /// Node `i` starts at word `i x stride`; its first word holds the next node's word index.
    words: Vec<usize>,
    lines: usize,
}

impl WorkingSet {
    /// `bytes` of working set in lines of `line_bytes`, linked in a cycle drawn from `seed`.
    pub fn new(bytes: usize, line_bytes: usize, seed: u64) -> Self {
        let stride = words_per_line(line_bytes);
        let lines = (bytes / (stride * std::mem::size_of::<usize>())).max(2);
        let mut order: Vec<usize> = (0..lines).collect();
        // Sattolo's shuffle: a uniformly random permutation that is one single cycle.
        let mut state = seed | 1;
        for last in (1..lines).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(last, (state % last as u64) as usize);
        }
        let mut words = vec![0usize; lines * stride];
        for node in 0..lines {
            words[node * stride] = order[node] * stride;
        }
        Self { words, lines }
    }

    pub fn lines(&self) -> usize {
        self.lines
    }

    /// Follows the cycle `passes` times around from node 0; returns where it ended (node 0's
    /// word, 0, when the cycle is whole). One iteration is one dependent load: the next
    /// index is the loaded word itself, so no two loads overlap. `black_box` on the result
    /// keeps the loop; the loads need none, since each feeds the next.
    pub fn chase(&self, passes: usize) -> usize {
        let mut at = 0usize;
        for _ in 0..passes * self.lines {
            at = self.words[at];
        }
        black_box(at)
    }
}

/// What the other thread touches while it holds the CPU: `bytes` written one word per line,
/// so each line is taken exclusively and the working set's lines are pushed out.
#[derive(Debug)]
pub struct Evictor {
    words: Vec<usize>,
    stride: usize,
}

impl Evictor {
    /// A buffer of `bytes`, every page touched once here so trials do not pay its faults.
    pub fn new(bytes: usize, line_bytes: usize) -> Self {
        let stride = words_per_line(line_bytes);
        let mut evictor = Self { words: vec![0; bytes / std::mem::size_of::<usize>()], stride };
        evictor.touch(0);
        evictor
    }

    /// Writes one word in every line of the buffer; returns a sum the caller keeps alive.
    pub fn touch(&mut self, round: usize) -> usize {
        let mut sum = 0usize;
        for word in self.words.iter_mut().step_by(self.stride) {
            *word = word.wrapping_add(round | 1);
            sum = sum.wrapping_add(*word);
        }
        black_box(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_visits_every_line_once_and_comes_back() {
        for bytes in [64 * 2, 64 * 3, 16 << 10, 100_000] {
            let set = WorkingSet::new(bytes, 64, 7);
            assert_eq!(set.chase(1), 0, "{bytes} bytes");
            let mut seen = vec![false; set.lines()];
            let mut at = 0;
            for _ in 0..set.lines() {
                seen[at / 8] = true;
                at = set.words[at];
            }
            assert!(seen.iter().all(|&visited| visited), "one cycle through every line");
        }
        assert_eq!(WorkingSet::new(16 << 10, 128, 1).lines(), 128);
    }

    #[test]
    fn the_evictor_writes_every_line() {
        let mut evictor = Evictor::new(4096, 64);
        let before = evictor.words.clone();
        evictor.touch(2);
        let changed = evictor.words.iter().zip(&before).filter(|(now, was)| now != was).count();
        assert_eq!(changed, 4096 / 64);
    }
}
