//! What `contention report` writes.

/// The report's output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One standalone page.
    Html,
    /// For pasting into an issue or a chat.
    Markdown,
    /// Every summary number, for scripts (shape in `json.rs`).
    Json,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Html => "html",
            Format::Markdown => "markdown",
            Format::Json => "json",
        }
    }

    /// Where the report goes when `--out` is not given.
    pub fn default_file(self) -> &'static str {
        match self {
            Format::Html => "report.html",
            Format::Markdown => "report.md",
            Format::Json => "report.json",
        }
    }
}
