//! Article B's claims (the collector's ratio) from the GC sweep: the model's cells and, where
//! Go ran beside it, real Go's. A claim about Go's collector takes its status from real Go
//! when it ran, and shows the model beside it.

use super::{judged, ratio_text, summary_text, within, Answer, Context, Status};
use crate::format;
use crate::gc::compare::{figures, like_for_like_threads, CellFigures};
use crate::gc::search::{search_at, MIN_TRIALS_PER_CELL};
use crate::gc::{summarize, summarize_go, CellSummary, GcRatio, GoRow, Row, EXPERIMENT};
use crate::stats::Ratio;

pub fn answer(id: &str, context: &Context, range: Option<(f64, f64)>) -> Answer {
    let Some(rows) = context.run.rows::<Row>() else { return Answer::not_in_run(EXPERIMENT) };
    let model = summarize(rows);
    let go = context.run.beside::<GoRow>().map(summarize_go).filter(|cells| !cells.is_empty());
    let cpus = context.cpus;
    let both = |judge: &dyn Fn(&dyn Side) -> Answer| -> Answer {
        let model_answer = judge(&model.as_slice());
        match &go {
            Some(go) => {
                let go_answer = judge(&go.as_slice());
                let figures = [("Go", &go_answer.figure), ("model", &model_answer.figure)];
                let shown: Vec<String> =
                    figures.iter().filter(|(_, f)| !f.is_empty()).map(|(side, f)| format!("{side}: {f}")).collect();
                Answer::new(shown.join("; "), go_answer.status, go_answer.why)
            }
            None if model_answer.figure.is_empty() => model_answer,
            None => Answer::new(format!("model: {}", model_answer.figure), model_answer.status, model_answer.why),
        }
    };
    match id {
        "B1" => both(&|side| side.curve()),
        "B2" => both(&|side| side.cpu_share(cpus)),
        "B3" => both(&|side| side.cycles(cpus, range.unwrap_or((333.0, 1000.0)))),
        "B4" => heap(&model, range.unwrap_or((4.0, 5.0))),
        "B5" => both(&|side| side.high_ratio(cpus)),
        "B6" => both(&|side| side.search()),
        "B7" => {
            let answer = both(&|side| side.over_one_thread());
            if cpus < 24 {
                Answer::needs_cores(answer.figure, 24, cpus)
            } else {
                answer
            }
        }
        "B8" => Answer::without_figure(
            Status::NotMeasurable,
            "the lab does not record per-core clock frequencies (most guests hide them)",
        ),
        _ if cpus < 48 => Answer::needs_cores(String::new(), 48, cpus),
        _ => Answer::without_figure(Status::NotMeasurable, "the lab does not judge the curve past the cores yet"),
    }
}

/// What a claim reads from one side's cells (the model's or Go's).
trait Side {
    fn curve(&self) -> Answer;
    fn cpu_share(&self, cpus: usize) -> Answer;
    fn cycles(&self, cpus: usize, range: (f64, f64)) -> Answer;
    fn high_ratio(&self, cpus: usize) -> Answer;
    fn search(&self) -> Answer;
    fn over_one_thread(&self) -> Answer;
}

fn find<C: CellFigures>(cells: &[C], threads: u64, ratio: GcRatio) -> Option<&C> {
    cells.iter().find(|cell| cell.threads() == threads && cell.ratio() == ratio)
}

fn enough<C: CellFigures>(cells: &[&C]) -> bool {
    cells.iter().all(|cell| cell.ops_per_sec().samples >= MIN_TRIALS_PER_CELL)
}

fn most_threads<C: CellFigures>(cells: &[C]) -> Option<u64> {
    cells.iter().map(CellFigures::threads).max()
}

impl<C: CellFigures> Side for &[C] {
    /// Ratio 100: where throughput peaks, and whether the most threads fell below it.
    fn curve(&self) -> Answer {
        let at_default: Vec<&C> = self.iter().filter(|cell| cell.ratio() == GcRatio::DEFAULT).collect();
        let peak = at_default.iter().copied().max_by(|a, b| a.ops_per_sec().median.total_cmp(&b.ops_per_sec().median));
        let most = at_default.iter().copied().max_by_key(|cell| cell.threads());
        let (Some(peak), Some(most)) = (peak, most) else {
            return Answer::without_figure(Status::NotInRun, "ratio 100 was not measured");
        };
        let figure = format!(
            "peak {}/s at {} threads, {}/s at {}",
            format::number(peak.ops_per_sec().median),
            peak.threads(),
            format::number(most.ops_per_sec().median),
            most.threads()
        );
        if peak.threads() == most.threads() {
            return Answer::new(figure, Status::Differs, "throughput still rose at the most threads measured");
        }
        let fall = Ratio::between(peak.ops_per_sec(), most.ops_per_sec());
        judged(figure, &fall, enough(&[peak, most]))
    }

