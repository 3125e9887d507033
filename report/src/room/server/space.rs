//! The room's disk space, shared fairly: the room's cap (`--max-room-bytes`) counts every
//! pack in its folder, and each seat's share of it (`--max-seat-bytes`) every pack its label
//! sent, shown, superseded or removed, so no seat's re-sends can fill the room for the
//! others. The teacher's purge frees the superseded and removed packs.

use contention::format;

/// `--max-room-bytes`'s default: a class of 200 seats sending three default runs each (a few
/// hundred KiB a pack) stays well below; held as rows, shown packs take about 2.5 times
/// their size in memory (measured: ten 14 MB packs, 384 MiB resident).
pub const DEFAULT_ROOM_BYTES: u64 = 256 << 20;
/// `--max-seat-bytes`'s default: two packs of the largest upload (`--max-upload`'s 16 MiB).
pub const DEFAULT_SEAT_BYTES: u64 = 32 << 20;
/// The largest `--max-room-bytes`: bounds the room's memory (see [`super`]).
pub const MAX_ROOM_BYTES: u64 = 1 << 30;

/// The room's cap and each seat's share, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Space {
    pub room: u64,
    pub seat: u64,
}

impl Default for Space {
    fn default() -> Self {
        Self { room: DEFAULT_ROOM_BYTES, seat: DEFAULT_SEAT_BYTES }
    }
}

/// What the room's folder holds, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Used {
    pub all: u64,
    /// Superseded and removed packs: what a purge frees.
    pub purgeable: u64,
}

impl Space {
    /// `Err` says why the room cannot take `bytes` more, `used` as it is.
    pub fn room_for(&self, used: Used, bytes: u64) -> Result<(), String> {
        if used.all.saturating_add(bytes) <= self.room {
            return Ok(());
        }
        Err(format!(
            "the room is full: it holds {} of packs and takes at most {} (--max-room-bytes on the server); the \
             teacher's purge frees {} of superseded and removed runs",
            format::bytes(used.all),
            format::bytes(self.room),
            format::bytes(used.purgeable)
        ))
    }

    /// `Err` says why the seat `label`, which sent `sent` bytes of packs so far, cannot send
    /// `bytes` more.
    pub fn seat_for(&self, label: &str, sent: u64, bytes: u64) -> Result<(), String> {
        if sent.saturating_add(bytes) <= self.seat {
            return Ok(());
        }
        Err(format!(
            "{label} has sent {} of packs (superseded and removed ones count), and a seat's share of the room is {} \
             (--max-seat-bytes on the server): ask the teacher to purge its old runs",
            format::bytes(sent),
            format::bytes(self.seat)
        ))
    }

    /// "12.5 MiB of 256 MiB (3.1 MiB superseded or removed, ...; each seat's share: 32 MiB)", as the class
    /// page and the start say it.
    pub fn text(&self, used: Used) -> String {
        format!(
            "{} of {} ({} superseded or removed, which the teacher's purge frees; each seat's share: {})",
            format::bytes(used.all),
            format::bytes(self.room),
            format::bytes(used.purgeable),
            format::bytes(self.seat)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_and_a_seat_say_what_they_hold_when_full() {
        let space = Space { room: 100 << 20, seat: 10 << 20 };
        let used = Used { all: 99 << 20, purgeable: 4 << 20 };
        assert!(space.room_for(used, 1 << 20).is_ok());
        assert_eq!(
            space.room_for(used, (1 << 20) + 1).unwrap_err(),
            "the room is full: it holds 99 MiB of packs and takes at most 100 MiB (--max-room-bytes on the server); \
             the teacher's purge frees 4 MiB of superseded and removed runs"
        );
        assert!(space.seat_for("seat-01", 9 << 20, 1 << 20).is_ok());
        let refused = space.seat_for("seat-01", 9 << 20, (1 << 20) + 1).unwrap_err();
        assert!(refused.starts_with("seat-01 has sent 9 MiB of packs"), "{refused}");
    }
}
