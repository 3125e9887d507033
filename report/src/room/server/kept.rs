//! The ledger's record of every pack the room kept, with its status: the truth a restart
//! reads. A superseded or removed pack is listed from its record and never read again, so a
//! restart reads only the shown packs, and what was removed stays removed. A pack in the
//! folder without a record (put there by hand, or kept by a room from before the records)
//! is read as it always was, then recorded.

use serde::{Deserialize, Serialize};

/// One pack the room kept, under the name the server gave it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeptPack {
    pub file: String,
    /// The label it was sent under: the seat it counts against.
    pub label: String,
    pub bytes: u64,
    pub status: KeptStatus,
}

/// Whether a kept pack is shown, and why not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KeptStatus {
    Shown,
    /// A later run of the same seat replaced it.
    Superseded,
    /// The teacher removed it.
    Removed,
}
