//! Article B's claims (the collector's ratio) from the GC sweep: the model's cells and, where
//! Go ran beside it, real Go's. A claim about Go's collector takes its status from real Go
//! when it ran, and shows the model beside it.

use crate::format;
use crate::gc::compare::{figures, like_for_like_threads, CellFigures};
use crate::gc::search::{search_at, MIN_TRIALS_PER_CELL};
use crate::gc::{summarize, summarize_go, CellSummary, GcRatio, GoCell, GoRow, Row, EXPERIMENT};
use crate::judgement::Status;
use crate::judgement::{Judgement, Target};
use crate::kit::{effect, figure, ratio_text, summary_text, Answer, Context, Estimate, DIRECTION};
use crate::stats::Ratio;

pub fn answer(id: &str, context: &Context) -> Answer {
    let Some(rows) = context.run.rows::<Row>() else { return Answer::not_in_run(EXPERIMENT) };
    let model = summarize(rows);
    let go = context.run.runtime_rows::<GoRow>().map(summarize_go).filter(|cells| !cells.is_empty());
    let (cpus, target) = (context.cpus, |fallback| context.target_or(fallback));
    let cores = context.run.manifest.machine.physical_cores.map_or(cpus, |cores| cores as u64);
    let both = |judge: &dyn Fn(&dyn Side) -> Answer| -> Answer {
        let model_answer = judge(&model.as_slice());
        match &go {
            Some(go) => {
                let go_answer = judge(&go.as_slice());
                let figures = [("Go", &go_answer.figure), ("model", &model_answer.figure)];
                let shown: Vec<String> =
                    figures.iter().filter(|(_, f)| !f.is_empty()).map(|(side, f)| format!("{side}: {f}")).collect();
                let estimate =
                    go_answer.estimate.map(|e| Box::new(Estimate { setting: format!("Go, {}", e.setting), ..*e }));
                Answer { estimate, ..Answer::new(shown.join("; "), go_answer.status, go_answer.why) }
            }
            None if model_answer.figure.is_empty() => model_answer,
            None => {
                let estimate = model_answer
                    .estimate
                    .map(|e| Box::new(Estimate { setting: format!("model, {}", e.setting), ..*e }));
                Answer {
                    estimate,
                    ..Answer::new(format!("model: {}", model_answer.figure), model_answer.status, model_answer.why)
                }
            }
        }
    };
    match id {
        "B1" => both(&|side| side.collapse(target(Target::point(274_622.0 / 78_940.67)))),
        "B2" => both(&|side| side.cpu_share(cpus, target(Target::point(0.4721)))),
        "B3" => both(&|side| side.cycles(cpus, target(Target::range(333.0, 1000.0)))),
        "B4" => heap(&model, go.as_deref(), target(Target::range(4.0, 5.0))),
        "B5" => both(&|side| side.high_ratio(cpus, target(Target::point(8.51)))),
        "B6" => both(&|side| side.search(target(Target::point(8.75)))),
        "B7" => both(&|side| side.over_one_thread(target(Target::point(22.56)))),
        _ => both(&|side| side.past_the_cores(cores, cpus)),
    }
}

/// What a claim reads from one side's cells (the model's or Go's).
trait Side {
    fn collapse(&self, target: Target) -> Answer;
    fn cpu_share(&self, cpus: u64, target: Target) -> Answer;
    fn cycles(&self, cpus: u64, target: Target) -> Answer;
    fn high_ratio(&self, cpus: u64, target: Target) -> Answer;
    fn search(&self, target: Target) -> Answer;
    fn over_one_thread(&self, target: Target) -> Answer;
    fn past_the_cores(&self, cores: u64, cpus: u64) -> Answer;
}

fn find<C: CellFigures>(cells: &[C], threads: u64, ratio: GcRatio) -> Option<&C> {
    cells.iter().find(|cell| cell.threads() == threads && cell.ratio() == ratio)
}

fn enough<C: CellFigures>(cells: &[&C]) -> bool {
    cells.iter().all(|cell| cell.ops_per_sec().samples >= MIN_TRIALS_PER_CELL)
}

fn fastest<'a, C: CellFigures>(cells: impl Iterator<Item = &'a C>) -> Option<&'a C> {
    cells.max_by(|a, b| a.ops_per_sec().median.total_cmp(&b.ops_per_sec().median))
}

