//! The per-client limits on POSTs, in two tables that strangers cannot fill for others:
//! - wrong codes (or none): at most [`GUESSES_PER_MINUTE`] from one client, after which
//!   every POST from it is refused, right code or not, until its minute is over (so a
//!   guesser learns nothing). Counted apart from uploads and cheaper: refused before any
//!   slot, body or disk is used.
//! - uploads with the right code: at most `--max-uploads-per-minute` from one client.
//!
//! Each table remembers at most [`MAX_CLIENTS`] clients (a client as
//! [`client_of`](super::connections::client_of) counts it); a new client in a full table
//! takes the slot of the one whose window started first. So guesses from thousands of
//! addresses cannot keep out a participant: a right code from a new address is always
//! counted in a table only holders of the code reach, and admitted within its own limit.
//! Each window is fixed, starting at the client's first POST of it.
//!
//! By hand: tower's rate limit is one bucket for every client, so one client would spend
//! everyone's.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(60);
/// Wrong codes one client may send in a minute: a participant mistypes a few times.
pub const GUESSES_PER_MINUTE: u32 = 10;
/// Clients each table remembers: bounds its memory (about 100 KiB) whatever the clients do.
pub const MAX_CLIENTS: usize = 4096;

#[derive(Debug)]
pub struct RateLimit {
    per_minute: u32,
    uploads: Mutex<Windows>,
    guesses: Mutex<Windows>,
}

#[derive(Debug, Default)]
struct Windows(HashMap<IpAddr, Window>);

#[derive(Debug, Clone, Copy)]
struct Window {
    started: Instant,
    count: u32,
}

impl Windows {
    /// `client`'s window at `now`, a fresh one when its minute is over or it had none (taking
    /// the oldest client's slot when the table is full).
    fn window(&mut self, client: IpAddr, now: Instant) -> &mut Window {
        if self.0.len() >= MAX_CLIENTS && !self.0.contains_key(&client) {
            let oldest = self.0.iter().min_by_key(|(_, window)| window.started).map(|(&oldest, _)| oldest);
            if let Some(oldest) = oldest {
                self.0.remove(&oldest);
            }
        }
        let window = self.0.entry(client).or_insert(Window { started: now, count: 0 });
        if now.duration_since(window.started) >= WINDOW {
            *window = Window { started: now, count: 0 };
        }
        window
    }

    /// How long until `client` may send again, when it has used its `limit`.
    fn exhausted(&self, client: IpAddr, now: Instant, limit: u32) -> Option<Duration> {
        let window = self.0.get(&client)?;
        let left = WINDOW.saturating_sub(now.duration_since(window.started));
        (window.count >= limit && !left.is_zero()).then_some(left)
    }
}

fn locked(windows: &Mutex<Windows>) -> std::sync::MutexGuard<'_, Windows> {
    windows.lock().unwrap_or_else(PoisonError::into_inner)
}

impl RateLimit {
    pub fn new(per_minute: u32) -> Self {
        Self { per_minute, uploads: Mutex::default(), guesses: Mutex::default() }
    }

    pub fn per_minute(&self) -> u32 {
        self.per_minute
    }

    /// `Err` holds how long until `client`, having sent [`GUESSES_PER_MINUTE`] wrong codes,
    /// may POST again.
    pub fn guesses_left(&self, client: IpAddr, now: Instant) -> Result<(), Duration> {
        locked(&self.guesses).exhausted(client, now, GUESSES_PER_MINUTE).map_or(Ok(()), Err)
    }

    /// Counts a wrong code (or none) from `client`.
    pub fn count_guess(&self, client: IpAddr, now: Instant) {
        locked(&self.guesses).window(client, now).count += 1;
    }

    /// Counts an upload with the right code from `client`; `Err` holds how long until it may
    /// upload again.
    pub fn admit(&self, client: IpAddr, now: Instant) -> Result<(), Duration> {
        let mut uploads = locked(&self.uploads);
        let window = uploads.window(client, now);
        if window.count >= self.per_minute {
            return Err(WINDOW.saturating_sub(now.duration_since(window.started)));
        }
        window.count += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(n: u32) -> IpAddr {
        IpAddr::from(n.to_be_bytes())
    }

    #[test]
    fn each_address_gets_its_own_minute() {
        let limit = RateLimit::new(2);
        let (a, b) = (address(1), address(2));
        let start = Instant::now();
        assert!(limit.admit(a, start).is_ok() && limit.admit(a, start).is_ok());
        let wait = limit.admit(a, start + Duration::from_secs(20)).unwrap_err();
        assert_eq!(wait, Duration::from_secs(40));
        assert!(limit.admit(b, start).is_ok(), "another address is not held back");
        assert!(limit.admit(a, start + WINDOW).is_ok(), "a new minute starts afresh");
    }

    #[test]
    fn guesses_are_counted_apart_and_stop_the_guesser_only() {
        let limit = RateLimit::new(1);
        let (guesser, other) = (address(1), address(2));
        let start = Instant::now();
        for _ in 0..GUESSES_PER_MINUTE {
            assert!(limit.guesses_left(guesser, start).is_ok());
            limit.count_guess(guesser, start);
        }
        assert_eq!(limit.guesses_left(guesser, start + Duration::from_secs(15)), Err(Duration::from_secs(45)));
        assert!(limit.guesses_left(other, start).is_ok() && limit.admit(other, start).is_ok());
        assert!(limit.admit(guesser, start).is_ok(), "guesses do not spend uploads");
        assert!(limit.guesses_left(guesser, start + WINDOW).is_ok(), "a new minute starts afresh");
    }

    #[test]
    fn strangers_cannot_fill_the_tables_for_a_newcomer() {
        let limit = RateLimit::new(1);
        let start = Instant::now();
        for n in 0..MAX_CLIENTS as u32 + 100 {
            let at = start + Duration::from_millis(u64::from(n));
            limit.count_guess(address(n), at);
            assert!(limit.admit(address(n), at).is_ok(), "every address gets its upload");
        }
        let newcomer = IpAddr::from([255, 255, 255, 255]);
        let at = start + Duration::from_secs(5);
        assert!(limit.guesses_left(newcomer, at).is_ok() && limit.admit(newcomer, at).is_ok());
        assert!(limit.admit(address(MAX_CLIENTS as u32 + 99), at).is_err(), "the newest are remembered");
        assert!(locked(&limit.guesses).0.len() <= MAX_CLIENTS && locked(&limit.uploads).0.len() <= MAX_CLIENTS);
    }
}
