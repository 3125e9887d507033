//! An article's table as compiled in, as an experiment's presentation names the ones it
//! reads (`Present::REFERENCES`); [`super::reference::ReferenceFile::rows`] reads their rows.

/// One file of [`super::reference::FOLDER`] as compiled in: its name and its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReferenceText {
    /// Its name in [`super::reference::FOLDER`] ("stride.csv").
    pub name: &'static str,
    pub text: &'static str,
}
