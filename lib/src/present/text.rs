//! A [`Section`] as plain text: what a terminal shows after an experiment, and the text
//! fallback of the notebooks' rich output. Tables line up in columns; a figure becomes its
//! caption and its text stand-in.

use super::{Column, Details, Figure, Finding, Section, Strip, Table};

/// The whole section: title, the article's story, its status in saved runs, findings, then
/// figures, tables and notes.
pub fn section(section: &Section) -> String {
    let mut blocks = vec![format!("{}\n{}", section.title, "=".repeat(section.title.chars().count()))];
    blocks.extend(section.prose.iter().map(|block| prose_block(block)));
    if !section.status.is_empty() {
        blocks.push(notes(&section.status, false));
    }
    if !section.measured() {
        if section.status.is_empty() {
            blocks.push("Not measured.".into());
        }
        return blocks.join("\n\n");
    }
    blocks.push(findings(&section.findings, section.comparing()));
    blocks.extend(section.strip.as_ref().map(strip));
    blocks.extend(section.figures.iter().map(figure));
    blocks.extend(section.tables.iter().map(table));
    if !section.notes.is_empty() {
        blocks.push(notes(&section.notes, section.comparing()));
    }
    blocks.extend(section.details.iter().map(details));
    blocks.join("\n\n")
}

/// A strip as one line of status letters per group, then its tally and what the letters mean.
pub fn strip(strip: &Strip) -> String {
    let mut lines = strip.lines();
    lines.push(wrap(&strip.tally, 100));
    lines.push(wrap(&format!("Letters: {}.", strip.key_text()), 100));
    lines.join("\n")
}

/// Details carried open: the summary, then its paragraphs wrapped.
pub fn details(details: &Details) -> String {
    let mut blocks = vec![format!("{}:", details.summary)];
    blocks.extend(details.paragraphs.iter().map(|paragraph| wrap(paragraph, 100)));
    blocks.join("\n")
}

/// A block of the article's prose ([`super::prose::blocks`]) as plain text: a paragraph
/// wrapped, a list or a table line by line, with their marks dropped; a code block's lines
/// indented, its fences dropped.
pub fn prose_block(block: &str) -> String {
    if super::prose::is_paragraph(block) {
        return wrap(&plain(block), 100);
    }
    if block.trim_start().starts_with("```") {
        let code = block.lines().filter(|line| !line.trim_start().starts_with("```"));
        return code.map(|line| format!("    {line}")).collect::<Vec<_>>().join("\n");
    }
    block.lines().map(plain).collect::<Vec<_>>().join("\n")
}

/// A paragraph of the lib's markdown prose as plain text: emphasis and code marks dropped.
pub fn plain(paragraph: &str) -> String {
    paragraph.replace("**", "").replace(['*', '`'], "")
}

/// `text` broken at spaces into lines of at most `width` characters (a longer word stands alone).
pub fn wrap(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines.join("\n")
}

/// Each sentence on its own line after "> ", named by machine when `comparing`.
pub fn findings(findings: &[Finding], comparing: bool) -> String {
    findings.iter().map(|finding| format!("> {}", sentence(finding, comparing))).collect::<Vec<_>>().join("\n")
}

fn notes(notes: &[Finding], comparing: bool) -> String {
    notes.iter().map(|note| sentence(note, comparing)).collect::<Vec<_>>().join("\n")
}

/// A sentence, after its machine's label when several machines are shown.
pub fn sentence(finding: &Finding, comparing: bool) -> String {
    match (&finding.machine, comparing) {
        (Some(machine), true) => format!("{machine}: {}", finding.text),
        _ => finding.text.clone(),
    }
}

pub fn figure(figure: &Figure) -> String {
    format!("{}\n{}", figure.caption, figure.text)
}

