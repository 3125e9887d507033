//! The articles' numbered claims (`data/reference/claims.csv`), compiled into the lib: the
//! claims' table, the headline and the room read them; each experiment answers those that
//! name it. The articles' other tables are declared by the experiments that read them, each
//! beside its section, and read by the one loader ([`ReferenceFile::rows`]).

use serde::Deserialize;

use crate::reference_file;
use crate::run_format::RunsError;

use crate::kit::reference::{printed_number, ReferenceFile};

/// One numbered claim of the three articles (ids as in the project's shared claims list),
/// in the project's words, with the figure as printed and, where it is a number, its range
/// in `unit`; `experiment` names the experiment that answers it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ClaimReference {
    pub id: String,
    /// "A", "B" or "C".
    pub article: String,
    pub text: String,
    /// As printed; empty where the article gives no figure.
    pub figure: String,
    pub unit: String,
    /// The range's ends as written, to the digits the article printed (what the judgement's
    /// precision rule reads), empty where it printed no number.
    #[serde(deserialize_with = "printed_number")]
    pub low: Option<String>,
    #[serde(deserialize_with = "printed_number")]
    pub high: Option<String>,
    pub experiment: String,
    /// The threads of the article's setting, where the figure's size depends on them: a
    /// machine with fewer CPUs never reproduces it.
    pub threads: Option<u64>,
}

impl ClaimReference {
    /// The printed figure's range, when it is a number (a point: low = high).
    pub fn range(&self) -> Option<(f64, f64)> {
        let number = |printed: &Option<String>| printed.as_deref().and_then(|text| text.parse::<f64>().ok());
        let (low, high) = (number(&self.low), number(&self.high));
        Some((low.or(high)?, high.unwrap_or(f64::INFINITY)))
    }
}

pub const CLAIMS: ReferenceFile<ClaimReference> = reference_file!("claims.csv");

pub fn claims() -> Result<Vec<ClaimReference>, RunsError> {
    CLAIMS.rows()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reference_table_reads() {
        assert_eq!(
            crate::stride::present::reference().unwrap().iter().map(|r| r.stride_bytes).collect::<Vec<_>>(),
            [8, 16, 32, 64, 128, 256]
        );
        assert_eq!(crate::sharing::present::reference().unwrap().len(), 4);
        let counters = crate::counters::present::reference().unwrap();
        assert_eq!(counters[0].faster_than_compact, None);
        assert_eq!(counters[1].faster_than_compact.as_deref(), Some("50.95"));
        assert!(!crate::gc::present::threads_reference().unwrap().is_empty());
        assert!(crate::gc::present::ratios_reference().unwrap().iter().any(|r| r.gogc.to_string() == "off"));
        assert!(crate::pool::present::reference().unwrap().iter().any(|r| r.key == "cores"));
        assert!(crate::locks::present::reference()
            .unwrap()
            .iter()
            .any(|r| r.claim == "C14" && r.key == "high" && r.value == 7.0));
        let claims = claims().unwrap();
        let per_article = |article: &str| claims.iter().filter(|claim| claim.article == article).count();
        assert_eq!((claims.len(), per_article("A"), per_article("B"), per_article("C")), (42, 12, 9, 21));
        assert_eq!(claims.iter().find(|claim| claim.id == "C8").and_then(ClaimReference::range), Some((80.0, 120.0)));
        assert_eq!(
            claims.iter().find(|claim| claim.id == "C5").and_then(ClaimReference::range),
            Some((300.0, f64::INFINITY))
        );
    }
}
