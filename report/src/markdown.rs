//! The report as markdown, for pasting into an issue or a chat: the same sections as the
//! page, tables as GitHub tables, figures as their caption and text stand-in.

use contention::present::{text, Section, Table};

/// The whole report: title, summary, then every section.
pub fn render(title: &str, machines: &[String], skipped: &[String], sections: &[Section]) -> String {
    let mut out = format!("# {title}\n\nMeasured on {}.\n\n", machines.join(", "));
    for why in skipped {
        out.push_str(&format!("_Skipped: {why}_\n\n"));
    }
    out.push_str("## Summary\n\n");
    for section in sections {
        out.push_str(&format!("- **{}**: {}\n", section.title, section.summary()));
    }
    for section in sections {
        out.push('\n');
        out.push_str(&self::section(section));
    }
    out
}

/// One section: the article's story (the lib's markdown, as written), what the article reported, its status in saved runs, the findings as quotes,
/// figures, tables, notes.
pub fn section(section: &Section) -> String {
    let mut blocks = vec![format!("## {}", section.title)];
    blocks.extend(section.prose.iter().cloned());
    blocks.extend(section.article.iter().cloned());
    blocks.extend(section.article_tables.iter().map(table));
    blocks.extend(section.status.iter().map(|status| format!("**{}**", status.text)));
    if !section.measured() {
        if section.status.is_empty() {
            blocks.push(format!("Not measured. Run `contention run {}` to measure it.", section.experiment));
        }
        return blocks.join("\n\n") + "\n";
    }
    let comparing = section.comparing();
    let findings: Vec<String> =
        section.findings.iter().map(|finding| format!("> {}", text::sentence(finding, comparing))).collect();
    blocks.push(findings.join("\n>\n"));
    blocks.extend(section.figures.iter().map(|figure| format!("*{}*\n\n{}", figure.caption, figure.text)));
    blocks.extend(section.tables.iter().map(table));
    blocks.extend(section.notes.iter().map(|note| format!("_{}_", text::sentence(note, comparing))));
    blocks.join("\n\n") + "\n"
}

/// A GitHub table under its caption; a grouped column is headed "group: label".
pub fn table(table: &Table) -> String {
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
        lines.push(format!("**{}**", table.caption));
        lines.push(String::new());
    }
    lines.push(format!("| {} |", header.join(" | ")));
    lines.push(format!("| {} |", rule.join(" | ")));
    for row in &table.rows {
        let cells: Vec<String> = row
            .iter()
            .map(|cell| match &cell.link {
                Some(link) => format!("[{}]({link})", escape(&cell.text)),
                None => escape(&cell.text),
            })
            .collect();
        lines.push(format!("| {} |", cells.join(" | ")));
    }
    lines.join("\n")
}

/// A pipe would end a cell early.
fn escape(text: &str) -> String {
    text.replace('|', "\\|")
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
        let text = self::section(&section);
        assert!(text.contains("> A | B."), "{text}");
        assert!(text.contains("**Times**\n\n| case | vm: ms |\n| --- | ---: |\n| a | 5 |"), "{text}");
    }

    #[test]
    fn an_unmeasured_section_says_how_to_measure_it() {
        let text = section(&Section::new("gc", "GC"));
        assert!(text.contains("Run `contention run gc`"), "{text}");
    }
}
