//! A live room for a test: `contention room serve` on a free loopback port, plain HTTP/1.1
//! requests to it, and packs of the fixture run under chosen labels.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The code every test room takes.
pub const CODE: &str = "test-room";
/// The teacher key every test room takes.
pub const KEY: &str = "test-teacher";

/// A running room; stopped with SIGINT (Ctrl-C) when dropped.
pub struct Server {
    child: Child,
    pub port: u16,
    pub dir: PathBuf,
    /// Everything the server printed so far.
    pub log: Arc<Mutex<String>>,
    /// The seat tokens the room handed this test's uploads, by label: a laptop's own file.
    tokens: Mutex<std::collections::HashMap<String, String>>,
}

impl Server {
    /// Starts a room keeping its runs in `dir`, with `extra` flags.
    pub fn start(dir: &Path, extra: &[&str]) -> Self {
        Self::start_command(Command::new(env!("CARGO_BIN_EXE_contention")), dir, extra)
    }

    /// Starts a room under a file limit of `files` (soft and hard, as `ulimit -n` sets it on
    /// a laptop).
    pub fn start_with_file_limit(dir: &Path, extra: &[&str], files: u32) -> Self {
        let mut shell = Command::new("sh");
        shell.args(["-c", &format!("ulimit -n {files} && exec \"$0\" \"$@\""), env!("CARGO_BIN_EXE_contention")]);
        Self::start_command(shell, dir, extra)
    }

    fn start_command(mut command: Command, dir: &Path, extra: &[&str]) -> Self {
        let mut child = command
            .args(["room", "serve", "--port", "0", "--code", CODE, "--teacher-key", KEY, "--dir"])
            .arg(dir)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the room starts");
        let log = Arc::new(Mutex::new(String::new()));
        let ((found, ports), printed) = (std::sync::mpsc::channel(), log.clone());
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(at) = line.strip_prefix("page: http://127.0.0.1:") {
                    let _ = found.send(at.trim_end_matches('/').parse::<u16>().unwrap());
                }
                printed.lock().unwrap().push_str(&format!("{line}\n"));
            }
        });
        let port = port_or_panic(&mut child, &ports.recv_timeout(Duration::from_secs(30)));
        Self { child, port, dir: dir.to_path_buf(), log, tokens: Mutex::default() }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGINT, as Ctrl-C does, and waits (at most 20 s) for the server to leave.
    pub fn stop(mut self) -> ExitStatus {
        self.interrupt_and_wait().expect("the room stops within 20 s of Ctrl-C")
    }

    fn interrupt_and_wait(&mut self) -> Option<ExitStatus> {
        self.signal_and_wait("-INT", Duration::from_secs(20))
    }

    /// Sends `signal` (`-TERM`, as a service manager stops it) and waits at most `within`
    /// for the server to leave; `None` when it is still running.
    pub fn signal_and_wait(&mut self, signal: &str, within: Duration) -> Option<ExitStatus> {
        if let Ok(Some(status)) = self.child.try_wait() {
            return Some(status);
        }
        let _ = Command::new("kill").args([signal, &self.child.id().to_string()]).stderr(Stdio::null()).status();
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }

    /// `method path` with `body`: the status and the answer's body.
    pub fn request(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        let (status, bytes) = http(self.port, method, path, body);
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    /// `method path` with `body` and `headers`: the status, the answer's head and its body.
    pub fn request_with(&self, method: &str, path: &str, body: &[u8], headers: &[(&str, &str)]) -> Answer {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).expect("the room answers");
        http_with(stream, self.port, (method, path), body, headers)
    }

    /// Posts `pack` with the room's code, as one laptop does: with the seat token the room
    /// handed its label before, keeping the one it hands now.
    pub fn upload(&self, pack: &[u8]) -> (u16, String) {
        let label = label_of(pack);
        let token = label.as_ref().and_then(|label| self.tokens.lock().unwrap().get(label).cloned());
        let headers: Vec<(&str, &str)> = token.iter().map(|token| ("X-Seat-Token", token.as_str())).collect();
        let answer = self.request_with("POST", &format!("/runs?code={CODE}"), pack, &headers);
        // Kept under the label sent and the label the room shows it as (composed, trimmed).
        let shown =
            answer.body.strip_prefix("stored as ").and_then(|rest| rest.split_once(" (")).map(|(shown, _)| shown);
        if let Some(token) = answer.header("x-seat-token") {
            for label in label.iter().map(String::as_str).chain(shown) {
                self.tokens.lock().unwrap().insert(label.to_string(), token.clone());
            }
        }
        (answer.status, answer.body)
    }

    /// The seat token this test's laptop holds for `seat`.
    pub fn token(&self, seat: &str) -> Option<String> {
        self.tokens.lock().unwrap().get(seat).cloned()
    }

    /// Posts `seat`'s guesses (`effect=figure` pairs) with the room's code, as one laptop
    /// does: with the seat's token if it holds one, keeping the one the room hands out.
    pub fn guess(&self, seat: &str, pairs: &str) -> (u16, String) {
        let token = self.tokens.lock().unwrap().get(seat).cloned();
        let headers: Vec<(&str, &str)> = token.iter().map(|token| ("X-Seat-Token", token.as_str())).collect();
        let answer =
            self.request_with("POST", &format!("/guesses?code={CODE}&seat={seat}"), pairs.as_bytes(), &headers);
        if let Some(token) = answer.header("x-seat-token") {
            self.tokens.lock().unwrap().insert(seat.to_string(), token);
        }
        (answer.status, answer.body)
    }

    /// The files the room keeps (not the staging folder).
    pub fn kept(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| !name.starts_with('.'))
            .collect();
        names.sort();
        names
    }

    /// `GET /runs`, parsed.
    pub fn runs(&self) -> serde_json::Value {
        let (status, body) = self.request("GET", "/runs", b"");
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.interrupt_and_wait().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn port_or_panic(child: &mut Child, port: &Result<u16, std::sync::mpsc::RecvTimeoutError>) -> u16 {
    match port {
        Ok(port) => *port,
        Err(_) => {
            let _ = child.kill();
            panic!("the room printed no address within 30 s: {:?}", child.wait());
        }
    }
}

/// The run label a pack's manifest gives (a test's packs are written pretty).
pub fn label_of(pack: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(pack);
    let after = text.split_once("\"label\": \"")?.1;
    Some(after.split_once('"')?.0.to_string())
}

/// An answer: its status, head and body.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Answer {
    /// The value of header `name` (lowercase), if the answer has it.
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|line| {
            let (header, value) = line.split_once(':')?;
            header.trim().eq_ignore_ascii_case(name).then(|| value.trim().to_string())
        })
    }
}

