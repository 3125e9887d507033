//! The report as markdown, for pasting into an issue or a chat: the same sections as the
//! page, tables as GitHub tables, figures as their caption and text stand-in. Every text
//! is escaped ([`escape`]): a label or a failure text from a pack can add no HTML, no link,
//! no heading and no table row.

use contention::present::headline::HEADLINE;
use contention::present::{text, Section, Strip, Table};

/// The whole report: title, the articles' headlines, summary, then every section.
pub fn render(title: &str, machines: &[String], skipped: &[String], sections: &[Section]) -> String {
    let machines: Vec<String> = machines.iter().map(|machine| escape(machine)).collect();
    let mut out = format!("# {}\n\nMeasured on {}.\n\n", escape(title), machines.join(", "));
    for why in skipped {
        out.push_str(&format!("_Skipped: {}_\n\n", escape(why)));
    }
    let headings: Vec<(String, String)> =
        sections.iter().map(|s| (format!("#{}", s.experiment), format!("#{}", slug(s.title)))).collect();
    let (headline, sections): (Vec<&Section>, Vec<&Section>) =
        sections.iter().partition(|section| section.experiment == HEADLINE);
    for section in headline {
        out.push_str(&self::section(section, &headings));
        out.push('\n');
    }
    out.push_str("## Summary\n\n");
    for section in &sections {
        out.push_str(&format!("- **{}**: {}\n", escape(section.title), escape(&section.summary())));
    }
    for section in sections {
        out.push('\n');
        out.push_str(&self::section(section, &headings));
    }
    out
}

/// One section: the article's story (the lib's markdown, as written), what the article
/// reported, its status in saved runs, the findings as quotes, figures, tables, notes; a
/// cell's link to a section's anchor leads to that section's heading among `headings`.
pub fn section(section: &Section, headings: &[(String, String)]) -> String {
    let rendered = |t: &Table| table(t, headings);
    let mut blocks = vec![format!("## {}", escape(section.title))];
    // The lib's own prose is markdown written for this: it goes as written.
    blocks.extend(section.prose.iter().cloned());
    blocks.extend(section.article.iter().map(|paragraph| escape(paragraph)));
    blocks.extend(section.article_tables.iter().map(rendered));
    blocks.extend(section.status.iter().map(|status| format!("**{}**", escape(&status.text))));
    if !section.measured() {
        if section.status.is_empty() {
            blocks.push(format!("Not measured. Run `contention run {}` to measure it.", section.experiment));
        }
        return blocks.join("\n\n") + "\n";
    }
    let comparing = section.comparing();
    let findings: Vec<String> =
        section.findings.iter().map(|finding| format!("> {}", escape(&text::sentence(finding, comparing)))).collect();
    blocks.push(findings.join("\n>\n"));
    blocks.extend(section.strip.as_ref().map(strip));
    blocks.extend(
        section.figures.iter().map(|figure| format!("*{}*\n\n{}", escape(&figure.caption), figure_text(&figure.text))),
    );
    blocks.extend(section.tables.iter().map(rendered));
    blocks.extend(section.notes.iter().map(|note| format!("_{}_", escape(&text::sentence(note, comparing)))));
    for details in &section.details {
        blocks.push(format!("**{}**", escape(&details.summary)));
        blocks.extend(details.paragraphs.iter().map(|paragraph| format!("_{}_", escape(paragraph))));
    }
    blocks.join("\n\n") + "\n"
}

/// The claims' strip: a line of status letters per article (in a code block, so the letters
/// line up), then its tally and what the letters mean.
fn strip(strip: &Strip) -> String {
    // The lines are the lib's article names and status letters: nothing to escape in code.
    let lines = strip.lines().join("\n");
    format!("```text\n{lines}\n```\n\n{}\n\n_Letters: {}._", escape(&strip.tally), escape(&strip.key_text()))
}

/// A GitHub table under its caption; a grouped column is headed "group: label"; a cell's link
/// to a section leads to its heading among `headings`.
pub fn table(table: &Table, headings: &[(String, String)]) -> String {
    let header: Vec<String> = table
        .columns
        .iter()
        .map(|column| match &column.group {
            Some(group) => escape(&format!("{group}: {}", column.label)),
            None => escape(&column.label),
        })
        .collect();
    let rule: Vec<&str> = table.columns.iter().map(|column| if column.numeric { "---:" } else { "---" }).collect();
    let mut lines = Vec::new();
    if !table.caption.is_empty() {
        lines.push(format!("**{}**", escape(&table.caption)));
        lines.push(String::new());
    }
    lines.push(format!("| {} |", header.join(" | ")));
    lines.push(format!("| {} |", rule.join(" | ")));
    for row in &table.rows {
        let cells: Vec<String> = row
            .iter()
            .map(|cell| match &cell.link {
                Some(link) => format!("[{}]({})", escape(&cell.text), heading_of(link, headings)),
                None => escape(&cell.text),
            })
            .collect();
        lines.push(format!("| {} |", cells.join(" | ")));
    }
    lines.join("\n")
}

