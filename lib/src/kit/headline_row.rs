//! An article's row in the headline table, as its experiment's [`super::Present::headline`]
//! hands it to the report's headline.

/// An article's row in the headline table: its name, the article's headline figure in
/// words and its setting, and the claim whose answer is the row.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadlineRow {
    pub name: &'static str,
    pub figure: String,
    /// The article's setting, short, as its cell in the headline table says it ("8 goroutines").
    pub setting: String,
    pub claim: &'static str,
}