fn most_threads<C: CellFigures>(cells: &[C]) -> Option<u64> {
    cells.iter().map(CellFigures::threads).max()
}

impl<C: CellFigures> Side for &[C] {
    /// Ratio 100: the fastest thread count below the most threads, over the most threads
    /// (the article's peak at 17 over its collapse at 48: 3.48x). Still rising at the most
    /// threads is the other way.
    fn collapse(&self, target: Target) -> Answer {
        let at_default = || self.iter().filter(|cell| cell.ratio() == GcRatio::DEFAULT);
        let Some(most) = at_default().max_by_key(|cell| cell.threads()) else {
            return Answer::without_figure(Status::NotInRun, "ratio 100 was not measured");
        };
        let Some(peak) = fastest(at_default().filter(|cell| cell.threads() < most.threads())) else {
            return Answer::without_figure(Status::NotInRun, "ratio 100 was measured at one thread count only");
        };
        let fall = Ratio::between(peak.ops_per_sec(), most.ops_per_sec());
        let figure = format!(
            "{}/s at {} threads, {}/s at {}: {} fall",
            format::number(peak.ops_per_sec().median),
            peak.threads(),
            format::number(most.ops_per_sec().median),
            most.threads(),
            ratio_text(&fall)
        );
        effect(figure, &fall, enough(&[peak, most]), target)
    }

    /// Ratio 100's CPU share at threads = the CPUs (the article's 2266% of 4800%).
    fn cpu_share(&self, cpus: u64, target: Target) -> Answer {
        let cell = like_for_like_threads(self, cpus).and_then(|threads| find(self, threads, GcRatio::DEFAULT));
        let Some(cell) = cell else { return Answer::without_figure(Status::NotInRun, "ratio 100 was not measured") };
        let Some(share) = cell.cpu_share() else {
            return Answer::without_figure(Status::NotMeasurable, "no CPU share recorded (a run saved before it)");
        };
        let text = format!(
            "{} ({}–{}) of the CPUs busy at ratio 100, {} threads",
            format::percent(share.median),
            format::percent(share.median_low),
            format::percent(share.median_high),
            cell.threads()
        );
        figure(text, share, enough(&[cell]), target)
    }

    /// Collections per second at ratio 100, threads = the CPUs.
    fn cycles(&self, cpus: u64, target: Target) -> Answer {
        let cell = like_for_like_threads(self, cpus).and_then(|threads| find(self, threads, GcRatio::DEFAULT));
        let Some(cell) = cell else { return Answer::without_figure(Status::NotInRun, "ratio 100 was not measured") };
        let rate = cell.cycles_per_sec();
        let text = format!("{} cycles/s at {} threads", summary_text(rate, ""), cell.threads());
        figure(text, rate, enough(&[cell]), target)
    }

    /// Ratio 2400 over 100 at the most threads up to 4 x the CPUs. A ratio that collected a
    /// few times still measured the program's throughput, which is what is compared.
    fn high_ratio(&self, cpus: u64, target: Target) -> Answer {
        let Some(gain) = figures(self, 4 * cpus).high_ratio_gain else {
            return Answer::without_figure(Status::NotInRun, "ratios 100 and 2400 were not both measured");
        };
        let figure = format!("ratio 2400 {} ratio 100, {} threads", ratio_text(&gain.gain), gain.threads);
        let cells: Vec<&C> = self.iter().filter(|cell| cell.threads() == gain.threads).collect();
        effect(figure, &gain.gain, enough(&cells), target)
    }

    /// The article's search at the most threads: the fastest ratio other than 100 over ratio
    /// 100 (8.75x for the article's 11 300); ratio 100 clearly ahead of every other is the
    /// other way. The headline's row for article B.
    fn search(&self, target: Target) -> Answer {
        let Some(threads) = most_threads(self) else {
            return Answer::without_figure(Status::NotInRun, "no cell measured");
        };
        let (Some(found), Some(base)) = (search_at(self, threads), find(self, threads, GcRatio::DEFAULT)) else {
            return Answer::without_figure(Status::NotInRun, "ratio 100 was not measured at the most threads");
        };
        let Some(best) = fastest(self.iter().filter(|c| c.threads() == threads && c.ratio() != GcRatio::DEFAULT))
        else {
            return Answer::without_figure(Status::NotInRun, "no ratio but 100 was measured");
        };
        let gain = Ratio::between(best.ops_per_sec(), base.ops_per_sec());
        let grid = if found.ratios < 200 {
            format!(" (a grid of {} ratios; the article's searched 200)", found.ratios)
        } else {
            String::new()
        };
        let figure = format!(
            "{threads} threads: ratio {} ran {} ratio 100 ({} vs {} operations/s){grid}",
            best.ratio(),
            ratio_text(&gain),
            format::number(best.ops_per_sec().median),
            format::number(base.ops_per_sec().median)
        );
        effect(figure, &gain, found.judged, target).with_estimate(format!("{threads} threads"), gain)
    }

