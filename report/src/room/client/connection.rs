//! The connection under every request of the client: one deadline over each read and
//! write, and connecting to the room with a message that says what to check.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use super::Room;

/// How long connecting may take.
pub(super) const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

pub(super) fn timed_out(error: &std::io::Error) -> bool {
    matches!(error.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)
}

/// A connection every read and write of which ends by one deadline: each waits at most
/// the time left, so a server that answers a byte at a time cannot stretch it.
#[derive(Debug)]
pub(super) struct Deadlined {
    pub(super) stream: TcpStream,
    pub(super) deadline: Instant,
}

impl Deadlined {
    fn time_left(&self) -> std::io::Result<Duration> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        match left.is_zero() {
            true => Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "the deadline passed")),
            false => Ok(left),
        }
    }

    pub(super) fn try_clone(&self) -> std::io::Result<Self> {
        Ok(Self { stream: self.stream.try_clone()?, deadline: self.deadline })
    }
}

impl Read for Deadlined {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.stream.set_read_timeout(Some(self.time_left()?))?;
        self.stream.read(buf)
    }
}

impl Write for Deadlined {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.stream.set_write_timeout(Some(self.time_left()?))?;
        self.stream.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.stream.flush()
    }
}

pub(super) fn connect(room: &Room) -> Result<TcpStream, String> {
    let addresses = (room.host.as_str(), room.port)
        .to_socket_addrs()
        .map_err(|error| format!("{} cannot be resolved: {error}", room.host))?;
    let mut last = format!("{} has no address", room.host);
    for address in addresses {
        match TcpStream::connect_timeout(&address, CONNECT_TIMEOUT) {
            Ok(stream) => return Ok(stream),
            Err(error) if timed_out(&error) => {
                last = format!(
                    "no room answers at {address}: it did not accept a connection within {} s (is `contention room \
                     serve` running there, and this machine on its network?)",
                    CONNECT_TIMEOUT.as_secs()
                )
            }
            Err(error) => {
                last = format!("no room answers at {address}: {error} (is `contention room serve` running there?)")
            }
        }
    }
    Err(last)
}
