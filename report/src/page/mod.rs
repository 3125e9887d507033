//! The standalone HTML page: the sections of the lib's presentation model as views of
//! already-formatted strings, filled into templates compiled into the binary. Templates
//! hold nothing beyond `if`/`for`; only SVG and the article's prose (the lib's compiled-in
//! markdown, escaped and then given its emphasis here) are marked safe.

mod environment;
mod section;

use anyhow::{Context, Result};
use contention::present::Section;
use contention::runs::Run;
use minijinja::{context, AutoEscape, Environment, UndefinedBehavior};
use serde::Serialize;

use contention::present::headline::HEADLINE;
use contention::present::room::{DIFFERENCE, ROOM};
use section::SectionView;

/// One line of the summary at the top of the page.
#[derive(Debug, Serialize)]
struct SummaryLine {
    experiment: &'static str,
    anchor: &'static str,
    finding: String,
}

#[derive(Debug, Serialize)]
struct PageView {
    title: String,
    generated_utc: String,
    comparing: bool,
    /// Charts on the page, so the browser check can tell a missing one.
    chart_count: usize,
    machines: Vec<String>,
    /// Runs that could not be read, each with why.
    skipped: Vec<String>,
    summary: Vec<SummaryLine>,
    /// The articles' headlines on this machine (one or two runs), first on the page.
    headline: Option<SectionView>,
    /// The room (more than two machines) or the two machines' difference.
    across: Option<SectionView>,
    /// The page carries the sorting script (the room table is on it).
    sortable: bool,
    /// Every experiment's section, in the registry's order.
    sections: Vec<SectionView>,
    environment: environment::EnvironmentSection,
}

/// "Contention Lab: host", or how many machines are compared.
pub fn title(runs: &[Run]) -> String {
    match runs {
        [] => "Contention Lab: no run".into(),
        [only] => format!("Contention Lab: {}", only.manifest.machine.hostname),
        many => format!("Contention Lab: {} machines compared", many.len()),
    }
}

/// Renders the page for one run, or several side by side, from their sections.
pub fn render(runs: &[Run], skipped: &[String], sections: &[Section], generated_utc: String) -> Result<String> {
    let across = sections.iter().find(|s| [ROOM, DIFFERENCE].contains(&s.experiment)).map(|section| {
        let mut view = SectionView::of(section);
        for table in &mut view.tables {
            table.sortable = section.experiment == ROOM;
        }
        view
    });
    let experiments_only = |section: &&Section| ![ROOM, DIFFERENCE, HEADLINE].contains(&section.experiment);
    let view = PageView {
        headline: sections.iter().find(|s| s.experiment == HEADLINE).map(SectionView::of),
        sortable: across.as_ref().is_some_and(|view| view.experiment == ROOM),
        across,
        title: title(runs),
        generated_utc,
        comparing: runs.len() > 1,
        chart_count: sections.iter().map(|section| section.figures.len()).sum(),
        machines: runs.iter().map(Run::label).collect(),
        skipped: skipped.to_vec(),
        summary: sections
            .iter()
            .filter(|section| section.experiment != HEADLINE)
            .map(|section| SummaryLine {
                experiment: section.title,
                anchor: section.experiment,
                finding: section.summary(),
            })
            .collect(),
        sections: sections.iter().filter(experiments_only).map(SectionView::of).collect(),
        environment: environment::section(runs),
    };
    templates()?.get_template("report.html")?.render(context! { page => view }).context("rendering the report")
}

/// Every template of the report, strict about undefined names, escaping HTML (the room's
/// pages, the class page and the live one, fill them too).
pub(crate) fn templates() -> Result<Environment<'static>> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_auto_escape_callback(|_| AutoEscape::Html);
    for (name, source) in TEMPLATES {
        env.add_template(name, source).with_context(|| format!("template {name}"))?;
    }
    Ok(env)
}

const TEMPLATES: &[(&str, &str)] = &[
    ("report.html", include_str!("../../templates/report.html")),
    ("style.css", include_str!("../../templates/style.css")),
    ("section.html", include_str!("../../templates/section.html")),
    ("table.html", include_str!("../../templates/table.html")),
    ("headline.html", include_str!("../../templates/headline.html")),
    ("strip.html", include_str!("../../templates/strip.html")),
    ("room.html", include_str!("../../templates/room.html")),
    ("environment.html", include_str!("../../templates/environment.html")),
    ("live.html", include_str!("../../templates/live.html")),
    ("live_runs.html", include_str!("../../templates/live_runs.html")),
    ("projector_part.html", include_str!("../../templates/projector_part.html")),
    ("class.html", include_str!("../../templates/class.html")),
    ("class_script.html", include_str!("../../templates/class_script.html")),
    ("projector.html", include_str!("../../templates/projector.html")),
    ("projector_slide.html", include_str!("../../templates/projector_slide.html")),
    ("challenge_slide.html", include_str!("../../templates/challenge_slide.html")),
];
