//! Article C's claims (thread pools) from the pool experiment and the cache-refill one. The
//! article's pool sizes are scaled per CPU: its incident (320 threads on 8 cores) is 40 per
//! CPU, its fix (64) 8 per CPU; each claim reads the first hit rate of the run unless it
//! names another.

use super::{direction, judged, ratio_text, within, Answer, Context, Status};
use crate::format;
use crate::pool::virtual_threads::{blocking_figures, memory_figures};
use crate::pool::{format_ms, summarize, PoolSummary, Row, Variant, EXPERIMENT, MIN_TRIALS_FOR_CLAIM};
use crate::refill::{article_case, Standing};
use crate::stats::Ratio;

pub fn answer(id: &str, context: &Context, range: Option<(f64, f64)>) -> Answer {
    if id == "C8" {
        return refill(context, range.unwrap_or((80.0, 120.0)));
    }
    if id == "C21" {
        return Answer::without_figure(
            Status::NotMeasurable,
            "a way of reasoning, not a number: the pool section walks it",
        );
    }
    let Some(rows) = context.run.rows::<Row>() else { return Answer::not_in_run(EXPERIMENT) };
    let cases = Cases { summaries: summarize(rows), cpus: context.cpus as u64 };
    match id {
        "C1" | "C2" | "C9" => cases.incident_against_fix(id),
        "C3" => cases.formula(),
        "C4" => cases.bimodal(),
        "C5" => cases.more_hits(range.unwrap_or((300.0, f64::INFINITY))),
        "C6" | "C7" => cases.switches(id, range),
        "C10" => cases.best_size(range.unwrap_or((4.0, 8.0))),
        _ => cases.virtual_threads(id),
    }
}

struct Cases {
    summaries: Vec<PoolSummary>,
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

    /// C1 (p99), C2 (what the fix cost in capacity), C9 (run-queue delay): 40 per CPU
    /// against 8 per CPU.
    fn incident_against_fix(&self, id: &str) -> Answer {
        let (Some(incident), Some(fix)) = (self.fixed(40, self.first_hit()), self.fixed(8, self.first_hit())) else {
            return Answer::without_figure(Status::NotInRun, "the pools of 40 and 8 per CPU did not both run");
        };
        let sizes = format!("{} -> {} threads", incident.key.pool_threads, fix.key.pool_threads);
        let enough = Self::enough(&[incident, fix]);
        match id {
            "C1" => {
                let ratio = Ratio::between(&incident.p99_ms, &fix.p99_ms);
                let figure = format!(
                    "P99 {} with {} threads ({} with {}), CPU {} busy, {:.0} switches/s",
                    format_ms(incident.p99_ms.median),
                    incident.key.pool_threads,
                    format_ms(fix.p99_ms.median),
                    fix.key.pool_threads,
                    format::percent(incident.cpu_share.median),
                    incident.switches_per_s.median
                );
                Answer::new(figure, direction(&ratio, enough), "judged by the incident pool's p99 over the fix's")
            }
            "C2" => {
                let kept = Ratio::between(&fix.capacity_per_s, &incident.capacity_per_s);
                let better = Ratio::between(&incident.p99_ms, &fix.p99_ms);
                let figure = format!(
                    "{sizes}: P99 {} -> {}, capacity {} ({:.0} -> {:.0}/s)",
                    format_ms(incident.p99_ms.median),
                    format_ms(fix.p99_ms.median),
                    ratio_text(&kept),
                    incident.capacity_per_s.median,
                    fix.capacity_per_s.median
                );
                let status = match direction(&better, enough) {
                    Status::Reproduced if kept.high >= 0.9 => Status::Reproduced,
                    Status::Reproduced => Status::Differs,
                    other => other,
                };
                let why =
                    if status == Status::Differs { "the smaller pool's p99 or capacity did not hold" } else { "" };
                Answer::new(figure, status, why)
            }
            _ => match (&incident.run_delay_ms, &fix.run_delay_ms) {
                (Some(big), Some(small)) => {
                    let figure = format!(
                        "{} per request with {} threads, {} with {}",
                        format_ms(big.median),
                        incident.key.pool_threads,
                        format_ms(small.median),
                        fix.key.pool_threads
                    );
                    let status = direction(&Ratio::between(big, small), enough);
                    Answer::new(figure, status, "judged by the delay rising with the pool")
                }
                _ => Answer::without_figure(Status::NotMeasurable, "this kernel keeps no scheduler statistics"),
            },
        }
    }

    /// Goetz's formula with the article's inputs on this machine's CPUs.
    fn formula(&self) -> Answer {
        let Some(first) = self.summaries.first() else { return Answer::not_in_run(EXPERIMENT) };
        let threads = first.article_formula_threads;
        let figure = format!("{} x 0.8 x (1 + 49/1) = {threads}: {} per CPU", self.cpus, threads / self.cpus.max(1));
        let status = if threads == 40 * self.cpus { Status::Reproduced } else { Status::Differs };
        Answer::new(figure, status, "")
    }

    /// Misses' p99 against hits' at the article's fix.
    fn bimodal(&self) -> Answer {
        let case = self.fixed(8, self.first_hit()).or_else(|| self.summaries.first());
        let Some(case) = case else { return Answer::not_in_run(EXPERIMENT) };
        let ratio = Ratio::between(&case.miss_p99_ms, &case.hit_p99_ms);
        let figure = format!(
            "hits' p99 {}, misses' {} ({} threads)",
            format_ms(case.hit_p99_ms.median),
            format_ms(case.miss_p99_ms.median),
            case.key.pool_threads
        );
        judged(figure, &ratio, Self::enough(&[case]))
    }

