//! The locks section's tables: the article's numbers, the five claims beside each machine
//! (Rust and the JVM), every Rust cell and every JVM cell.

use super::Answered;
use crate::format::{self, percent};
use crate::locks::LocksReference;
use crate::locks::{article_range, java_answer, judge, sleep_rate, CellSummary, Claim, JavaCell, Status};
use crate::stats::Ratio;
use crate::view::{Cell, Column, Table};

/// Table captions (a machine's label follows the per-machine ones).
const NUMBERS_CAPTION: &str = "The article's lock numbers";
const CLAIMS_CAPTION: &str = "The article's lock claims beside this machine";
const CELLS_CAPTION: &str = "Every lock cell";
const JAVA_CAPTION: &str = "The JVM's lock cells";

/// The article's numbers as printed, one per row.
pub(crate) fn numbers(article: &[LocksReference]) -> Table {
    let rows = article
        .iter()
        .map(|r| {
            vec![
                Cell::from(r.claim.as_str()),
                Cell::from(format::short_number(r.value)),
                Cell::from(r.unit.as_str()),
                Cell::from(r.what.as_str()),
            ]
        })
        .collect();
    Table {
        id: "numbers",
        caption: NUMBERS_CAPTION.into(),
        columns: vec![Column::text("claim"), Column::number("value"), Column::text("unit"), Column::text("what")],
        rows,
    }
}

/// The JVM's figure against the article's, by the same rule as the Rust figure's.
pub(crate) fn java_status(claim: Claim, figure: &Ratio, range: &crate::locks::ArticleRange) -> Status {
    judge(figure, range, claim.is_ratio())
}

/// One row per claim: the article's figure, then per machine its Rust figure, the JVM's,
/// and the Rust figure's status (the claims section judges from the JVM's where it ran).
pub(crate) fn claims(answered: &[Answered], article: &[LocksReference]) -> Table {
    let mut columns = vec![Column::text("claim"), Column::text("what"), Column::text("article")];
    for machine in answered {
        for label in ["this machine (Rust)", "JVM here", "Rust's status"] {
            columns.push(Column::text(label).in_group(machine.label));
        }
    }
    let rows = Claim::ALL
        .iter()
        .map(|&claim| {
            let range = article_range(article, claim);
            let mut row = vec![
                Cell::from(claim.id()),
                Cell::from(claim.what()),
                range.map_or_else(Cell::missing, |r| Cell::from(r.printed)),
            ];
            for machine in answered {
                let found = machine.claims.iter().find(|c| c.claim == claim);
                row.push(found.map_or_else(Cell::missing, |c| Cell::from(c.figure.clone())));
                row.push(java_cell(machine.java.as_deref(), claim, range.as_ref()));
                row.push(found.map_or_else(Cell::missing, |c| Cell::from(c.status.label())));
            }
            row
        })
        .collect();
    Table { id: "claims", caption: CLAIMS_CAPTION.into(), columns, rows }
}

fn java_cell(java: Option<&[JavaCell]>, claim: Claim, range: Option<&crate::locks::ArticleRange>) -> Cell {
    let Some(java) = java else { return Cell::from("not run (no JDK on PATH, or --no-java)") };
    match (java_answer(java, claim), claim) {
        (Some((figure, words)), _) => match range {
            Some(range) => Cell::from(format!("{words}: {}", java_status(claim, &figure, range).label())),
            None => Cell::from(words),
        },
        (None, Claim::KernelTrip) => Cell::from("n/a: the JVM counts no context switches per thread"),
        (None, _) => Cell::missing(),
    }
}

/// Every Rust cell of one machine.
pub(crate) fn cells(machine: &Answered) -> Table {
    let labels = [
        "ns per op",
        "interval",
        "ops per s",
        "reads per s",
        "sleeps per op",
        "busiest thread",
        "blocked",
        "torn retries",
        "evidence",
    ];
    let mut columns =
        vec![Column::text("case"), Column::text("primitive"), Column::number("threads"), Column::number("reads")];
    columns.extend(labels.iter().map(|label| Column::number(*label)));
    let rows = machine.summaries.iter().map(cell_row).collect();
    Table { id: "cells", caption: format!("{CELLS_CAPTION}, {}", machine.label), columns, rows }
}

fn cell_row(s: &CellSummary) -> Vec<Cell> {
    let pinned = if s.all_pinned { "" } else { " (not pinned)" };
    vec![
        Cell::from(s.case.name()),
        Cell::from(s.primitive.label()),
        Cell::from(format!("{}{pinned}", s.threads)),
        Cell::from(percent(s.read_share)),
        Cell::noisy(format::number(s.ns_per_op.median), s.ns_per_op.is_noisy()),
        Cell::from(format::interval(s.ns_per_op.median_low, s.ns_per_op.median_high)),
        Cell::from(format::number(s.ops_per_sec.median)),
        if s.reads == 0 { Cell::missing() } else { Cell::from(format::number(s.reads_per_sec.median)) },
        s.handoffs_per_op.as_ref().map_or_else(|| Cell::from("unknown"), |h| Cell::from(sleep_rate(h.median))),
        Cell::from(percent(s.max_share.median)),
        Cell::from(percent(s.blocked_share.median)),
        Cell::from(s.torn_retries.to_string()),
        Cell::evidence(&s.evidence, &s.ns_per_op),
    ]
}

/// Every JVM cell of one machine, with the guard each uses against the JIT.
pub(crate) fn java(label: &str, java: &[JavaCell]) -> Table {
    let mut columns =
        vec![Column::text("case"), Column::text("primitive"), Column::number("threads"), Column::number("reads")];
    columns
        .extend(["ns per op", "interval", "ops per s", "reads per s", "busiest thread", "blocked"].map(Column::number));
    columns.push(Column::text("guard against the JIT"));
    let rows = java
        .iter()
        .map(|c| {
            vec![
                Cell::from(c.case.name()),
                Cell::from(c.primitive.label()),
                Cell::from(c.threads.to_string()),
                Cell::from(percent(c.read_share)),
                Cell::noisy(format::number(c.ns_per_op.median), c.ns_per_op.is_noisy()),
                Cell::from(format::interval(c.ns_per_op.median_low, c.ns_per_op.median_high)),
                Cell::from(format::number(c.ops_per_sec.median)),
                if c.reads_per_sec.max > 0.0 {
                    Cell::from(format::number(c.reads_per_sec.median))
                } else {
                    Cell::missing()
                },
                Cell::from(percent(c.max_share.median)),
                Cell::from(percent(c.blocked_share.median)),
                Cell::from(c.guard.as_str()),
            ]
        })
        .collect();
    let version = java.first().map_or(String::new(), |c| format!(" ({})", c.java_version));
    Table { id: "java", caption: format!("{JAVA_CAPTION}, {label}{version}"), columns, rows }
}
