//! Article C's claims on thread pools, from the pool experiment (C8, the refill after a
//! switch, is the cache-refill experiment's). The
//! article's pool sizes are scaled per CPU: its incident (320 threads on 8 cores) is 40 per
//! CPU, its fix (64) 8 per CPU; each claim reads the first hit rate of the run unless it
//! names another.

use crate::format;
use crate::judgement::Status;
use crate::judgement::{Judgement, Target};
use crate::kit::{effect, figure, ratio_text, Answer, Context, DIRECTION};
use crate::pool::virtual_threads::{blocking_figures, memory_figures};
use crate::pool::{format_ms, summarize, switch_cost, PoolSummary, Row, Variant, EXPERIMENT, MIN_TRIALS_FOR_CLAIM};
use crate::stats::{Ratio, Summary};

/// How far the capacity may move for the article's "QPS 1 180 -> 1 130" (-4%) to hold: 10%.
const CAPACITY_BOUND: f64 = 0.1;
/// The article's "about 300 MB" less memory, read as within 20%.
const ABOUT: f64 = 0.2;

pub fn answer(id: &str, context: &Context) -> Answer {
    if id == "C21" {
        return Answer::without_figure(
            Status::NotMeasurable,
            "a way of reasoning, not a number: the pool section walks it",
        );
    }
    let Some(rows) = context.run.rows::<Row>() else { return Answer::not_in_run(EXPERIMENT) };
    let cases = Cases { summaries: summarize(rows), switch_cost: switch_cost(rows), cpus: context.cpus };
    let target = |fallback| context.target_or(fallback);
    match id {
        "C1" => cases.incident_p99(target(Target::point(2300.0 / 210.0))),
        "C2" => cases.capacity_kept(),
        "C3" => cases.formula(),
        "C4" => cases.bimodal(),
        "C5" => cases.more_hits(target(Target::range(300.0, f64::INFINITY))),
        "C6" => cases.switch_cost(target(Target::range(3.0, 5.0))),
        "C7" => cases.switching_cores(),
        "C9" => cases.run_delay(target(Target::point(1.7))),
        "C10" => cases.best_size(target(Target::range(4.0, 8.0))),
        _ => cases.virtual_threads(id, context),
    }
}

struct Cases {
    summaries: Vec<PoolSummary>,
    /// Every probe's cost of one switch, one before each run.
    switch_cost: Option<Summary>,
    cpus: u64,
}

impl Cases {
    fn first_hit(&self) -> f64 {
        self.summaries.first().map_or(0.0, |s| s.key.hit_rate)
    }

    fn fixed(&self, per_cpu: u64, hit_rate: f64) -> Option<&PoolSummary> {
        self.summaries.iter().find(|s| {
            s.key.variant == Variant::Fixed && s.key.hit_rate == hit_rate && s.key.pool_threads == per_cpu * s.cpus
        })
    }

    fn variant(&self, variant: Variant) -> Option<&PoolSummary> {
        self.summaries.iter().find(|s| s.key.variant == variant && s.key.hit_rate == self.first_hit())
    }

    fn enough(cases: &[&PoolSummary]) -> bool {
        cases.iter().all(|case| case.trials >= MIN_TRIALS_FOR_CLAIM)
    }

    /// The incident's 40 threads per CPU and the fix's 8 per CPU, at the first hit rate.
    fn incident_and_fix(&self) -> Result<(&PoolSummary, &PoolSummary), Answer> {
        match (self.fixed(40, self.first_hit()), self.fixed(8, self.first_hit())) {
            (Some(incident), Some(fix)) => Ok((incident, fix)),
            _ => Err(Answer::without_figure(Status::NotInRun, "the pools of 40 and 8 per CPU did not both run")),
        }
    }

    /// C1, the headline's row for article C: the incident pool's p99 over the fix's (the
    /// article's 2.3 s over 210 ms).
    fn incident_p99(&self, target: Target) -> Answer {
        let (incident, fix) = match self.incident_and_fix() {
            Ok(pair) => pair,
            Err(answer) => return answer,
        };
        let ratio = Ratio::between(&incident.p99_ms, &fix.p99_ms);
        let bound = |s: &PoolSummary| if s.p99_lower_bound { "at least " } else { "" };
        let usage = if incident.usage_measured() {
            format!(
                "CPU {} busy, {:.0} switches/s",
                format::percent(incident.cpu_share.median),
                incident.switches_per_s.median
            )
        } else {
            "CPU time and switches not counted by this OS".into()
        };
        let figure = format!(
            "p99 at {} threads {}{} vs {}{} at {}: {}; {usage}",
            incident.key.pool_threads,
            bound(incident),
            format_ms(incident.p99_ms.median),
            bound(fix),
            format_ms(fix.p99_ms.median),
            fix.key.pool_threads,
            ratio_text(&ratio),
        );
        let setting = format!("p99, {} vs {} threads", incident.key.pool_threads, fix.key.pool_threads);
        effect(figure, &ratio, Self::enough(&[incident, fix]), target).with_estimate(setting, ratio)
    }

