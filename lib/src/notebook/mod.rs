//! What the notebooks show: values that carry an HTML rendering and a plain-text fallback
//! (tables, figures, findings), built from the same data and charts as the report.
//!
//! The lib never prints. A notebook's `show` helper prints [`Rich::evcxr_content`], which
//! evcxr turns into one rich output: JupyterLab renders the HTML, a terminal or a text-only
//! viewer the plain text. evcxr keeps one block per MIME type per cell, so one `Rich` per
//! cell; [`Rich::then`] stacks several into one when a cell needs a chart and a sentence.

pub mod counters;
pub mod fitness;
pub mod gc;
pub mod machine;
pub mod pool;
pub mod reference;
pub mod runs;
pub mod sharing;
pub mod stride;

use std::fmt::Write as _;

use crate::chart::{svg_as_img_tag, ChartError, Series};

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

/// A table with a header row; numbers should arrive formatted. Columns of numbers are
/// right-aligned, others left; the text fallback pads columns to line up.
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> Rich {
    let numeric = numeric_columns(headers.len(), rows);
    let align = |column: usize| if numeric.get(column).copied().unwrap_or(false) { "right" } else { "left" };
    let mut html = String::from("<table>\n<thead><tr>");
    for (index, header) in headers.iter().enumerate() {
        let _ = write!(html, "<th style=\"text-align:{}\">{}</th>", align(index), escape(header));
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        html.push_str("<tr>");
        for (index, cell) in row.iter().enumerate() {
            let _ = write!(html, "<td style=\"text-align:{}\">{}</td>", align(index), escape(cell));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody>\n</table>");
    Rich { html, plain: plain_table(headers, rows, &numeric) }
}

/// A column holds numbers when every cell starts with a digit or is "-" (missing).
fn numeric_columns(headers: usize, rows: &[Vec<String>]) -> Vec<bool> {
    let columns = headers.max(rows.iter().map(Vec::len).max().unwrap_or(0));
    (0..columns)
        .map(|column| {
            let cells = || rows.iter().filter_map(|row| row.get(column));
            cells().next().is_some()
                && cells().all(|cell| cell == "-" || cell.starts_with(|c: char| c.is_ascii_digit()))
        })
        .collect()
}

fn plain_table(headers: &[&str], rows: &[Vec<String>], numeric: &[bool]) -> String {
    let columns = numeric.len();
    let cell = |row: &[String], index: usize| row.get(index).map_or("", String::as_str).to_string();
    let header_row: Vec<String> = (0..columns).map(|i| headers.get(i).map_or("", |h| *h).to_string()).collect();
    let body: Vec<Vec<String>> = rows.iter().map(|row| (0..columns).map(|i| cell(row, i)).collect()).collect();
    let widths: Vec<usize> = (0..columns)
        .map(|i| body.iter().chain([&header_row]).map(|row| row[i].chars().count()).max().unwrap_or(0))
        .collect();
    let line = |row: &[String]| {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (text, &width))| if numeric[i] { format!("{text:>width$}") } else { format!("{text:<width$}") })
            .collect();
        cells.join("  ").trim_end().to_string()
    };
    let rule = widths.iter().map(|&width| "-".repeat(width)).collect::<Vec<_>>().join("  ");
    let mut lines = vec![line(&header_row), rule];
    lines.extend(body.iter().map(|row| line(row)));
    lines.join("\n")
}

/// A chart: the SVG as an `<img>` (Jupyter hides raw SVG in untrusted notebooks) with a
/// caption; `plain` stands in for the picture where HTML cannot be shown (say what it shows).
pub fn figure(svg: &str, caption: &str, plain: &str) -> Rich {
    Rich {
        html: format!(
            "<figure style=\"margin:0\">{}<figcaption>{}</figcaption></figure>",
            svg_as_img_tag(svg, caption),
            escape(caption)
        ),
        plain: format!("{caption}\n{plain}"),
    }
}

/// How one experiment charts several machines: a series per machine after the article's,
/// the report's chart, and a text fallback naming each machine's points.
pub(crate) struct MachinesChart<Summary: 'static> {
    pub title: &'static str,
    pub caption: &'static str,
    /// Leads the text fallback, e.g. "median time per stride".
    pub fallback: &'static str,
    pub threads: fn(&[Summary]) -> u64,
    pub series: fn(String, &[Summary]) -> Series,
    pub draw: fn(&str, &[Series]) -> Result<String, ChartError>,
    pub point: fn(&Summary) -> String,
}