/// Where a link to a section's anchor (`#gc`) leads in markdown: that section's heading
/// (GitHub names a heading's anchor by its slug), or the link itself. A claim's row
/// (`#claim-A1`) has no anchor in markdown: its link leads to the claims section.
fn heading_of<'a>(link: &'a str, headings: &'a [(String, String)]) -> &'a str {
    let section = if link.starts_with("#claim-") { "#claims" } else { link };
    headings.iter().find(|(anchor, _)| anchor == section).map_or(link, |(_, heading)| heading.as_str())
}

/// The slug GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens.
fn slug(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// A figure's text stand-in: its lines kept, each escaped.
fn figure_text(text: &str) -> String {
    text.lines().map(escape).collect::<Vec<_>>().join("\n")
}

/// `text` as markdown that shows it literally, on one line: every character markdown could
/// read as markup (emphasis, code, links, images, raw HTML, headings, table cells, entity
/// references) is backslash-escaped, line breaks become spaces so nothing can start a
/// heading or a row, bare URLs are broken so they are not linked, and control characters
/// are written out.
pub fn escape(text: &str) -> String {
    let one_line: String =
        text.chars().map(|c| if matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}') { ' ' } else { c }).collect();
    let one_line = contention::runs::visible(&one_line);
    let mut escaped = String::with_capacity(one_line.len() + 8);
    for c in one_line.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '!' | '~' | '&' | '$') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    // GitHub links "https://..." and "www." in plain text: an escaped character breaks both.
    escaped.replace("://", ":\\/\\/").replace("www.", "www\\.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use contention::present::{Cell, Column, Finding};

    #[test]
    fn tables_and_findings_read_as_markdown() {
        let mut section = Section::new("stride", "Stride sweep");
        section.machines = vec!["vm".into()];
        section.findings = vec![Finding::about("vm", "A | B.")];
        section.tables.push(Table {
            id: "sample",
            caption: "Times".into(),
            columns: vec![Column::text("case"), Column::number("ms").in_group("vm")],
            rows: vec![vec![Cell::from("a"), Cell::from("5")]],
        });
        let text = self::section(&section, &[]);
        assert!(text.contains("> A \\| B."), "{text}");
        assert!(text.contains("**Times**\n\n| case | vm: ms |\n| --- | ---: |\n| a | 5 |"), "{text}");
    }

    #[test]
    fn a_cell_leading_to_a_section_links_its_heading() {
        let mut headline = Section::new("headline", "Headlines");
        headline.machines = vec!["vm".into()];
        headline.tables.push(Table {
            id: "headline",
            caption: String::new(),
            columns: vec![Column::text("article")],
            rows: vec![vec![Cell::linked("A", "sharing")]],
        });
        let sections = [headline, Section::new("sharing", "False sharing: the four-way control")];
        let text = render("t", &["vm".into()], &[], &sections);
        assert!(text.contains("| [A](#false-sharing-the-four-way-control) |"), "{text}");
        assert!(text.find("## Headlines").unwrap() < text.find("## Summary").unwrap(), "the headline first");
        assert!(!text.contains("- **Headlines**"), "not a summary line");
    }

    #[test]
    fn an_unmeasured_section_says_how_to_measure_it() {
        let text = section(&Section::new("gc", "GC"), &[]);
        assert!(text.contains("Run `contention run gc`"), "{text}");
    }

    #[test]
    fn text_from_outside_adds_no_markup() {
        assert_eq!(escape("<script>alert(1)</script>"), "\\<script\\>alert(1)\\</script\\>");
        assert_eq!(escape("[x](javascript:alert(1))"), "\\[x\\](javascript:alert(1))");
        assert_eq!(escape("a\n# heading\n| row |"), "a \\# heading \\| row \\|");
        assert_eq!(escape("see https://evil.example"), "see https:\\/\\/evil.example");
        assert_eq!(escape("bell\u{7}"), "bell\\\\u{7}");
        let page = render("<b>t</b>", &["[x](javascript:alert(1))".into()], &["<img src=x>\n# x".into()], &[]);
        assert!(!page.contains("<b>") && !page.contains("[x]") && !page.contains("\n# x"), "{page}");
        assert!(page.contains("Measured on \\[x\\](javascript:alert(1))."), "{page}");
    }
}
