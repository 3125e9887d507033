//! The per-client upload limit: at most N uploads from one address in a minute (a fixed
//! window that starts at the address's first upload). Refused uploads count too, so
//! guessing the room code is as slow as uploading.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(60);
/// Addresses remembered at once; past it, windows over a minute old are forgotten first,
/// and a new address waits while every slot is in use. Bounds the limiter's memory
/// (about 100 KiB) whatever the number of clients.
pub const MAX_CLIENTS: usize = 4096;

#[derive(Debug)]
pub struct RateLimit {
    per_minute: u32,
    clients: Mutex<HashMap<IpAddr, Window>>,
}

#[derive(Debug, Clone, Copy)]
struct Window {
    started: Instant,
    uploads: u32,
}

impl RateLimit {
    pub fn new(per_minute: u32) -> Self {
        Self { per_minute, clients: Mutex::new(HashMap::new()) }
    }

    pub fn per_minute(&self) -> u32 {
        self.per_minute
    }

    /// Counts an upload from `client` at `now`; `Err` holds how long until it may upload again.
    pub fn admit(&self, client: IpAddr, now: Instant) -> Result<(), Duration> {
        let mut clients = self.clients.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if clients.len() >= MAX_CLIENTS && !clients.contains_key(&client) {
            clients.retain(|_, window| now.duration_since(window.started) < WINDOW);
            if clients.len() >= MAX_CLIENTS {
                return Err(WINDOW);
            }
        }
        let window = clients.entry(client).or_insert(Window { started: now, uploads: 0 });
        if now.duration_since(window.started) >= WINDOW {
            *window = Window { started: now, uploads: 0 };
        }
        if window.uploads >= self.per_minute {
            return Err(WINDOW.saturating_sub(now.duration_since(window.started)));
        }
        window.uploads += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_gets_its_own_minute() {
        let limit = RateLimit::new(2);
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let start = Instant::now();
        assert!(limit.admit(a, start).is_ok() && limit.admit(a, start).is_ok());
        let wait = limit.admit(a, start + Duration::from_secs(20)).unwrap_err();
        assert_eq!(wait, Duration::from_secs(40));
        assert!(limit.admit(b, start).is_ok(), "another address is not held back");
        assert!(limit.admit(a, start + WINDOW).is_ok(), "a new minute starts afresh");
    }

    #[test]
    fn memory_is_bounded_by_the_addresses_remembered() {
        let limit = RateLimit::new(1);
        let start = Instant::now();
        for n in 0..MAX_CLIENTS as u32 {
            assert!(limit.admit(IpAddr::from(n.to_be_bytes()), start).is_ok());
        }
        let newcomer = IpAddr::from([255, 255, 255, 255]);
        assert!(limit.admit(newcomer, start).is_err(), "every slot is in use within the minute");
        assert!(limit.admit(newcomer, start + WINDOW).is_ok(), "old windows are forgotten");
        assert!(limit.clients.lock().unwrap().len() <= MAX_CLIENTS);
    }
}
