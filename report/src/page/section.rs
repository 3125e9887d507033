//! A lib [`Section`] as the page's view: the same findings, figures, tables and notes, with
//! what the template cannot compute (group headers, whether machines are compared) worked
//! out here, so `section.html` holds nothing but `if` and `for`.

use contention::present::{prose, Cell, Details, Figure, Finding, Section, Strip, Table};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct SectionView {
    pub experiment: &'static str,
    pub title: &'static str,
    /// The article's story as HTML, a string per markdown block (paragraph, list, code).
    pub prose: Vec<String>,
    pub measured: bool,
    pub comparing: bool,
    pub summary: String,
    pub article: Vec<String>,
    pub article_tables: Vec<TableView>,
    pub findings: Vec<Finding>,
    pub figures: Vec<Figure>,
    pub tables: Vec<TableView>,
    pub notes: Vec<Finding>,
    pub status: Vec<Finding>,
    /// The claims' strip (the headline's), its tiles linking to the claims table's rows.
    pub strip: Option<Strip>,
    /// The rules folded under their summaries.
    pub details: Vec<Details>,
}

#[derive(Debug, Serialize)]
pub struct TableView {
    pub caption: String,
    /// Headers sort the rows (the room table), by the page's one small script.
    pub sortable: bool,
    /// Group headers above the columns (empty when no column has a group).
    pub groups: Vec<GroupView>,
    pub columns: Vec<ColumnView>,
    pub rows: Vec<Vec<Cell>>,
}

#[derive(Debug, Serialize)]
pub struct GroupView {
    pub label: String,
    pub span: usize,
}

#[derive(Debug, Serialize)]
pub struct ColumnView {
    pub label: String,
    /// The cells' CSS class: "" for numbers (right-aligned), "label" for text.
    pub class: &'static str,
}

impl SectionView {
    pub fn of(section: &Section) -> Self {
        Self {
            experiment: section.experiment,
            title: section.title,
            prose: section.prose.iter().map(|block| prose::html(block)).collect(),
            measured: section.measured(),
            comparing: section.comparing(),
            summary: section.summary(),
            article: section.article.clone(),
            article_tables: section.article_tables.iter().map(table_view).collect(),
            findings: section.findings.clone(),
            figures: section.figures.clone(),
            tables: section.tables.iter().map(table_view).collect(),
            notes: section.notes.clone(),
            status: section.status.clone(),
            strip: section.strip.clone(),
            details: section.details.clone(),
        }
    }
}

pub fn table_view(table: &Table) -> TableView {
    let mut groups: Vec<GroupView> = Vec::new();
    let mut last: Option<&Option<String>> = None;
    for column in &table.columns {
        match groups.last_mut() {
            Some(group) if last == Some(&column.group) && column.group.is_some() => group.span += 1,
            _ => groups.push(GroupView { label: column.group.clone().unwrap_or_default(), span: 1 }),
        }
        last = Some(&column.group);
    }
    if table.columns.iter().all(|column| column.group.is_none()) {
        groups.clear();
    }
    TableView {
        caption: table.caption.clone(),
        sortable: false,
        groups,
        columns: table
            .columns
            .iter()
            .map(|column| ColumnView { label: column.label.clone(), class: if column.numeric { "" } else { "label" } })
            .collect(),
        rows: table.rows.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use contention::present::Column;

    #[test]
    fn neighbouring_columns_of_one_group_share_a_header() {
        let view = table_view(&Table {
            id: "sample",
            caption: String::new(),
            columns: vec![
                Column::number("stride"),
                Column::number("ms").in_group("article"),
                Column::number("ms").in_group("vm"),
                Column::number("x").in_group("vm"),
            ],
            rows: Vec::new(),
        });
        let spans: Vec<(&str, usize)> = view.groups.iter().map(|g| (g.label.as_str(), g.span)).collect();
        assert_eq!(spans, [("", 1), ("article", 1), ("vm", 2)]);
    }
}