    /// C2: the fix's capacity over the incident's, which the article saw barely move (-4%).
    fn capacity_kept(&self) -> Answer {
        let (incident, fix) = match self.incident_and_fix() {
            Ok(pair) => pair,
            Err(answer) => return answer,
        };
        let kept = Ratio::between(&fix.capacity_per_s, &incident.capacity_per_s);
        let figure = format!(
            "{} -> {} threads: capacity {} ({:.0} -> {:.0}/s), P99 {} -> {}",
            incident.key.pool_threads,
            fix.key.pool_threads,
            ratio_text(&kept),
            incident.capacity_per_s.median,
            fix.capacity_per_s.median,
            format_ms(incident.p99_ms.median),
            format_ms(fix.p99_ms.median)
        );
        if !Self::enough(&[incident, fix]) {
            return Answer::judged(figure, Judgement::too_few_trials());
        }
        Answer::judged(figure, Judgement::no_change(&kept, CAPACITY_BOUND))
    }

    /// C3: Goetz's formula with the article's inputs on this machine's CPUs: arithmetic.
    fn formula(&self) -> Answer {
        let Some(first) = self.summaries.first() else { return Answer::not_in_run(EXPERIMENT) };
        let threads = first.article_formula_threads;
        let figure = format!("{} x 0.8 x (1 + 49/1) = {threads}: {} per CPU", self.cpus, threads / self.cpus.max(1));
        Answer::set_up(figure, "the article's arithmetic on this machine's CPUs; it sizes the incident pool")
    }

    /// C4: the service's two paths are the lab's inputs; their measured p99s are shown.
    fn bimodal(&self) -> Answer {
        let case = self.fixed(8, self.first_hit()).or_else(|| self.summaries.first());
        let Some(case) = case else { return Answer::not_in_run(EXPERIMENT) };
        let figure = format!(
            "hits' p99 {}, misses' {} ({} threads)",
            format_ms(case.hit_p99_ms.median),
            format_ms(case.miss_p99_ms.median),
            case.key.pool_threads
        );
        Answer::set_up(figure, "the hit and miss waits and the hit rate are the lab's inputs (pool's config)")
    }

    /// C5: the incident pool at 97% hits.
    fn more_hits(&self, target: Target) -> Answer {
        let Some(case) = self.fixed(40, 0.97) else {
            return Answer::without_figure(Status::NotInRun, "97% hits did not run (the default profile runs it)");
        };
        let p99 = &case.p99_ms;
        let text = format!("P99 {}, {} threads", ms_with_interval(p99), case.key.pool_threads);
        figure(text, p99, Self::enough(&[case]), target)
    }

    /// C6: the probe's cost of one switch, over the probes before every run.
    fn switch_cost(&self, target: Target) -> Answer {
        let (Some(first), Some(cost)) = (self.summaries.first(), &self.switch_cost) else {
            return Answer::not_in_run(EXPERIMENT);
        };
        // Timed probes never agree to the last bit: one value in every row is a run saved by
        // an older lab, which probed 5 times before the trials and kept the median in every row.
        let text = if cost.samples > 1 && cost.min == cost.max {
            format!("{:.1} us (the probes' median, saved in every trial: no interval)", cost.median / 1e3)
        } else {
            format!(
                "{:.1} us ({:.1}–{:.1}), {} probes",
                cost.median / 1e3,
                cost.median_low / 1e3,
                cost.median_high / 1e3,
                cost.samples
            )
        };
        let judged = if Self::enough(&[first]) {
            Judgement::figure(cost.median_low / 1e3, cost.median_high / 1e3, target)
        } else {
            Judgement::too_few_trials()
        };
        Answer::judged(text, judged)
    }

    /// C7: 480 000 switches a second times C6's cost: arithmetic on C6, not evidence of its own.
    fn switching_cores(&self) -> Answer {
        let Some(cost_ns) = self.switch_cost.as_ref().map(|cost| cost.median) else {
            return Answer::not_in_run(EXPERIMENT);
        };
        let cores = 480_000.0 * cost_ns / 1e9;
        Answer::set_up(
            format!("480 000/s x {:.1} us = {cores:.2} cores", cost_ns / 1e3),
            "arithmetic on C6's measured cost, which C6 judges",
        )
    }

    /// C9: the run-queue delay per request in the incident pool.
    fn run_delay(&self, target: Target) -> Answer {
        let Some(incident) = self.fixed(40, self.first_hit()) else {
            return Answer::without_figure(Status::NotInRun, "the pool of 40 per CPU did not run");
        };
        let Some(delay) = &incident.run_delay_ms else {
            return Answer::without_figure(Status::NotMeasurable, "this kernel keeps no scheduler statistics");
        };
        let text = format!("{} per request with {} threads", ms_with_interval(delay), incident.key.pool_threads);
        figure(text, delay, Self::enough(&[incident]), target)
    }

