//! A [`Section`] (or one of its parts) as notebook output: HTML for Jupyter with the
//! [`text`](super::text) rendering as the plain fallback.
//!
//! The lib never prints. A notebook's `show` helper prints [`Rich::evcxr_content`], which
//! evcxr turns into one rich output. evcxr keeps one block per MIME type per cell, so one
//! `Rich` per cell; [`Rich::then`] stacks several into one.

use std::fmt::Write as _;

use super::text::{self, group_spans};
use super::{Figure, Finding, Section, Strip, Table};
use crate::chart::svg_as_img_tag;

/// One displayable value: HTML for Jupyter, plain text for everything else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rich {
    pub html: String,
    pub plain: String,
}

impl Rich {
    /// The evcxr display protocol: one `text/html` and one `text/plain` block.
    pub fn evcxr_content(&self) -> String {
        format!(
            "EVCXR_BEGIN_CONTENT text/html\n{}\nEVCXR_END_CONTENT\nEVCXR_BEGIN_CONTENT text/plain\n{}\nEVCXR_END_CONTENT\n",
            self.html, self.plain
        )
    }

    /// This value followed by `next`, as one output (HTML stacked, text separated by a blank line).
    pub fn then(self, next: Rich) -> Rich {
        Rich { html: format!("{}\n{}", self.html, next.html), plain: format!("{}\n\n{}", self.plain, next.plain) }
    }
}

/// The whole section: its status in saved runs, findings, figures, tables, notes.
pub fn section(section: &Section) -> Rich {
    if !section.measured() {
        let unmeasured = [Finding::general(format!("{}: not measured.", section.title))];
        return findings(if section.status.is_empty() { &unmeasured } else { &section.status }, false);
    }
    let mut parts = Vec::new();
    if !section.status.is_empty() {
        parts.push(findings(&section.status, false));
    }
    parts.push(findings(&section.findings, section.comparing()));
    parts.extend(section.strip.as_ref().map(strip));
    parts.extend(section.figures.iter().map(figure));
    parts.extend(section.tables.iter().map(table));
    if !section.notes.is_empty() {
        let lines: Vec<String> = section.notes.iter().map(|n| text::sentence(n, section.comparing())).collect();
        let html = lines.iter().map(|line| format!("<p style=\"font-size:0.9em\">{}</p>", escape(line))).collect();
        parts.push(Rich { html, plain: lines.join("\n") });
    }
    parts.into_iter().reduce(Rich::then).unwrap_or_else(|| Rich { html: String::new(), plain: String::new() })
}

/// The article's story in the same words as the page and the markdown: the blocks of
/// [`super::prose::of`] an experiment, or a section's `prose`.
pub fn prose(blocks: &[String]) -> Rich {
    Rich {
        html: blocks.iter().map(|block| super::prose::html(block)).collect(),
        plain: blocks.iter().map(|block| text::prose_block(block)).collect::<Vec<_>>().join("\n\n"),
    }
}

