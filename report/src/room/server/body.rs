//! An upload's body, written to its staging file as it arrives (so an upload being read
//! holds no more memory than hyper's buffer), at a minimum rate: a pack must arrive within
//! [`BODY_GRACE`] plus its size at [`MIN_BYTES_PER_SECOND`], counted on the bytes received
//! so far, as Apache's `mod_reqtimeout` (`body=5,MinRate=...`) counts it. A client that
//! falls below the rate is cut as soon as it does, whatever length it declared, so a
//! trickling client frees its slot within seconds.
//!
//! By hand: tower-http's body limit caps the size and its body timeout the wait for each
//! frame; neither asks a minimum rate, and a frame a minute passes both.

use std::time::Duration;

use axum::body::Body;
use http_body_util::BodyExt as _;
use tokio::io::AsyncWriteExt as _;

/// The time every upload has, whatever its size.
pub const BODY_GRACE: Duration = Duration::from_secs(5);
/// The slowest a pack may arrive: 256 kbit/s, slow Wi-Fi shared by a room (16 MiB: 9 minutes).
pub const MIN_BYTES_PER_SECOND: u64 = 32 << 10;

/// Why a body was not received whole.
#[derive(Debug)]
pub enum NotReceived {
    /// It fell below the minimum rate, `received` bytes in.
    TooSlow { received: u64 },
    /// It went past `--max-upload`.
    TooLarge,
    /// The connection broke, or the body was not valid HTTP.
    Broken(String),
    /// The staging file could not be written.
    Disk(std::io::Error),
}

/// How long `received` bytes may take to arrive.
pub fn allowed(received: u64) -> Duration {
    BODY_GRACE + Duration::from_secs_f64(received as f64 / MIN_BYTES_PER_SECOND as f64)
}

/// Writes `body` whole to `file` (then flushed to disk), at most `max_bytes`; the bytes
/// written.
pub async fn receive(body: Body, max_bytes: u64, file: &mut tokio::fs::File) -> Result<u64, NotReceived> {
    let started = tokio::time::Instant::now();
    let mut body = body;
    let mut received = 0u64;
    loop {
        let frame = match tokio::time::timeout_at(started + allowed(received), body.frame()).await {
            Err(_) => return Err(NotReceived::TooSlow { received }),
            Ok(None) => break,
            Ok(Some(Err(error))) => return Err(NotReceived::Broken(error.to_string())),
            Ok(Some(Ok(frame))) => frame,
        };
        let Ok(data) = frame.into_data() else { continue };
        received = received.saturating_add(data.len() as u64);
        if received > max_bytes {
            return Err(NotReceived::TooLarge);
        }
        file.write_all(&data).await.map_err(NotReceived::Disk)?;
    }
    file.sync_all().await.map_err(NotReceived::Disk)?;
    Ok(received)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_allowed_grows_with_what_arrived() {
        assert_eq!(allowed(0), BODY_GRACE);
        assert_eq!(allowed(MIN_BYTES_PER_SECOND * 10), BODY_GRACE + Duration::from_secs(10));
        let sixteen_mib = allowed(16 << 20);
        assert!(sixteen_mib > Duration::from_secs(500) && sixteen_mib < Duration::from_secs(600), "{sixteen_mib:?}");
    }
}
