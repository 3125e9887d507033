//! The core-to-core latency as presented: no section of its own, because the machine's
//! section shows its heatmap and pairs beside the verdict they feed.

use crate::kit::{Present, PresentError};
use crate::run_format::Run;
use crate::view::Section;

impl Present for super::CoreToCore {
    const TITLE: &'static str = "Core-to-core latency";
    const PROSE: &'static str = "";

    fn section(_: &[Run]) -> Result<Option<Section>, PresentError> {
        Ok(None)
    }
}
