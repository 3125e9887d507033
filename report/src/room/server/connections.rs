//! How many connections the room keeps open, in all and from one client, as real HTTP
//! servers cap them: every open connection holds a file descriptor, and a process that runs
//! out of them can accept nobody (a laptop's limit is often 256). The file limit is raised
//! to its hard limit on start; the caps are what it leaves after [`RESERVED_FILES`].
//!
//! A client is an IPv4 address, or an IPv6 /64 (one machine can hold a whole /64).
//! A connection past a cap is answered 503 with why and closed ([`super::serve`]); the
//! refusals are named in the log at most once a minute.
//!
//! By hand: no crate caps connections per address (tower's concurrency limit counts
//! requests, not connections, and for every client at once).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Files kept for everything but connections: the listener, the staged uploads and the runs
/// being read, the refusals being answered ([`MAX_REFUSING`]), the runtime's own.
pub const RESERVED_FILES: u64 = 128;
/// Connections kept at most whatever the file limit: each may hold hyper's read buffer
/// ([`super::serve::MAX_BUFFER_BYTES`], 32 KiB), so 1024 of them hold at most 32 MiB.
pub const MAX_CONNECTIONS: usize = 1024;
/// Refused connections answered at once; past it a refused connection is closed unanswered.
pub const MAX_REFUSING: usize = 32;
const LOG_EVERY: Duration = Duration::from_secs(60);

/// The caps, from the file limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub file_limit: u64,
    pub connections: usize,
    pub per_client: usize,
}

impl Limits {
    /// What a file limit of `file_limit` leaves: a quarter of the connections for one client,
    /// 8 to 64 (a browser opens 6 to one host; a few laptops may share an address).
    pub fn from_file_limit(file_limit: u64) -> Self {
        let left = usize::try_from(file_limit.saturating_sub(RESERVED_FILES)).unwrap_or(usize::MAX);
        let connections = left.clamp(16, MAX_CONNECTIONS);
        Self { file_limit, connections, per_client: (connections / 4).clamp(8, 64) }
    }

    /// The banner's words for them.
    pub fn text(&self) -> String {
        format!(
            "at most {} connections at once, {} from one address, under a file limit of {}",
            self.connections, self.per_client, self.file_limit
        )
    }
}

/// Raises the soft file limit to the hard one and returns the limit in force; 256 (a
/// small default) where the OS does not say.
pub fn raise_file_limit() -> u64 {
    contention::platform::raise_file_limit().unwrap_or(256)
}

/// The client a connection or an upload counts against.
pub fn client_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut segments = v6.segments();
                segments[4..].fill(0);
                IpAddr::from(segments)
            }
        },
        v4 => v4,
    }
}

/// The connections open now.
#[derive(Debug)]
pub struct Connections {
    limits: Limits,
    state: Mutex<Open>,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    by_client: HashMap<IpAddr, usize>,
    refused_since_note: u64,
    last_note: Option<Instant>,
}

/// One open connection, counted until it is dropped.
#[derive(Debug)]
pub struct Held {
    connections: Arc<Connections>,
    client: IpAddr,
}

/// Why a connection was refused, as its answer says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub why: String,
    /// A line for the log, when one is due (at most once a minute).
    pub note: Option<String>,
}

impl Connections {
    pub fn new(limits: Limits) -> Arc<Self> {
        Arc::new(Self { limits, state: Mutex::new(Open::default()) })
    }

    /// Counts a connection from `ip`, or says why it is refused.
    pub fn open(self: &Arc<Self>, ip: IpAddr, now: Instant) -> Result<Held, Refused> {
        let client = client_of(ip);
        let mut open = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let from_client = open.by_client.get(&client).copied().unwrap_or(0);
        let why = if from_client >= self.limits.per_client {
            format!("{client} has {from_client} connections open, the most this room keeps from one address")
        } else if open.total >= self.limits.connections {
            format!("the room has {} connections open, the most it keeps at once", open.total)
        } else {
            open.total += 1;
            *open.by_client.entry(client).or_insert(0) += 1;
            return Ok(Held { connections: self.clone(), client });
        };
        open.refused_since_note += 1;
        let due = open.last_note.map_or(true, |last| now.duration_since(last) >= LOG_EVERY);
        let note = due.then(|| {
            let count = std::mem::take(&mut open.refused_since_note);
            open.last_note = Some(now);
            format!("refused {count} connection(s) since the last note; the latest: {why} ({})", self.limits.text())
        });
        Err(Refused { why: format!("{why}: retry in a few seconds"), note })
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut open = self.connections.state.lock().unwrap_or_else(PoisonError::into_inner);
        open.total = open.total.saturating_sub(1);
        if let Some(count) = open.by_client.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                open.by_client.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_limit_sets_the_caps() {
        assert_eq!(Limits::from_file_limit(256), Limits { file_limit: 256, connections: 128, per_client: 32 });
        assert_eq!(Limits::from_file_limit(1 << 20).connections, MAX_CONNECTIONS);
        assert_eq!(Limits::from_file_limit(1 << 20).per_client, 64);
        assert_eq!(Limits::from_file_limit(64), Limits { file_limit: 64, connections: 16, per_client: 8 });
    }

    #[test]
    fn one_client_cannot_take_every_connection() {
        let connections = Connections::new(Limits { file_limit: 0, connections: 3, per_client: 2 });
        let (a, b, c): (IpAddr, IpAddr, IpAddr) =
            ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap(), "10.0.0.3".parse().unwrap());
        let now = Instant::now();
        let held: Vec<Held> = [a, a].iter().map(|&ip| connections.open(ip, now).unwrap()).collect();
        let refused = connections.open(a, now).unwrap_err();
        assert!(refused.why.starts_with("10.0.0.1 has 2 connections open"), "{refused:?}");
        assert!(refused.note.is_some(), "the first refusal is noted");
        let third = connections.open(b, now).unwrap();
        let full = connections.open(c, now).unwrap_err();
        assert!(full.why.starts_with("the room has 3 connections open"), "{full:?}");
        assert_eq!(full.note, None, "at most one note a minute");
        let later = connections.open(c, now + LOG_EVERY).unwrap_err();
        assert!(later.note.unwrap().starts_with("refused 2 connection(s) since the last note"));
        drop(held);
        assert_eq!(connections.state.lock().unwrap().total, 1);
        assert!(connections.open(a, now).is_ok(), "closed connections are given back");
        drop(third);
    }

    #[test]
    fn an_ipv6_client_is_its_64_prefix() {
        let one: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let other: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        assert_eq!(client_of(one), client_of(other));
        assert_ne!(client_of(one), client_of("2001:db8:1:3::1".parse().unwrap()));
        assert_eq!(client_of("::ffff:10.0.0.1".parse().unwrap()), "10.0.0.1".parse::<IpAddr>().unwrap());
    }
}
