//! The view: what a reader is shown of an experiment (a [`Section`] of findings, figures,
//! tables and notes), as plain values every renderer reads. A leaf: it imports nothing of the
//! lab but the leaves that format its cells, so an experiment's presentation, the registry
//! and the presentation layer can all build these values without an import circle.

pub mod legend;

use serde::Serialize;
use thiserror::Error;

use crate::evidence::Evidence;
use crate::stats::Summary;
pub use legend::{Dash, LegendEntry, Marker, SeriesStyle};

/// A figure that cannot be drawn from a run's rows (nothing to draw, no positive value
/// for a log axis): the figure's title and why, which its section shows as a note.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("The figure \"{figure}\" is not drawn: {why}.")]
pub struct NotDrawn {
    pub figure: String,
    pub why: String,
}

impl NotDrawn {
    /// `figure` was not drawn, for the reason `why` (in words the reader knows the rows by).
    pub fn because(figure: impl Into<String>, why: impl Into<String>) -> Self {
        Self { figure: figure.into(), why: why.into() }
    }
}

/// One experiment as shown to a reader: the same value behind every renderer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Section {
    /// The experiment's name (e.g. `contention::stride::EXPERIMENT`), also its anchor.
    pub experiment: &'static str,
    pub title: &'static str,
    /// The article's story in markdown blocks (the presentation's `prose::blocks` of the experiment's prose); empty for sections
    /// that are not an experiment's (the room).
    #[serde(skip)]
    pub prose: Vec<String>,
    /// The machines (run labels) that measured it, in order; empty when none did.
    pub machines: Vec<String>,
    /// What the article reported, in sentences computed from its reference data.
    pub article: Vec<String>,
    /// The article's numbers as tables, shown whether or not this section was measured.
    pub article_tables: Vec<Table>,
    /// Sentences computed from the data, one or more per machine.
    pub findings: Vec<Finding>,
    /// One short sentence per machine for a summary, when the first finding is too long.
    pub headlines: Vec<Finding>,
    pub figures: Vec<Figure>,
    pub tables: Vec<Table>,
    /// What a table's words mean, what the counters recorded, the config measured with.
    pub notes: Vec<Finding>,
    /// What became of the experiment in a saved run where it is not simply complete
    /// (recovered, interrupted, unreadable: the run reader's `ExperimentNote`), shown whether
    /// or not it was measured.
    pub status: Vec<Finding>,
    /// Many statuses at a glance (the claims' strip), shown before the figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strip: Option<Strip>,
    /// The rules one click away (the status legend, the verdict's reasons): a page folds
    /// each under its summary; markdown, JSON and text carry it open.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<Details>,
}

impl Section {
    /// An empty section for `experiment`: nothing measured yet.
    pub fn new(experiment: &'static str, title: &'static str) -> Self {
        Self {
            experiment,
            title,
            prose: Vec::new(),
            machines: Vec::new(),
            article: Vec::new(),
            article_tables: Vec::new(),
            findings: Vec::new(),
            headlines: Vec::new(),
            figures: Vec::new(),
            tables: Vec::new(),
            notes: Vec::new(),
            status: Vec::new(),
            strip: None,
            details: Vec::new(),
        }
    }

    /// The table with this id (the first machine's, when each machine has one).
    pub fn table(&self, id: &str) -> Option<&Table> {
        self.tables.iter().find(|table| table.id == id)
    }

    /// The figure with this id (the first machine's, when each machine has one).
    pub fn figure(&self, id: &str) -> Option<&Figure> {
        self.figures.iter().find(|figure| figure.id == id)
    }

    /// Adds `figure`, or when its chart cannot be drawn from the rows, a note in its place
    /// that names it and says why: one such chart never takes its section, or the page, down.
    pub fn add_figure(&mut self, figure: Result<Figure, NotDrawn>) {
        match figure {
            Ok(figure) => self.figures.push(figure),
            Err(not_drawn) => self.notes.push(Finding::general(not_drawn.to_string())),
        }
    }

    pub fn measured(&self) -> bool {
        !self.machines.is_empty()
    }

    /// Several machines side by side: renderers then name the machine of each sentence.
    pub fn comparing(&self) -> bool {
        self.machines.len() > 1
    }

    /// The section's line in a summary: the one machine's headline (or first finding), or
    /// each machine's prefixed by its label; when none measured it, its status (e.g.
    /// interrupted), or "Not measured.".
    pub fn summary(&self) -> String {
        let mut lines: Vec<String> = Vec::new();
        let mut seen: Vec<&Option<String>> = Vec::new();
        let sentences = if self.headlines.is_empty() { &self.findings } else { &self.headlines };
        for finding in sentences {
            if seen.contains(&&finding.machine) {
                continue;
            }
            seen.push(&finding.machine);
            lines.push(match (&finding.machine, self.comparing()) {
                (Some(machine), true) => format!("{machine}: {}", finding.text),
                _ => finding.text.clone(),
            });
        }
        if lines.is_empty() && !self.status.is_empty() {
            self.status.iter().map(|status| status.text.as_str()).collect::<Vec<_>>().join(" ")
        } else if lines.is_empty() {
            "Not measured.".into()
        } else {
            lines.join(" ")
        }
    }
}

