//! One article's headline as a figure: its claim's answer turned into the plain data the
//! headline chart draws ([`crate::chart::headline`]).

use super::HeadlineRow;
use crate::chart::headline::{headline_chart, HeadlineMark};
use crate::format;
use crate::judgement::Status;
use crate::present::claims::Answer;
use crate::reference::ClaimReference;
use crate::view::{Figure, NotDrawn};

/// `headline`'s figure: the article's figure (its claim's range) as a dashed line, this
/// machine's estimate as a dot and its interval, the status in words; `machine` names the
/// run when two are compared.
pub(super) fn headline_figure(
    headline: &HeadlineRow,
    claims: &[ClaimReference],
    answer: Option<&Answer>,
    machine: Option<&str>,
) -> Result<Figure, NotDrawn> {
    let title = match machine {
        Some(machine) => format!("{} ({machine})", headline.name),
        None => headline.name.to_string(),
    };
    let claim = claims.iter().find(|claim| claim.id == headline.claim);
    let (Some(claim), Some(range)) = (claim, claim.and_then(ClaimReference::range)) else {
        return Err(NotDrawn::because(title, format!("claim {} has no figure in the reference data", headline.claim)));
    };
    let printed = claim.low.clone().unwrap_or_else(|| format::short_number(range.0));
    let status = answer.map_or(Status::NotMeasurable, |answer| answer.status);
    let estimate = answer.and_then(|answer| answer.estimate.as_ref());
    let machine_label = match estimate {
        Some(estimate) => format!("this machine, {}", estimate.text()),
        None => format!("no figure here: {}", status.label()),
    };
    let mark = HeadlineMark {
        title: title.clone(),
        article: (range.0, if range.1.is_finite() { range.1 } else { range.0 }),
        article_label: format!("article, {}: {printed}x", headline.setting),
        machine: estimate.map(|estimate| estimate.ratio),
        machine_label: machine_label.clone(),
        status,
    };
    let chart = headline_chart(&mark).map_err(|error| NotDrawn::new(title.clone(), error))?;
    Ok(Figure {
        id: headline.claim,
        text: format!(
            "{title}: the article's {printed}x ({}, dashed line) against {machine_label} (dot and interval, log \
             scale): {}.",
            headline.setting,
            status.label()
        ),
        title,
        svg: chart.svg,
        legend: chart.legend,
        caption: format!("The article: {}.", headline.figure),
    })
}
