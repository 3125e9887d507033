//! The 42 claims at a glance: one tile per claim, grouped by article, in its status's
//! colour and letter ([`crate::chart::status_color`], [`Status::letter`]), each linking to
//! its row of the claims table; the tally beside it is the claims section's own.

use super::Article;
use crate::chart::{hex, ink_on, status_color};
use crate::judgement::Status;
use crate::present::claims::{anchor, tally, Answer};
use crate::reference::ClaimReference;
use crate::view::{Strip, StripGroup, StripKey, Tile};

/// The strip of `claims` as `answers` (in the same order) judge them; a group's label is its
/// article's name where `articles` holds it ("A. False sharing"), else its letter.
pub(super) fn claims_strip(claims: &[ClaimReference], answers: &[Answer], articles: &[Article]) -> Strip {
    let mut groups: Vec<StripGroup> = Vec::new();
    for (claim, answer) in claims.iter().zip(answers) {
        let tile = tile(&claim.id, answer.status);
        match groups.last_mut() {
            Some(group) if group.label == label(&claim.article, articles) => group.tiles.push(tile),
            _ => groups.push(StripGroup { label: label(&claim.article, articles), tiles: vec![tile] }),
        }
    }
    let judged = &answers[..claims.len().min(answers.len())];
    let count = |kind: Status| judged.iter().filter(|answer| answer.status.same_kind(kind)).count();
    let key = Status::ALL
        .iter()
        .filter(|&&kind| count(kind) > 0)
        .map(|&kind| {
            let color = status_color(kind);
            StripKey {
                letter: kind.letter(),
                status: kind.kind().to_string(),
                counted: kind.counted(count(kind)),
                color: hex(color),
                ink: hex(ink_on(color)),
            }
        })
        .collect();
    Strip { groups, tally: tally(judged), items: judged.len(), key }
}

fn tile(id: &str, status: Status) -> Tile {
    let color = status_color(status);
    Tile {
        id: id.to_string(),
        letter: status.letter(),
        status: status.label(),
        link: format!("#{}", anchor(id)),
        color: hex(color),
        ink: hex(ink_on(color)),
    }
}

fn label(article: &str, articles: &[Article]) -> String {
    let prefix = format!("{article}.");
    let named = articles.iter().find(|a| a.headline.name.starts_with(&prefix));
    named.map_or_else(|| article.to_string(), |a| a.headline.name.to_string())
}