/// A sentence, and the machine it is about (`None`: about the section as a whole).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub machine: Option<String>,
    pub text: String,
}

impl Finding {
    pub fn about(machine: &str, text: impl Into<String>) -> Self {
        Self { machine: Some(machine.to_string()), text: text.into() }
    }

    pub fn general(text: impl Into<String>) -> Self {
        Self { machine: None, text: text.into() }
    }
}

/// Text a reader opens when they want it: a summary line, and the paragraphs under it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Details {
    pub summary: String,
    pub paragraphs: Vec<String>,
}

/// Many statuses at a glance: one tile per item (a claim) in groups (an article), each a
/// letter and a colour, so it reads in black and white, linking to the item's row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Strip {
    pub groups: Vec<StripGroup>,
    /// How many of each status, in the same words as the table the tiles link to.
    pub tally: String,
    /// How many items the tiles stand for.
    pub items: usize,
    /// What each letter means and how many tiles carry it, one entry per letter shown.
    pub key: Vec<StripKey>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StripGroup {
    pub label: String,
    pub tiles: Vec<Tile>,
}

/// One item: its id, its status's letter and words, where its row is, its colours (hex).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tile {
    pub id: String,
    pub letter: char,
    pub status: String,
    pub link: String,
    pub color: String,
    pub ink: String,
}

/// A letter of the strip, the status it stands for, and how many tiles carry it ("4
/// reproduced"), in its tile's colours.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StripKey {
    pub letter: char,
    pub status: String,
    pub counted: String,
    pub color: String,
    pub ink: String,
}

impl Strip {
    /// One line per group: its label, then its tiles' letters ("A  CCNS..."), for a terminal.
    pub fn lines(&self) -> Vec<String> {
        let width = self.groups.iter().map(|group| group.label.chars().count()).max().unwrap_or(0);
        self.groups
            .iter()
            .map(|group| {
                let letters: String = group.tiles.iter().map(|tile| tile.letter).collect();
                format!("{:width$}  {letters}", group.label)
            })
            .collect()
    }

    /// "R reproduced, C needs more cores, ...": the letters shown, in words.
    pub fn key_text(&self) -> String {
        self.key.iter().map(|key| format!("{} {}", key.letter, key.status)).collect::<Vec<_>>().join(", ")
    }
}

/// A chart: a short name, its SVG, a caption, and a text stand-in that names what the
/// picture shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figure {
    /// How renderers and notebooks find it ([`Section::figure`]), unique within its section
    /// for one machine.
    #[serde(skip)]
    pub id: &'static str,
    pub title: String,
    pub svg: String,
    /// Each series as drawn (label, colour, dash, marker), in the legend's order.
    #[serde(skip)]
    pub legend: Vec<LegendEntry>,
    pub caption: String,
    pub text: String,
}

/// A table of formatted cells. A column may belong to a group (a machine, "article"), shown
/// as a header above its columns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// How renderers and notebooks find it ([`Section::table`]), unique within its section
    /// for one machine.
    #[serde(skip)]
    pub id: &'static str,
    pub caption: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Cell>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Column {
    pub label: String,
    pub group: Option<String>,
    /// Numbers: right-aligned.
    pub numeric: bool,
}

impl Column {
    pub fn text(label: impl Into<String>) -> Self {
        Self { label: label.into(), group: None, numeric: false }
    }

    pub fn number(label: impl Into<String>) -> Self {
        Self { label: label.into(), group: None, numeric: true }
    }

    pub fn in_group(mut self, group: &str) -> Self {
        self.group = Some(group.to_string());
        self
    }
}

/// One formatted value; `noisy` when its trials varied more than the noise threshold; a
/// link (a section's anchor, `#gc`) where the cell names another part of the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    pub text: String,
    pub noisy: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// The id of the cell's row, where other parts link to it (a claim's: `claim-A1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor: Option<String>,
}

impl Cell {
    pub fn noisy(text: impl Into<String>, noisy: bool) -> Self {
        Self { text: text.into(), noisy, link: None, anchor: None }
    }

    /// A cell that links to `anchor` (a section's, without the `#`).
    pub fn linked(text: impl Into<String>, anchor: &str) -> Self {
        Self { text: text.into(), noisy: false, link: Some(format!("#{anchor}")), anchor: None }
    }

    /// This cell, naming its row `anchor` (which a strip's tile links to).
    pub fn anchored(mut self, anchor: impl Into<String>) -> Self {
        self.anchor = Some(anchor.into());
        self
    }

    /// A cell with nothing to show: [`crate::format::NOT_AVAILABLE`].
    pub fn missing() -> Self {
        Self::from(crate::format::NOT_AVAILABLE)
    }

    /// What a case's claim stands on, beside it: trials, coverage and budget cuts (the
    /// [`crate::evidence`] rule), then the Tukey outliers among `summary`'s samples.
    pub fn evidence(evidence: &Evidence, summary: &Summary) -> Self {
        Self::from(format!("{}; outliers {}", evidence.describe(), summary.outliers.describe(summary.samples)))
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Self {
        Self { text, noisy: false, link: None, anchor: None }
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Self {
        Self::from(text.to_string())
    }
}
