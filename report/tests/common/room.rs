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

/// A running room; stopped with SIGINT (Ctrl-C) when dropped.
pub struct Server {
    child: Child,
    pub port: u16,
    pub dir: PathBuf,
    /// Everything the server printed so far.
    pub log: Arc<Mutex<String>>,
}

impl Server {
    /// Starts a room keeping its runs in `dir`, with `extra` flags.
    pub fn start(dir: &Path, extra: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_contention"))
            .args(["room", "serve", "--port", "0", "--code", CODE, "--dir"])
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
        Self { child, port, dir: dir.to_path_buf(), log }
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
        if let Ok(Some(status)) = self.child.try_wait() {
            return Some(status);
        }
        let _ = Command::new("kill").args(["-INT", &self.child.id().to_string()]).stderr(Stdio::null()).status();
        let deadline = Instant::now() + Duration::from_secs(20);
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

    /// Posts `pack` with the room's code.
    pub fn upload(&self, pack: &[u8]) -> (u16, String) {
        self.request("POST", &format!("/runs?code={CODE}"), pack)
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

/// One HTTP/1.1 request on its own connection; a write the server cut short (it answered
/// before reading the body) still yields its answer.
pub fn http(port: u16, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("the room answers");
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