    /// At threads = the CPUs, ratio 100's CPU share against the fastest other ratio's.
    fn cpu_share(&self, cpus: usize) -> Answer {
        let Some(threads) = like_for_like_threads(self, cpus as u64) else {
            return Answer::without_figure(Status::NotInRun, "no cell to compare");
        };
        let base = find(self, threads, GcRatio::DEFAULT);
        let other = self
            .iter()
            .filter(|cell| cell.threads() == threads && cell.ratio() != GcRatio::DEFAULT)
            .max_by(|a, b| a.ops_per_sec().median.total_cmp(&b.ops_per_sec().median));
        let (Some(base), Some(other)) = (base, other) else {
            return Answer::without_figure(Status::NotInRun, "ratio 100 and a larger ratio were not both measured");
        };
        let (Some(base_share), Some(other_share)) = (base.cpu_share(), other.cpu_share()) else {
            return Answer::without_figure(Status::NotMeasurable, "no CPU share recorded (a run saved before it)");
        };
        let percent = |share: &crate::stats::Summary| {
            format!(
                "{} ({}–{})",
                format::percent(share.median),
                format::percent(share.median_low),
                format::percent(share.median_high)
            )
        };
        let figure = format!(
            "{} of the CPUs at ratio 100, {} at {}, {threads} threads",
            percent(base_share),
            percent(other_share),
            other.ratio()
        );
        let rise = Ratio::between(other_share, base_share);
        let mut answer = judged(figure, &rise, enough(&[base, other]));
        answer.why = match answer.status {
            Status::Reproduced => "a larger ratio put the idle CPUs to work".into(),
            Status::Differs => format!("ratio 100 kept more of the CPUs busy than {} here", other.ratio()),
            _ => answer.why,
        };
        answer
    }

    /// Collections per second at threads = the CPUs, ratio 100.
    fn cycles(&self, cpus: usize, range: (f64, f64)) -> Answer {
        let cell = like_for_like_threads(self, cpus as u64).and_then(|threads| find(self, threads, GcRatio::DEFAULT));
        let Some(cell) = cell else { return Answer::without_figure(Status::NotInRun, "ratio 100 was not measured") };
        let rate = cell.cycles_per_sec();
        let figure = format!("{} cycles/s at {} threads", summary_text(rate, ""), cell.threads());
        if cell.too_few_cycles() {
            return Answer::new(figure, Status::NotBeyondNoise, "too few cycles to judge");
        }
        let (status, side) = within((rate.median_low, rate.median_high), range);
        let why =
            if side.is_empty() { String::new() } else { format!("{side}: this machine allocates at its own pace") };
        Answer::new(figure, status, why)
    }

    /// Ratio 2400 over 100 at the most threads up to 4 x the CPUs.
    fn high_ratio(&self, cpus: usize) -> Answer {
        let Some(gain) = figures(self, 4 * cpus as u64).high_ratio_gain else {
            return Answer::without_figure(Status::NotInRun, "ratios 100 and 2400 were not both measured");
        };
        let figure = format!("ratio 2400 {} ratio 100, {} threads", ratio_text(&gain.gain), gain.threads);
        if gain.too_few_cycles {
            return Answer::new(figure, Status::NotBeyondNoise, "too few cycles at ratio 2400 to judge");
        }
        let cells: Vec<&C> = self.iter().filter(|cell| cell.threads() == gain.threads).collect();
        judged(figure, &gain.gain, enough(&cells))
    }

    /// The article's search at the most threads.
    fn search(&self) -> Answer {
        let Some(found) = most_threads(self).and_then(|threads| search_at(self, threads)) else {
            return Answer::without_figure(Status::NotInRun, "no cell measured");
        };
        let figure = format!(
            "best {} of {} ratios ({}/s), {} threads; {}",
            found.best,
            found.ratios,
            format::number(found.best_ops_per_sec.median),
            found.threads,
            found.beyond()
        );
        let grid = if found.ratios < 200 {
            format!("; the article searched 200 ratios (--ratios 100..20000:100), this grid {}", found.ratios)
        } else {
            String::new()
        };
        match (found.judged, found.beats_default()) {
            (true, true) => Answer::new(figure, Status::Reproduced, format!("a large ratio was best{grid}")),
            (true, false) => Answer::new(figure, Status::NotBeyondNoise, format!("no ratio beat 100 measurably{grid}")),
            (false, _) => Answer::new(figure, Status::NotBeyondNoise, format!("too few trials{grid}")),
        }
    }

    /// The fastest cell over one thread at ratio 100.
    fn over_one_thread(&self) -> Answer {
        let fastest = self.iter().max_by(|a, b| a.ops_per_sec().median.total_cmp(&b.ops_per_sec().median));
        let (Some(fastest), Some(one)) = (fastest, find(self, 1, GcRatio::DEFAULT)) else {
            return Answer::without_figure(Status::NotInRun, "one thread at ratio 100 was not measured");
        };
        let speedup = Ratio::between(fastest.ops_per_sec(), one.ops_per_sec());
        let figure = format!(
            "{} ({}, ratio {})",
            ratio_text(&speedup),
            crate::gc::summary::threads_text(fastest.threads()),
            fastest.ratio()
        );
        judged(figure, &speedup, enough(&[fastest, one]))
    }
}

/// The model's heap at ratio 100 and the most threads: its trigger and its peak.
fn heap(cells: &[CellSummary], (_, goal_mib): (f64, f64)) -> Answer {
    let cell = most_threads(cells).and_then(|threads| find(cells, threads, GcRatio::DEFAULT));
    let Some(cell) = cell else { return Answer::without_figure(Status::NotInRun, "ratio 100 was not measured") };
    let mib = |bytes: u64| bytes as f64 / f64::from(1 << 20);
    let figure = format!(
        "model: trigger {}, peak heap {} ({} threads)",
        format::bytes(cell.trigger_bytes),
        format::bytes(cell.peak_heap_bytes),
        cell.threads
    );
    if mib(cell.peak_heap_bytes) <= 2.0 * goal_mib {
        Answer::new(figure, Status::Reproduced, "a tiny heap paced from Go's 4 MiB minimum")
    } else {
        Answer::new(figure, Status::Differs, "the heap grew past twice the article's goal")
    }
}