/// The table in aligned columns (numbers to the right), under its caption, with a line of
/// group names above the columns that have one.
pub fn table(table: &Table) -> String {
    let cells: Vec<Vec<&str>> = table
        .rows
        .iter()
        .map(|row| (0..table.columns.len()).map(|i| row.get(i).map_or("", |cell| cell.text.as_str())).collect())
        .collect();
    let mut widths: Vec<usize> = table
        .columns
        .iter()
        .enumerate()
        .map(|(i, column)| {
            cells.iter().map(|row| row[i].chars().count()).chain([column.label.chars().count()]).max().unwrap_or(0)
        })
        .collect();
    let groups = group_spans(&table.columns);
    widen_for_groups(&groups, &mut widths);
    let line = |texts: &[&str]| {
        let padded: Vec<String> = texts
            .iter()
            .zip(&widths)
            .zip(&table.columns)
            .map(
                |((text, &width), column)| {
                    if column.numeric {
                        format!("{text:>width$}")
                    } else {
                        format!("{text:<width$}")
                    }
                },
            )
            .collect();
        padded.join("  ").trim_end().to_string()
    };
    let mut lines = Vec::new();
    if !table.caption.is_empty() {
        lines.push(table.caption.clone());
    }
    if groups.iter().any(|(group, _, _)| group.is_some()) {
        let spans: Vec<String> = groups
            .iter()
            .map(|(group, start, end)| {
                let width = widths[*start..*end].iter().sum::<usize>() + 2 * (end - start - 1);
                format!("{:<width$}", group.unwrap_or(""))
            })
            .collect();
        lines.push(spans.join("  ").trim_end().to_string());
    }
    let labels: Vec<&str> = table.columns.iter().map(|column| column.label.as_str()).collect();
    lines.push(line(&labels));
    lines.push(widths.iter().map(|&width| "-".repeat(width)).collect::<Vec<_>>().join("  "));
    lines.extend(cells.iter().map(|row| line(row)));
    lines.join("\n")
}

/// Runs of neighbouring columns that share a group: (group, first column, past the last).
pub(crate) fn group_spans(columns: &[Column]) -> Vec<(Option<&str>, usize, usize)> {
    let mut spans: Vec<(Option<&str>, usize, usize)> = Vec::new();
    for (index, column) in columns.iter().enumerate() {
        match spans.last_mut() {
            Some((group, _, end)) if *group == column.group.as_deref() && group.is_some() => *end = index + 1,
            _ => spans.push((column.group.as_deref(), index, index + 1)),
        }
    }
    spans
}

/// Widens a group's last column when the group's name is longer than its columns.
fn widen_for_groups(groups: &[(Option<&str>, usize, usize)], widths: &mut [usize]) {
    for (group, start, end) in groups {
        let Some(group) = group else { continue };
        let width = widths[*start..*end].iter().sum::<usize>() + 2 * (end - start - 1);
        let needed = group.chars().count();
        if needed > width {
            widths[end - 1] += needed - width;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::Cell;

    fn sample() -> Table {
        Table {
            id: "sample",
            caption: "Times".into(),
            columns: vec![
                Column::text("case"),
                Column::number("time (ms)").in_group("laptop"),
                Column::number("x").in_group("laptop"),
            ],
            rows: vec![
                vec![Cell::from("a<b"), Cell::from("5"), Cell::from("1")],
                vec![Cell::from("long name"), Cell::from("120"), Cell::from("2")],
            ],
        }
    }

    #[test]
    fn tables_align_and_show_their_groups() {
        let lines: Vec<String> = table(&sample()).lines().map(str::to_string).collect();
        assert_eq!(
            lines,
            [
                "Times",
                "           laptop",
                "case       time (ms)  x",
                "---------  ---------  -",
                "a<b                5  1",
                "long name        120  2",
            ]
        );
    }

    #[test]
    fn a_long_group_name_widens_its_columns() {
        let mut wide = sample();
        for column in &mut wide.columns[1..] {
            column.group = Some("a machine with a long name".into());
        }
        let text = table(&wide);
        assert!(text.lines().nth(1).unwrap().ends_with("a machine with a long name"));
        let rule = text.lines().nth(3).unwrap();
        assert_eq!(rule.chars().count(), "long name  ".len() + "a machine with a long name".len());
    }

    #[test]
    fn an_unmeasured_section_says_so() {
        let section = Section::new("stride", "Stride sweep");
        assert_eq!(super::section(&section), "Stride sweep\n============\n\nNot measured.");
    }

    #[test]
    fn an_interrupted_section_says_so_instead_of_not_measured() {
        let mut section = Section::new("stride", "Stride sweep");
        section.status = vec![Finding::about("vm", "interrupted: stride started at 12:00 and did not finish")];
        let text = super::section(&section);
        assert_eq!(text, "Stride sweep\n============\n\ninterrupted: stride started at 12:00 and did not finish");
        assert_eq!(section.summary(), "interrupted: stride started at 12:00 and did not finish");
        assert!(super::super::rich::section(&section).plain.contains("interrupted: stride"));
    }
}
