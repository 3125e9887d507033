//! Accepting connections and serving each with hyper's HTTP/1.1 server, under the room's
//! limits: a connection must send a whole request head within [`HEADER_TIMEOUT`] of
//! opening, or of its previous answer (so an idle keep-alive connection is closed then
//! too: hyper's header timer starts as it waits for the next request), reads at most
//! [`MAX_BUFFER_BYTES`] ahead, is closed when it reads nothing of its answer for
//! [`super::write_timeout::WRITE_TIMEOUT`], and counts against the caps of [`super::connections`]. A
//! connection past a cap is answered 503 with why and a `Retry-After`, then closed.
//!
//! Not `axum::serve`: it gives hyper no timer and no buffer size, so a connection has no
//! header-read timeout (a head sent a byte at a time holds its connection for good) and
//! reads up to hyper's default of about 400 KiB ahead (1024 connections: 400 MiB, not 32).

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use axum::extract::ConnectInfo;
use axum::routing::{get, post};
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use super::app::App;
use super::connections::{Connections, MAX_REFUSING};
use super::say;
use super::write_timeout::TimedWrites;
use super::{actions, challenges, routes, upload};

/// How long a client may take to send a request's head (the request line and headers).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// hyper's read buffer per connection: a request head must fit (browsers send 1 to 8 KiB).
pub const MAX_BUFFER_BYTES: usize = 32 << 10;
/// How long a refused connection is given to read its 503 before it is closed.
const REFUSAL_WAIT: Duration = Duration::from_secs(1);
/// How long a stop waits for requests in progress (an upload being read) before it leaves.
const STOP_GRACE: Duration = Duration::from_secs(10);
/// How often a failing `accept` (the file limit reached) is named in the log.
const ACCEPT_NOTE_EVERY: Duration = Duration::from_secs(60);

/// Serves `listener` until `stop`, then lets the requests in progress finish (at most
/// [`STOP_GRACE`]).
pub async fn serve(
    listener: TcpListener,
    app: Arc<App>,
    connections: Arc<Connections>,
    stop: impl Future<Output = ()>,
) -> Result<()> {
    let router = router(app);
    let graceful = GracefulShutdown::new();
    let refusing = Arc::new(Semaphore::new(MAX_REFUSING));
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(HEADER_TIMEOUT).max_buf_size(MAX_BUFFER_BYTES);
    let mut last_accept_note: Option<Instant> = None;
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of files (EMFILE) or a connection reset before it was taken: the
                    // connection waits in the backlog; try again shortly.
                    if last_accept_note.map_or(true, |last| last.elapsed() >= ACCEPT_NOTE_EVERY) {
                        say(&format!("accepting a connection failed: {error} (named once a minute)"));
                        last_accept_note = Some(Instant::now());
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        match connections.open(peer.ip(), Instant::now()) {
            Ok(held) => {
                let _ = stream.set_nodelay(true);
                let service = connection_service(router.clone(), peer);
                let stream = TimedWrites::new(stream, peer.ip());
                let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
                tokio::spawn(async move {
                    let _ = connection.await;
                    drop(held);
                });
            }
            Err(refused) => {
                if let Some(note) = refused.note {
                    say(&note);
                }
                // Past MAX_REFUSING answers at once, a refused connection is closed as it is.
                if let Ok(permit) = refusing.clone().try_acquire_owned() {
                    tokio::spawn(async move {
                        answer_refused(stream, &refused.why).await;
                        drop(permit);
                    });
                }
            }
        }
    }
    drop(listener);
    say("stopping: finishing the requests in progress (the room's runs stay in its folder)");
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(STOP_GRACE) => {
            let seconds = STOP_GRACE.as_secs();
            say(&format!("stopped after {seconds} s with requests still open; an upload not yet kept was dropped"));
        }
    }
    Ok(())
}

/// The room's routes for one connection, each request knowing the client's address.
fn connection_service(
    router: axum::Router,
    peer: SocketAddr,
) -> impl hyper::service::Service<
    hyper::Request<Incoming>,
    Response = axum::response::Response,
    Error = std::convert::Infallible,
    Future = impl Future<Output = Result<axum::response::Response, std::convert::Infallible>> + Send,
> + Clone {
    hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        let mut router = router.clone();
        async move { tower_service::Service::call(&mut router, request).await }
    })
}

/// A 503 saying why, then the connection closed once the client has read it (or after
/// [`REFUSAL_WAIT`]): what the client sent is read and dropped, so that closing does not
/// reset the connection and lose the answer.
async fn answer_refused(mut stream: TcpStream, why: &str) {
    let body = format!("refused: {why}\n");
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\
         Retry-After: 5\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(REFUSAL_WAIT, async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 4096];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<(), std::io::Error>(())
    })
    .await;
}

/// The room's routes: the only paths the server answers. No path of a request reaches the
/// file system: a pack is found by its label among the room's runs, and served from the
/// name the server gave it.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(routes::live_page))
        .route("/room.html", get(routes::old_page))
        .route("/class.tar", get(routes::class_tar))
        .route("/projector", get(routes::projector_page))
        .route("/seats/{label}", get(routes::seat_page))
        .route("/runs", get(routes::list).post(upload::upload))
        .route("/runs/{file}", get(routes::pack).delete(actions::remove))
        .route("/reveal", post(actions::reveal))
        .route("/guesses", post(actions::guesses).delete(actions::clear_guesses))
        .route("/ready", post(super::readiness::ready))
        .route("/purge", post(actions::purge))
        .route("/challenges", post(challenges::send))
        .route("/free", post(actions::free))
        .route("/parts", post(super::parts::open))
        .fallback(routes::not_found)
        .with_state(app)
}
