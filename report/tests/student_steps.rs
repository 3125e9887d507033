//! No student step needs bash: setup, starting Jupyter, the laptop check, sending to the room
//! and the kernel's launcher each run here from `sh` (dash on Debian), with a PATH that holds
//! only `contention`, `python3`, `cargo` and `rustup`: no bash anywhere on it. The steps are
//! the handout's and the notebooks' (`python3 notebooks/setup.py`, `python3 notebooks/lab.py`,
//! `contention check`, `contention send`); the long ones (compiling the kernel, starting
//! Jupyter) are checked through their `--plan`, which reads the machine the same way.
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::room::{Server, CODE};
use common::scratch;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Where `tool` is on this machine's PATH.
fn which(tool: &str) -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|dir| dir.join(tool))
        .find(|path| path.is_file())
        .unwrap_or_else(|| panic!("no {tool} on PATH"))
}

/// The Python interpreter itself: `python3` on PATH may be a shell script (pyenv's shim).
fn python() -> PathBuf {
    let output = Command::new(which("python3")).args(["-c", "import sys; print(sys.executable)"]).output().unwrap();
    PathBuf::from(common::stdout(&output).trim())
}

/// A folder holding links to the tools a student's steps call, and nothing else.
fn bin_without_bash(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_contention"), bin.join("contention")).unwrap();
    std::os::unix::fs::symlink(python(), bin.join("python3")).unwrap();
    for tool in ["cargo", "rustup"] {
        std::os::unix::fs::symlink(which(tool), bin.join(tool)).unwrap();
    }
    bin
}

/// Runs `line` with `/bin/sh -c` in the repository root, PATH set to `bin` alone.
fn sh(line: &str, bin: &Path, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new("/bin/sh");
    command.args(["-c", line]).current_dir(root()).env_clear().env("PATH", bin);
    for name in ["HOME", "CARGO_HOME", "RUSTUP_HOME", "TMPDIR"] {
        if let Some(value) = std::env::var_os(name) {
            command.env(name, value);
        }
    }
    command.envs(env.iter().copied()).output().unwrap()
}

fn said(output: &Output) -> String {
    format!("{}\n{}", common::stdout(output), common::stderr(output))
}

#[test]
fn no_bash_is_on_the_path_the_steps_run_with() {
    let dir = scratch("steps-no-bash");
    let bin = bin_without_bash(&dir);
    let output = sh("command -v bash", &bin, &[]);
    assert!(!output.status.success(), "bash was found: {}", said(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn setup_and_starting_jupyter_plan_their_steps_without_bash() {
    let dir = scratch("steps-setup");
    let bin = bin_without_bash(&dir);
    let output = sh("python3 notebooks/setup.py --plan", &bin, &[]);
    assert!(output.status.success(), "{}", said(&output));
    let text = common::stdout(&output);
    for step in ["1. evcxr_jupyter", "2. rustup's rust-src", "3. Jupyter in .venv", "5. the lab's lib"] {
        assert!(text.contains(step), "setup.py's plan has no step {step}: {text}");
    }
    let line = "python3 notebooks/lab.py --plan --room http://127.0.0.1:9 --code k7m3qx --label seat-12 --no-browser";
    let output = sh(line, &bin, &[]);
    assert!(output.status.success(), "{}", said(&output));
    let text = common::stdout(&output);
    assert!(
        text.contains("CONTENTION_ROOM=http://127.0.0.1:9, CONTENTION_CODE=k7m3qx, CONTENTION_LABEL=seat-12"),
        "{text}"
    );
    assert!(text.contains("jupyter lab --no-browser"), "lab.py passes Jupyter's own flags on: {text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_laptop_check_and_sending_run_without_bash() {
    let dir = scratch("steps-send");
    let bin = bin_without_bash(&dir);
    let output = sh("contention check", &bin, &[]);
    let text = said(&output);
    assert!(text.contains("[ok] build") && text.contains("kernel settings"), "{text}");
    assert!(text.contains("\nready\n") || text.contains("not ready: fix"), "the check ends with its verdict: {text}");

    let room = Server::start(&dir.join("room"), &[]);
    let url = room.url();
    let out = dir.join("runs");
    let line = format!("contention send stride --out '{}'", out.display());
    let env = [("CONTENTION_ROOM", url.as_str()), ("CONTENTION_CODE", CODE), ("CONTENTION_LABEL", "seat-sh")];
    let output = sh(&line, &bin, &env);
    assert!(output.status.success(), "{}", said(&output));
    let runs = room.runs();
    assert_eq!(runs["runs"][0]["label"], "seat-sh", "the run reached the room: {runs}");
    room.stop();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stand-in for evcxr_jupyter: says which build folder it was given, then waits for its
/// standard input to close (as a kernel lives until Jupyter stops it).
const FAKE_KERNEL: &str =
    "import os, sys\nprint(os.environ.get('EVCXR_TMPDIR', 'none'), flush=True)\nsys.stdin.read()\n";

#[test]
fn the_kernel_launcher_gives_each_running_kernel_its_own_build_folder_without_bash() {
    let dir = scratch("steps-kernel");
    let bin = bin_without_bash(&dir);
    let fake = dir.join("fake_kernel.py");
    std::fs::write(&fake, FAKE_KERNEL).unwrap();
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let start = || {
        let line = format!("exec python3 notebooks/kernel.py \"$(command -v python3)\" '{}'", fake.display());
        Command::new("/bin/sh")
            .args(["-c", &line])
            .current_dir(root())
            .env_clear()
            .env("PATH", &bin)
            .env("TMPDIR", &tmp)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let first_line = |child: &mut std::process::Child| {
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.as_mut().unwrap()), &mut line).unwrap();
        line.trim().to_string()
    };
    let mut first = start();
    let mut second = start();
    let folders = [first_line(&mut first), first_line(&mut second)];
    assert!(folders.iter().all(|folder| folder.contains("contention-notebooks-")), "{folders:?}");
    assert_ne!(folders[0], folders[1], "two kernels running at once share no build folder");
    drop(first.stdin.take());
    first.wait().unwrap();
    // The first kernel has ended: its folder is free again, and the next kernel takes it.
    let mut third = start();
    let freed = first_line(&mut third);
    assert!(folders.contains(&freed) && freed != folders[1], "{freed} after {folders:?}");
    for mut child in [second, third] {
        drop(child.stdin.take());
        child.wait().unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