    /// The incident pool at 97% hits.
    fn more_hits(&self, range: (f64, f64)) -> Answer {
        let Some(case) = self.fixed(40, 0.97) else {
            return Answer::without_figure(Status::NotInRun, "97% hits did not run (the default profile runs it)");
        };
        let p99 = &case.p99_ms;
        let figure = format!(
            "P99 {} ({}–{}), {} threads",
            format_ms(p99.median),
            format_ms(p99.median_low),
            format_ms(p99.median_high),
            case.key.pool_threads
        );
        let (status, side) = within((p99.median_low, p99.median_high), range);
        Answer::new(figure, if Self::enough(&[case]) { status } else { Status::NotBeyondNoise }, side)
    }

    /// C6: the probe's cost of one switch; C7: what 480 000 of them a second would eat.
    fn switches(&self, id: &str, range: Option<(f64, f64)>) -> Answer {
        let Some(first) = self.summaries.first() else { return Answer::not_in_run(EXPERIMENT) };
        let cost_us = first.switch_cost_ns / 1e3;
        let (value, figure, fallback) = if id == "C6" {
            (cost_us, format!("{cost_us:.1} us (probe, median of 5)"), (3.0, 5.0))
        } else {
            let cores = 480_000.0 * first.switch_cost_ns / 1e9;
            (cores, format!("480 000/s x {cost_us:.1} us = {cores:.2} cores"), (1.4, 2.4))
        };
        let (status, side) = within((value, value), range.unwrap_or(fallback));
        Answer::new(figure, status, side)
    }

    /// The fixed pool with the lowest p99, in threads per CPU.
    fn best_size(&self, range: (f64, f64)) -> Answer {
        let best = self
            .summaries
            .iter()
            .filter(|s| s.key.variant == Variant::Fixed && s.key.hit_rate == self.first_hit())
            .min_by(|a, b| a.p99_ms.median.total_cmp(&b.p99_ms.median));
        let Some(best) = best else { return Answer::not_in_run(EXPERIMENT) };
        let per_cpu = best.key.pool_threads as f64 / self.cpus.max(1) as f64;
        let figure =
            format!("lowest p99 at {} threads ({} per CPU)", best.key.pool_threads, format::short_number(per_cpu));
        // The rule's point is an upper bound: far fewer threads than the formula's.
        let (status, why) =
            if per_cpu <= range.1 { (Status::Reproduced, "") } else { (Status::Differs, "more threads than the rule") };
        Answer::new(figure, status, why)
    }

    /// C17 (capacity), C18 (memory), C19 (blocking), C20 (carrier threads).
    fn virtual_threads(&self, id: &str) -> Answer {
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
                judged(figure, &ratio, Self::enough(&[tasks, incident]))
            }
            "C18" => match memory_figures(&self.summaries) {
                Some(m) => {
                    let figure = format!(
                        "reserved {} -> {}, committed (RSS) {} -> {}",
                        format::bytes(m.pool_reserved_bytes),
                        format::bytes(m.async_reserved_bytes),
                        format::bytes(m.pool_rss_bytes),
                        format::bytes(m.async_rss_bytes)
                    );
                    if m.pool_reserved_bytes > m.async_reserved_bytes + m.extra_stacks_bytes / 2 {
                        Answer::new(
                            figure,
                            Status::Reproduced,
                            "in address space reserved; Linux commits stacks lazily",
                        )
                    } else {
                        Answer::new(figure, Status::Differs, "the threads reserved no more than the tasks")
                    }
                }
                None => Answer::without_figure(Status::NotMeasurable, "no VmSize here, or a run saved before it"),
            },
            "C19" => match blocking_figures(&self.summaries) {
                Some(b) => {
                    let figure = format!(
                        "capacity {:.0} on timers, {:.0} blocking ({} workers / (wait + work) = {:.0})",
                        b.timers_per_s, b.blocking_per_s, b.workers, b.predicted_per_s
                    );
                    judged(figure, &b.timers_over_blocking, b.judged)
                }
                None => Answer::without_figure(Status::NotInRun, "the async-blocking variant did not run"),
            },
            _ => {
                let figure = format!("{} workers on {} CPUs", tasks.key.pool_threads, self.cpus);
                let status = if tasks.key.pool_threads == self.cpus { Status::Reproduced } else { Status::Differs };
                Answer::new(figure, status, "tokio's default, as the JDK's")
            }
        }
    }
}

/// C8: the cost per line after a switch that sent the set back to memory.
fn refill(context: &Context, range: (f64, f64)) -> Answer {
    let Some(rows) = context.run.rows::<crate::refill::Row>() else {
        return Answer::not_in_run(crate::refill::EXPERIMENT);
    };
    let cases = crate::refill::summarize(rows);
    let Some(case) = article_case(&cases) else { return Answer::not_in_run(crate::refill::EXPERIMENT) };
    let after = &case.switched_ns_per_line;
    let figure = format!(
        "{} ns per line ({}) after the other thread wrote {} ({} ns warm)",
        format::number(after.median),
        format::interval(after.median_low, after.median_high),
        format::bytes(case.evict_bytes),
        format::number(case.warm_ns_per_line.median)
    );
    match Standing::of(after, range) {
        Standing::Within => Answer::new(figure, Status::Reproduced, ""),
        Standing::Below => Answer::new(figure, Status::Differs, "below the article's"),
        Standing::Above => Answer::new(figure, Status::Differs, "above the article's"),
        Standing::TooFewTrials => Answer::new(figure, Status::NotBeyondNoise, "too few trials"),
    }
}