/// One request with extra `headers` on `stream`, connected to the room at `port`.
pub fn http_with(
    mut stream: TcpStream,
    port: u16,
    (method, path): (&str, &str),
    body: &[u8],
    headers: &[(&str, &str)],
) -> Answer {
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let extra: String = headers.iter().map(|(name, value)| format!("{name}: {value}\r\n")).collect();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body));
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("an HTTP answer with a head");
    let head = String::from_utf8_lossy(&answer[..split]).into_owned();
    let status = head.split(' ').nth(1).and_then(|code| code.parse().ok()).expect("a status code");
    Answer { status, head, body: String::from_utf8_lossy(&answer[split + 4..]).into_owned() }
}

/// One HTTP/1.1 request on its own connection; a write the server cut short (it answered
/// before reading the body) still yields its answer.
pub fn http(port: u16, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
    http_on(TcpStream::connect(("127.0.0.1", port)).expect("the room answers"), port, method, path, body)
}

/// [`http`] on `stream`, connected to the room at `port`.
pub fn http_on(mut stream: TcpStream, port: u16, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body));
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("an HTTP answer with a head");
    let status_line = String::from_utf8_lossy(&answer[..split]).lines().next().unwrap_or("").to_string();
    let status = status_line.split(' ').nth(1).and_then(|code| code.parse().ok()).expect("a status code");
    (status, answer[split + 4..].to_vec())
}

/// The fixture run packed with `label`, as `contention pack` writes it.
pub fn fixture_pack(label: &str) -> Vec<u8> {
    let run = super::fixture_copy(&format!("pack-{}", label.replace(|c: char| !c.is_ascii_alphanumeric(), "_")));
    let manifest_path = run.join("manifest.json");
    let mut manifest: serde_json::Value = serde_json::from_slice(&std::fs::read(&manifest_path).unwrap()).unwrap();
    manifest["label"] = label.into();
    std::fs::write(&manifest_path, serde_json::to_vec_pretty(&manifest).unwrap()).unwrap();
    let pack = run.with_extension("contention-pack");
    let output = super::contention(&["pack", run.to_str().unwrap(), "--out", pack.to_str().unwrap()]);
    assert!(output.status.success(), "{}", super::stderr(&output));
    std::fs::read(pack).unwrap()
}

/// The server's peak resident memory (VmHWM) in KiB.
pub fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|line| line.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// A connection to 127.0.0.1:`port` from the loopback address `source` (127.0.0.2 is
/// another client to the room), bound before it connects.
#[cfg(target_os = "linux")]
pub fn connect_from(source: [u8; 4], port: u16) -> std::io::Result<TcpStream> {
    use std::os::fd::FromRawFd;
    let address = |ip: [u8; 4], port: u16| {
        // SAFETY: sockaddr_in is plain data, valid all zeroes.
        let mut address: libc::sockaddr_in = unsafe { std::mem::zeroed() };
        address.sin_family = libc::AF_INET as libc::sa_family_t;
        address.sin_port = port.to_be();
        address.sin_addr.s_addr = u32::from_ne_bytes(ip);
        address
    };
    let (local, room) = (address(source, 0), address([127, 0, 0, 1], port));
    let size = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
    // SAFETY: a new socket, owned by the TcpStream made of it at once (which closes it).
    let stream = unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        TcpStream::from_raw_fd(fd)
    };
    use std::os::fd::AsRawFd;
    // SAFETY: the addresses live on this stack frame for the calls; `size` is their size.
    let bound = unsafe {
        let fd = stream.as_raw_fd();
        libc::bind(fd, (&local as *const libc::sockaddr_in).cast(), size) == 0
            && libc::connect(fd, (&room as *const libc::sockaddr_in).cast(), size) == 0
    };
    if !bound {
        return Err(std::io::Error::last_os_error());
    }
    Ok(stream)
}

/// The server's resident memory now (VmRSS) and the files it holds open.
pub fn rss_kib_and_open_files(pid: u32) -> (u64, usize) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|line| line.starts_with("VmRSS:")).unwrap();
    let rss = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    (rss, std::fs::read_dir(format!("/proc/{pid}/fd")).unwrap().count())
}