    /// The fastest cell over one thread at ratio 100.
    fn over_one_thread(&self, target: Target) -> Answer {
        let (Some(fastest), Some(one)) = (fastest(self.iter()), find(self, 1, GcRatio::DEFAULT)) else {
            return Answer::without_figure(Status::NotInRun, "one thread at ratio 100 was not measured");
        };
        let speedup = Ratio::between(fastest.ops_per_sec(), one.ops_per_sec());
        let figure = format!(
            "{} ({}, ratio {})",
            ratio_text(&speedup),
            crate::gc::summary::threads_text(fastest.threads()),
            fastest.ratio()
        );
        effect(figure, &speedup, enough(&[fastest, one]), target)
    }

    /// At the fastest ratio: throughput with every logical CPU over with one thread per core
    /// (the article's rise past 24 goroutines into hyper-threads).
    fn past_the_cores(&self, cores: u64, cpus: u64) -> Answer {
        if cores >= cpus {
            return Answer::without_figure(Status::NotMeasurable, "no hyper-threads here: one logical CPU per core");
        }
        let Some(best) = fastest(self.iter()).map(CellFigures::ratio) else {
            return Answer::without_figure(Status::NotInRun, "no cell measured");
        };
        let (Some(all), Some(per_core)) = (find(self, cpus, best), find(self, cores, best)) else {
            return Answer::without_figure(
                Status::NotInRun,
                format!("ratio {best} was not measured at both {cores} and {cpus} threads"),
            );
        };
        let rise = Ratio::between(all.ops_per_sec(), per_core.ops_per_sec());
        let figure = format!("ratio {best}: {cpus} threads ran {} {cores} threads", ratio_text(&rise));
        effect(figure, &rise, enough(&[all, per_core]), DIRECTION)
    }
}

/// B4: the heap against the article's 4 -> 5 MiB at ratio 100 and the most threads: Go's
/// pacer goal where Go ran (the article's gctrace "goal"), else the model's peak heap. The
/// model's trigger is the lab's pacer arithmetic (max(live, 4 MiB) x ratio / 100): shown,
/// never judged.
fn heap(cells: &[CellSummary], go: Option<&[GoCell]>, target: Target) -> Answer {
    let mib = |bytes: f64| bytes / f64::from(1 << 20);
    let model = most_threads(cells).and_then(|threads| find(cells, threads, GcRatio::DEFAULT)).map(|cell| {
        let peak = cell.peak_heap_bytes as f64;
        let figure = format!(
            "model: peak heap {} against its trigger {} ({} threads)",
            format::bytes(cell.peak_heap_bytes),
            format::bytes(cell.trigger_bytes),
            cell.threads
        );
        (figure, Judgement::figure(mib(peak), mib(peak), target))
    });
    let go = go.and_then(|go| {
        let cell = find(go, most_threads(go)?, GcRatio::DEFAULT)?;
        let goal = cell.heap_goal_bytes.as_ref()?;
        let figure = format!(
            "Go: heap goal {} MiB ({}), {} goroutines",
            format::number(mib(goal.median)),
            format::interval(mib(goal.median_low), mib(goal.median_high)),
            cell.threads
        );
        let judged = if cell.ops_per_sec.samples >= MIN_TRIALS_PER_CELL {
            Judgement::figure(mib(goal.median_low), mib(goal.median_high), target)
        } else {
            Judgement::too_few_trials()
        };
        Some((figure, judged))
    });
    match (go, model) {
        (Some((go, judged)), Some((model, _))) => Answer::judged(format!("{go}; {model}"), judged),
        (Some((go, judged)), None) => Answer::judged(go, judged),
        (None, Some((model, judged))) => Answer::judged(model, judged),
        (None, None) => Answer::without_figure(Status::NotInRun, "ratio 100 was not measured"),
    }
}