    /// C10: the fixed pools whose p99 cannot be told from the lowest, in threads per CPU,
    /// against the rule's 4-8 per CPU: all inside reproduces it, all outside differs.
    fn best_size(&self, target: Target) -> Answer {
        let pools: Vec<&PoolSummary> = self
            .summaries
            .iter()
            .filter(|s| s.key.variant == Variant::Fixed && s.key.hit_rate == self.first_hit())
            .collect();
        let Some(best) = pools.iter().copied().min_by(|a, b| a.p99_ms.median.total_cmp(&b.p99_ms.median)) else {
            return Answer::not_in_run(EXPERIMENT);
        };
        let per_cpu = |s: &PoolSummary| s.key.pool_threads as f64 / s.cpus.max(1) as f64;
        let tied: Vec<f64> = pools.iter().filter(|s| s.p99_ms.overlaps(&best.p99_ms)).map(|s| per_cpu(s)).collect();
        let (low, high) = tied.iter().fold((f64::INFINITY, 0.0_f64), |(l, h), &v| (l.min(v), h.max(v)));
        let figure = format!(
            "lowest p99 at {} threads ({} per CPU); tied with it: {} to {} per CPU",
            best.key.pool_threads,
            format::short_number(per_cpu(best)),
            format::short_number(low),
            format::short_number(high)
        );
        let judged = if !Self::enough(&pools) {
            Judgement::too_few_trials()
        } else if tied.len() == pools.len() {
            Judgement::new(Status::NotBeyondNoise, "every pool size tied for the lowest p99")
        } else if low >= target.low && high <= target.high {
            Judgement::new(Status::Reproduced, "")
        } else if high < target.low || low > target.high {
            Judgement::new(Status::Differs, "the best pools lie outside the rule's 4-8 per CPU")
        } else {
            Judgement::new(Status::NotBeyondNoise, "the tied pools reach past the rule's 4-8 per CPU")
        };
        Answer::judged(figure, judged)
    }

    /// C17 (capacity), C18 (memory), C19 (blocking), C20 (carrier threads).
    fn virtual_threads(&self, id: &str, context: &Context) -> Answer {
        let Some(tasks) = self.variant(Variant::Async) else {
            return Answer::without_figure(Status::NotInRun, "the async variant did not run");
        };
        match id {
            "C17" => {
                let Some(incident) = self.fixed(40, self.first_hit()) else {
                    return Answer::without_figure(Status::NotInRun, "the pool of 40 per CPU did not run");
                };
                let ratio = Ratio::between(&tasks.capacity_per_s, &incident.capacity_per_s);
                let figure = format!(
                    "capacity {:.0} -> {:.0}/s ({}), {} threads -> async",
                    incident.capacity_per_s.median,
                    tasks.capacity_per_s.median,
                    ratio_text(&ratio),
                    incident.key.pool_threads
                );
                effect(figure, &ratio, Self::enough(&[tasks, incident]), context.target_or(Target::point(3.92)))
            }
            "C18" => match memory_figures(&self.summaries) {
                Some(m) => {
                    // Memory in use (resident), scaled to the article's 320 threads on 8 carriers.
                    let extra = m.pool_threads.saturating_sub(m.async_workers).max(1) as f64;
                    let saved_mb = (m.pool_rss_bytes as f64 - m.async_rss_bytes as f64) / 1e6;
                    let scaled = saved_mb * 312.0 / extra;
                    let figure = format!(
                        "resident {} -> {} ({} MB at the article's 320 threads); reserved {} -> {}",
                        format::bytes(m.pool_rss_bytes),
                        format::bytes(m.async_rss_bytes),
                        format::number(scaled),
                        format::bytes(m.pool_reserved_bytes),
                        format::bytes(m.async_reserved_bytes)
                    );
                    let about = context.target_or(Target::point(300.0));
                    let target = Target::range(about.low * (1.0 - ABOUT), about.high * (1.0 + ABOUT));
                    let mut judged = Judgement::figure(scaled, scaled, target);
                    if judged.status == Status::Differs && scaled < target.low {
                        judged.why = "below the article's: Linux commits a thread's stack only as it is touched".into();
                    }
                    Answer::judged(figure, judged)
                }
                None => Answer::without_figure(Status::NotMeasurable, "no VmSize here, or a run saved before it"),
            },
            "C19" => match blocking_figures(&self.summaries) {
                Some(b) => {
                    let figure = format!(
                        "capacity {:.0} on timers, {:.0} blocking ({} workers / (wait + work) = {:.0})",
                        b.timers_per_s, b.blocking_per_s, b.workers, b.predicted_per_s
                    );
                    effect(figure, &b.timers_over_blocking, b.judged, DIRECTION)
                }
                None => Answer::without_figure(Status::NotInRun, "the async-blocking variant did not run"),
            },
            _ => Answer::set_up(
                format!("{} workers on {} CPUs", tasks.key.pool_threads, self.cpus),
                "tokio's worker count is its config (one per CPU by default, as the JDK's carriers)",
            ),
        }
    }
}

/// "12 ms (4.04 ms–15 ms)".
fn ms_with_interval(summary: &crate::stats::Summary) -> String {
    format!("{} ({}–{})", format_ms(summary.median), format_ms(summary.median_low), format_ms(summary.median_high))
}
