//! A connection whose writes give up after [`WRITE_TIMEOUT`] without progress: hyper has a
//! timeout for reading a request's head but none for writing an answer, so a client that
//! asks for a page and never reads it would hold its connection, its task and the page's
//! bytes for good. A write (or flush) that can send nothing for that long fails with
//! `TimedOut`, and hyper closes the connection. A slow reader that takes a little at a time
//! is never cut off: each byte taken starts the wait again. (tower-http's timeout bounds a
//! request's handling, not an answer's writing.)

use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

use super::say;

/// How long a write may make no progress before the connection is closed.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// `inner` with its writes bounded by [`WRITE_TIMEOUT`].
#[derive(Debug)]
pub struct TimedWrites<S> {
    inner: S,
    /// Armed when a write could send nothing; disarmed when one sends.
    stalled: Option<Pin<Box<Sleep>>>,
    peer: IpAddr,
}

impl<S> TimedWrites<S> {
    pub fn new(inner: S, peer: IpAddr) -> Self {
        Self { inner, stalled: None, peer }
    }

    /// What a write that could not proceed answers: still pending, or, past the timeout, an
    /// error that ends the connection.
    fn stalled<T>(&mut self, context: &mut Context<'_>) -> Poll<io::Result<T>> {
        let timer = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(WRITE_TIMEOUT)));
        match timer.as_mut().poll(context) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(()) => {
                self.stalled = None;
                let seconds = WRITE_TIMEOUT.as_secs();
                say(&format!("{}: closed a connection that read nothing of its answer for {seconds} s", self.peer));
                Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "the client stopped reading its answer")))
            }
        }
    }

    /// `poll` on the inner stream, bounded: a ready result disarms the timer.
    fn bounded<T>(
        &mut self,
        context: &mut Context<'_>,
        poll: impl FnOnce(Pin<&mut S>, &mut Context<'_>) -> Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>>
    where
        S: Unpin,
    {
        match poll(Pin::new(&mut self.inner), context) {
            Poll::Ready(result) => {
                self.stalled = None;
                Poll::Ready(result)
            }
            Poll::Pending => self.stalled(context),
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for TimedWrites<S> {
    fn poll_read(self: Pin<&mut Self>, context: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(context, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for TimedWrites<S> {
    fn poll_write(self: Pin<&mut Self>, context: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.get_mut().bounded(context, |inner, context| inner.poll_write(context, buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().bounded(context, |inner, context| inner.poll_write_vectored(context, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().bounded(context, |inner, context| inner.poll_flush(context))
    }

    fn poll_shutdown(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().bounded(context, |inner, context| inner.poll_shutdown(context))
    }
}