/// Sentences computed from the data, each set apart from the prose around it.
pub fn findings(findings: &[Finding], comparing: bool) -> Rich {
    let html = findings
        .iter()
        .map(|finding| {
            format!(
                "<p style=\"border-left:4px solid #0072b2;padding:0.3em 0.8em;margin:0.5em 0\">{}</p>",
                escape(&text::sentence(finding, comparing))
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    Rich { html, plain: text::findings(findings, comparing) }
}

/// Sentences about the section as a whole (none names a machine), set apart like findings.
pub fn sentences(sentences: &[String]) -> Rich {
    let findings: Vec<Finding> = sentences.iter().map(Finding::general).collect();
    self::findings(&findings, false)
}

/// The claims' strip: per group its label and a row of lettered tiles in their status's
/// colours (each titled with its claim and status), then the tally and the letters' key.
pub fn strip(strip: &Strip) -> Rich {
    let tile = |letter: char, color: &str, ink: &str, title: &str| {
        format!(
            "<span title=\"{}\" style=\"display:inline-block;width:1.6em;height:1.6em;line-height:1.6em;margin:1px;\
             text-align:center;font:bold 0.85em monospace;background:{color};color:{ink}\">{letter}</span>",
            escape(title)
        )
    };
    let mut html = String::from("<div>");
    for group in &strip.groups {
        let tiles: String =
            group.tiles.iter().map(|t| tile(t.letter, &t.color, &t.ink, &format!("{}: {}", t.id, t.status))).collect();
        let _ = write!(
            html,
            "<div><span style=\"display:inline-block;min-width:13em\">{}</span>{tiles}</div>",
            escape(&group.label)
        );
    }
    let key: Vec<String> = strip
        .key
        .iter()
        .map(|k| format!("{} {}", tile(k.letter, &k.color, &k.ink, &k.status), escape(&k.counted)))
        .collect();
    let _ = write!(html, "<p><b>Of the articles' {} claims:</b> {}</p></div>", strip.items, key.join(" "));
    Rich { html, plain: text::strip(strip) }
}

/// A chart as an `<img>` (Jupyter hides raw SVG in untrusted notebooks) with its caption.
pub fn figure(figure: &Figure) -> Rich {
    Rich {
        html: format!(
            "<figure style=\"margin:0\">{}<figcaption>{}</figcaption></figure>",
            svg_as_img_tag(&figure.svg, &figure.caption),
            escape(&figure.caption)
        ),
        plain: text::figure(figure),
    }
}

/// A table with its group headers; noisy cells in orange.
pub fn table(table: &Table) -> Rich {
    let align = |numeric: bool| if numeric { "right" } else { "left" };
    let mut html = String::from("<table>\n");
    if !table.caption.is_empty() {
        let _ = writeln!(html, "<caption>{}</caption>", escape(&table.caption));
    }
    html.push_str("<thead>");
    let spans = group_spans(&table.columns);
    if spans.iter().any(|(group, _, _)| group.is_some()) {
        html.push_str("<tr>");
        for (group, start, end) in &spans {
            let _ = write!(html, "<th colspan=\"{}\">{}</th>", end - start, escape(group.unwrap_or("")));
        }
        html.push_str("</tr>");
    }
    html.push_str("<tr>");
    for column in &table.columns {
        let _ = write!(html, "<th style=\"text-align:{}\">{}</th>", align(column.numeric), escape(&column.label));
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for row in &table.rows {
        html.push_str("<tr>");
        for (cell, column) in row.iter().zip(&table.columns) {
            let colour = if cell.noisy { ";color:#d55e00" } else { "" };
            let _ =
                write!(html, "<td style=\"text-align:{}{colour}\">{}</td>", align(column.numeric), escape(&cell.text));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody>\n</table>");
    Rich { html, plain: text::table(table) }
}

/// Escapes text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            other => escaped.push(other),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::{Cell, Column};

    #[test]
    fn evcxr_content_has_one_block_per_mime_type() {
        let content = Rich { html: "<b>x</b>".into(), plain: "x".into() }.evcxr_content();
        assert_eq!(content.matches("EVCXR_BEGIN_CONTENT text/html\n").count(), 1);
        assert_eq!(content.matches("EVCXR_BEGIN_CONTENT text/plain\n").count(), 1);
        assert!(content.contains("\n<b>x</b>\nEVCXR_END_CONTENT"));
    }

    #[test]
    fn tables_escape_cells_and_mark_noise() {
        let rich = table(&Table {
            id: "sample",
            caption: String::new(),
            columns: vec![Column::text("case"), Column::number("ms").in_group("vm")],
            rows: vec![vec![Cell::from("a<b"), Cell::noisy("5", true)]],
        });
        assert!(rich.html.contains("<td style=\"text-align:left\">a&lt;b</td>"));
        assert!(rich.html.contains("<td style=\"text-align:right;color:#d55e00\">5</td>"));
        assert!(rich.html.contains("<th colspan=\"1\">vm</th>"));
        assert!(!rich.html.contains("a<b"));
    }

    #[test]
    fn figures_embed_svg_as_an_image_with_a_text_fallback() {
        let rich = figure(&Figure {
            id: "sample",
            title: "stride".into(),
            svg: "<svg></svg>".into(),
            legend: Vec::new(),
            caption: "Stride \"sweep\"".into(),
            text: "8 B: 1 ms".into(),
        });
        assert!(rich.html.contains("src=\"data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=\""));
        assert!(rich.html.contains("<figcaption>Stride &quot;sweep&quot;</figcaption>"));
        assert!(!rich.html.contains("<svg"));
        assert_eq!(rich.plain, "Stride \"sweep\"\n8 B: 1 ms");
    }

    #[test]
    fn findings_keep_every_sentence_and_stack() {
        let both = findings(&[Finding::about("a", "one"), Finding::about("b", "two <3")], true);
        assert_eq!(both.plain, "> a: one\n> b: two <3");
        assert!(both.html.contains("two &lt;3"));
        assert_eq!(both.clone().then(both).html.matches("<p ").count(), 4);
    }
}