impl<Summary> MachinesChart<Summary> {
    /// The figure for `machines` (label, summaries), after the article's series when given.
    pub(crate) fn figure<Label, Summaries>(
        &self,
        machines: &[(Label, Summaries)],
        article: Option<Series>,
    ) -> Result<Rich, ChartError>
    where
        Label: AsRef<str>,
        Summaries: AsRef<[Summary]>,
    {
        let mut series: Vec<Series> = article.into_iter().collect();
        series.extend(machines.iter().map(|(label, summaries)| {
            let summaries = summaries.as_ref();
            (self.series)(format!("{}, {} threads", label.as_ref(), (self.threads)(summaries)), summaries)
        }));
        let svg = (self.draw)(self.title, &series)?;
        let points: Vec<String> = machines
            .iter()
            .map(|(label, summaries)| {
                let points: Vec<String> = summaries.as_ref().iter().map(self.point).collect();
                format!("{}: {}", label.as_ref(), points.join(", "))
            })
            .collect();
        Ok(figure(&svg, self.caption, &format!("{}, {}", self.fallback, points.join("; "))))
    }
}

/// A sentence computed from the data, set apart from the prose around it.
pub fn finding(sentence: &str) -> Rich {
    Rich {
        html: format!(
            "<p style=\"border-left:4px solid #0072b2;padding:0.3em 0.8em;margin:0.5em 0\">{}</p>",
            escape(sentence)
        ),
        plain: format!("> {sentence}"),
    }
}

/// Several sentences, each set apart like [`finding`].
pub fn findings(sentences: &[String]) -> Rich {
    sentences.iter().map(|sentence| finding(sentence)).reduce(Rich::then).unwrap_or_else(|| finding("(nothing to say)"))
}

/// A number with a sensible count of digits for a table cell: "2407", "36.4", "0.52".
pub fn format_number(value: f64) -> String {
    if !value.is_finite() {
        "-".into()
    } else if value.abs() >= 100.0 {
        format!("{value:.0}")
    } else if value.abs() >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}

/// Up to two decimals, trailing zeros dropped: "16", "1.5", "0.25" (ratios that are mostly whole).
pub fn short_number(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evcxr_content_has_one_block_per_mime_type() {
        let content = Rich { html: "<b>x</b>".into(), plain: "x".into() }.evcxr_content();
        assert_eq!(content.matches("EVCXR_BEGIN_CONTENT text/html\n").count(), 1);
        assert_eq!(content.matches("EVCXR_BEGIN_CONTENT text/plain\n").count(), 1);
        assert_eq!(content.matches("EVCXR_END_CONTENT\n").count(), 2);
        assert!(content.contains("\n<b>x</b>\nEVCXR_END_CONTENT"));
    }

    #[test]
    fn table_escapes_cells_and_aligns_the_text_fallback() {
        let rich =
            table(&["case", "time (ms)"], &[vec!["a<b".into(), "5".into()], vec!["long name".into(), "120".into()]]);
        assert!(rich.html.contains("<td style=\"text-align:left\">a&lt;b</td>"));
        assert!(rich.html.contains("<td style=\"text-align:right\">120</td>"));
        assert!(!rich.html.contains("a<b"));
        let lines: Vec<&str> = rich.plain.lines().collect();
        assert_eq!(
            lines,
            ["case       time (ms)", "---------  ---------", "a<b                5", "long name        120"]
        );
    }

    #[test]
    fn text_columns_stay_left_aligned() {
        let rich = table(&["fact", "value"], &[vec!["host".into(), "vm".into()], vec!["CPUs".into(), "2".into()]]);
        assert_eq!(rich.plain.lines().nth(2), Some("host  vm"));
        assert!(!rich.html.contains("right"));
    }

    #[test]
    fn short_rows_are_padded_not_dropped() {
        let rich = table(&["a", "b", "c"], &[vec!["1".into()]]);
        assert_eq!(rich.plain.lines().count(), 3);
        assert_eq!(rich.html.matches("<td").count(), 1);
    }

    #[test]
    fn figure_embeds_svg_as_image_with_text_fallback() {
        let rich = figure("<svg></svg>", "Stride \"sweep\"", "strides 8..256");
        assert!(rich.html.starts_with("<figure"));
        assert!(rich.html.contains("src=\"data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=\""));
        assert!(rich.html.contains("<figcaption>Stride &quot;sweep&quot;</figcaption>"));
        assert!(!rich.html.contains("<svg"));
        assert_eq!(rich.plain, "Stride \"sweep\"\nstrides 8..256");
    }

    #[test]
    fn then_stacks_both_renderings() {
        let both = finding("one").then(finding("two <3"));
        assert_eq!(both.plain, "> one\n\n> two <3");
        assert!(both.html.contains("two &lt;3"));
    }

    #[test]
    fn findings_keep_every_sentence() {
        let both = findings(&["a".into(), "b".into()]);
        assert_eq!(both.plain, "> a\n\n> b");
        assert_eq!(both.html.matches("<p ").count(), 2);
    }

    #[test]
    fn numbers_keep_three_significant_digits_or_so() {
        assert_eq!(format_number(2407.4), "2407");
        assert_eq!(format_number(36.44), "36.4");
        assert_eq!(format_number(0.523), "0.52");
        assert_eq!(format_number(f64::NAN), "-");
        assert_eq!(short_number(16.0), "16");
        assert_eq!(short_number(1.5), "1.5");
        assert_eq!(short_number(0.254), "0.25");
    }
}
