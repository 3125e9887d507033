//! The articles' prose (each experiment's `prose.md`, compiled in) as every renderer shows it:
//! markdown blocks separated by blank lines. A paragraph is kept as one line; a list, a table
//! or a fenced code block keeps its lines (so a fence holds no blank line).

use pulldown_cmark::{html, Options, Parser};

use crate::registry::{Experiment, Visitor};

use super::Present;

/// `experiment`'s prose, in blocks ([`blocks`]); empty for one with none.
pub fn of(experiment: Experiment) -> Vec<String> {
    struct ProseOf;
    impl Visitor for ProseOf {
        type Output = Vec<String>;
        fn visit<K: Present>(self) -> Vec<String> {
            blocks(K::PROSE)
        }
    }
    experiment.visit(ProseOf)
}

/// The blocks of `markdown`, its `{{figure}}` placeholders filled ([`super::figures::fill`]):
/// paragraphs joined into one line each, other blocks as written.
pub fn blocks(markdown: &str) -> Vec<String> {
    super::figures::fill(markdown)
        .split("\n\n")
        .filter_map(|block| {
            let lines: Vec<&str> = block.lines().map(str::trim_end).filter(|line| !line.trim().is_empty()).collect();
            let first = lines.first()?;
            Some(if is_paragraph(first) {
                lines.iter().map(|line| line.trim()).collect::<Vec<_>>().join(" ")
            } else {
                lines.join("\n")
            })
        })
        .collect()
}

/// A block of running text: not a list, a table, a fenced code block or HTML.
pub fn is_paragraph(block: &str) -> bool {
    let start = block.trim_start();
    let numbered = start
        .split_once(". ")
        .is_some_and(|(number, _)| !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()));
    let marked = ["- ", "* ", "|", "```", "<"].iter().any(|mark| start.starts_with(mark));
    !(numbered || marked)
}

/// One block as HTML. The prose is the lab's own, compiled in, so HTML in it is kept.
pub fn html(block: &str) -> String {
    let mut out = String::with_capacity(block.len() * 5 / 4);
    html::push_html(&mut out, Parser::new_ext(block, Options::ENABLE_TABLES));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_join_their_lines_and_other_blocks_keep_them() {
        let markdown = "One\nline.\n\n- a\n  b\n- c\n\n```go\nx := 1\n```\n\n12. twelve\n\n*Emphasis* first.\n";
        assert_eq!(
            blocks(markdown),
            ["One line.", "- a\n  b\n- c", "```go\nx := 1\n```", "12. twelve", "*Emphasis* first."]
        );
        assert!(blocks("").is_empty() && blocks("\n\n \n\n").is_empty());
    }

    #[test]
    fn blocks_become_html_with_their_marks() {
        assert_eq!(
            html("a **b** *c* `Mutex<i64>`"),
            "<p>a <strong>b</strong> <em>c</em> <code>Mutex&lt;i64&gt;</code></p>\n"
        );
        assert_eq!(html("1. one\n2. two"), "<ol>\n<li>one</li>\n<li>two</li>\n</ol>\n");
        assert!(html("```go\nx := 1 < 2\n```").starts_with("<pre><code class=\"language-go\">x := 1 &lt; 2"));
    }

    #[test]
    fn every_experiments_prose_splits_into_whole_blocks() {
        for &experiment in Experiment::ALL {
            for block in of(experiment) {
                let fences = block.lines().filter(|line| line.trim_start().starts_with("```")).count();
                assert!(fences % 2 == 0, "{}: a fenced block split by a blank line: {block}", experiment.name());
                assert!(!block.contains("\n\n"), "{block}");
            }
        }
        assert!(of(Experiment::Stride).iter().any(|block| block.starts_with("1. **Change the shard count.**")));
    }

    #[test]
    fn every_placeholder_in_the_prose_names_a_figure_of_the_lab() {
        for &experiment in Experiment::ALL {
            struct Raw;
            impl Visitor for Raw {
                type Output = &'static str;
                fn visit<K: Present>(self) -> &'static str {
                    K::PROSE
                }
            }
            let unknown = super::super::figures::unknown(experiment.visit(Raw));
            assert!(unknown.is_empty(), "{}: no figure named {unknown:?}", experiment.name());
            assert!(of(experiment).iter().all(|block| !block.contains("{{")), "{}", experiment.name());
        }
        let filled = "the mean wait of those paths is 6.2 ms, and with it the formula gives 46 threads";
        assert!(of(Experiment::Pool).iter().any(|block| block.contains(filled)), "{filled}");
    }
}
