//! An article's table as compiled in, as an experiment's presentation names the ones it
//! reads (`Present::REFERENCES`); `crate::reference` reads their rows.

/// One file of `crate::reference::FOLDER` as compiled in: its name and its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReferenceText {
    /// Its name in `crate::reference::FOLDER` ("stride.csv").
    pub name: &'static str,
    pub text: &'static str,
}
