"""Sets up the notebooks on this machine, from any shell on Linux, macOS or Windows
(`python3 notebooks/setup.py`; on Windows `py notebooks\\setup.py`); safe to run again, each
step is skipped when done:
  1. evcxr_jupyter 0.22.0, the Rust kernel: downloaded prebuilt by cargo-binstall where it is
     installed and the release has a build for this machine (seconds, with internet access),
     else compiled by `cargo install --locked` (about 6.5 minutes on 2 CPUs; CI's path),
  2. rustup's rust-src component (evcxr's completions and type hints need it),
  3. Jupyter in the project-local virtual environment .venv (notebooks/requirements.txt),
  4. the kernel registered inside .venv (share/jupyter/kernels/rust), not in the user's
     global Jupyter folder, started through notebooks/kernel.py (a build folder each kernel
     keeps for the next); notebooks/lab.py and notebooks/check.py put it first in
     JUPYTER_PATH so it wins over any other "rust" kernel,
  5. the lab's lib compiled into the build folder the next kernel gets (notebook 00's setup
     cell, shared by every notebook, run headlessly), so the reader's first notebook starts in
     seconds. It runs every time (about 25 s when nothing changed: a kernel starts and stops).
An evcxr_jupyter already installed at another version is used as it is (the script says
so); `--install-evcxr` replaces it by 0.22.0, the version the notebooks are checked with.
`--plan` prints what it would do, and does nothing.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
EVCXR_VERSION = "0.22.0"
CRATES = 270  # what `cargo install` compiles for it on Linux
WINDOWS = os.name == "nt"
EXE = ".exe" if WINDOWS else ""
KERNEL_DIR = VENV / "share" / "jupyter" / "kernels" / "rust"
# Notebook 06 and its solutions name this kernel: the same kernel, building in folders of its
# own (kernel.py --folders), so polars never enters 00-05's build folder.
CLASS_KERNEL_DIR = VENV / "share" / "jupyter" / "kernels" / "rust-class-table"
LAUNCHER = ROOT / "notebooks" / "kernel.py"


def venv_python():
    return VENV / ("Scripts/python.exe" if WINDOWS else "bin/python")


def step(text):
    print(f"== {text}", flush=True)


def took(since):
    seconds = int(time.monotonic() - since)
    return f"{seconds // 60}m{seconds % 60:02d}s"


def output(*command):
    """A command's stdout, or "" when it cannot run or fails."""
    try:
        return subprocess.run(command, capture_output=True, text=True, check=False).stdout
    except OSError:
        return ""


def without_target_dir():
    """The environment minus CARGO_TARGET_DIR: a shared one would keep evcxr's build beside the project's."""
    env = dict(os.environ)
    env.pop("CARGO_TARGET_DIR", None)
    return env


class State:
    """What is already in place, read once before anything is done."""

    def __init__(self, install_evcxr):
        cargo_home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
        listed = re.search(r"^evcxr_jupyter v([^ :]+)", output("cargo", "install", "--list"), re.MULTILINE)
        self.cargo_version = listed.group(1) if listed else ""
        self.evcxr = str(cargo_home / "bin" / f"evcxr_jupyter{EXE}") if listed else shutil.which("evcxr_jupyter")
        if install_evcxr and self.cargo_version != EVCXR_VERSION:
            self.evcxr = None
        self.has_rust_src = bool(re.search(r"^rust-src", output("rustup", "component", "list", "--installed"), re.M))
        self.has_binstall = bool(output("cargo", "binstall", "-V"))
        stamp = VENV / ".notebooks-requirements.txt"
        requirements = (ROOT / "notebooks" / "requirements.txt").read_bytes()
        self.jupyter_current = stamp.is_file() and stamp.read_bytes() == requirements
        self.cargo_home = cargo_home

    def registered(self):
        try:
            argv = json.loads((KERNEL_DIR / "kernel.json").read_text())["argv"]
        except (OSError, ValueError, KeyError):
            return False
        try:
            class_argv = json.loads((CLASS_KERNEL_DIR / "kernel.json").read_text())["argv"]
        except (OSError, ValueError, KeyError):
            return False
        return all(str(LAUNCHER) in spec and self.evcxr in spec for spec in (argv, class_argv))


def plan(state):
    line = lambda what, cost: print(f"   {what:<44} {cost}")  # noqa: E731
    step("setting up the notebooks (times measured on a 2-CPU machine)")
    kernel = f"1. evcxr_jupyter {EVCXR_VERSION} (the Rust kernel)"
    if not state.evcxr and state.has_binstall:
        line(kernel, "cargo binstall: a download, else cargo install (~6.5 min)")
    elif not state.evcxr:
        line(kernel, "cargo install: about 6.5 minutes, once")
    elif state.cargo_version == EVCXR_VERSION:
        line(f"1. evcxr_jupyter {EVCXR_VERSION}", "installed")
    else:
        line(f"1. evcxr_jupyter {state.cargo_version or 'of unknown version'}", f"installed at {state.evcxr}: using it")
    line("2. rustup's rust-src", "present" if state.has_rust_src else "a few seconds, once")
    line("3. Jupyter in .venv", "up to date" if state.jupyter_current else "pip: about 20 s, once")
    line("4. the kernel registered in .venv", "registered" if state.evcxr and state.registered() else "under a second")
    line("5. the lab's lib built for the notebooks", "about 2 minutes the first time, 25 s after")
    line("then each notebook's setup cell", "seconds")


def install_evcxr(state):
    if not state.evcxr and state.has_binstall:
        step(f"1. downloading evcxr_jupyter {EVCXR_VERSION} prebuilt (cargo binstall)")
        began = time.monotonic()
        # Its own fallback (compiling) is off: a failed download falls through to cargo install.
        command = ["cargo", "binstall", "--no-confirm", "--disable-strategies", "compile"]
        if subprocess.run([*command, f"evcxr_jupyter@{EVCXR_VERSION}"], env=without_target_dir()).returncode == 0:
            state.evcxr, state.cargo_version = str(state.cargo_home / "bin" / f"evcxr_jupyter{EXE}"), EVCXR_VERSION
            step(f"   evcxr_jupyter {EVCXR_VERSION} downloaded in {took(began)}")
        else:
            step(f"   no prebuilt evcxr_jupyter {EVCXR_VERSION} for this machine: compiling it instead")
    if not state.evcxr:
        step(f"1. installing evcxr_jupyter {EVCXR_VERSION} (about 6.5 minutes on 2 CPUs; progress below)")
        began = time.monotonic()
        compile_evcxr(began)
        state.evcxr = str(state.cargo_home / "bin" / f"evcxr_jupyter{EXE}")
        step(f"   evcxr_jupyter {EVCXR_VERSION} installed in {took(began)}")
    elif state.cargo_version != EVCXR_VERSION:
        step(
            f"1. using evcxr_jupyter {state.cargo_version or 'of unknown version'} ({state.evcxr}); the notebooks "
            f"are checked with {EVCXR_VERSION}: `python3 notebooks/setup.py --install-evcxr` installs it (~6.5 min)"
        )


def compile_evcxr(began):
    """`cargo install`: a terminal gets cargo's own bar; a log or a pipe gets each of cargo's
    lines with the time so far and which crate of about CRATES it is compiling."""
    command = ["cargo", "install", "--locked", f"evcxr_jupyter@{EVCXR_VERSION}"]
    if sys.stderr.isatty():
        subprocess.run(command, env=without_target_dir(), check=True)
        return
    crate = 0
    with subprocess.Popen(
        command, env=without_target_dir(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    ) as cargo:
        for line in cargo.stdout:
            count = ""
            if "Compiling" in line:
                crate += 1
                count = f" crate {crate} of ~{CRATES}:"
            print(f"   [{took(began)}]{count} {line.strip()}", flush=True)
    if cargo.returncode != 0:
        sys.exit(f"setup.py: cargo install evcxr_jupyter failed (exit {cargo.returncode}): see its lines above")


def install_jupyter():
    if not venv_python().exists():
        step(f"3. creating {VENV}")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    step(f"3. installing Jupyter into {VENV}")
    requirements = ROOT / "notebooks" / "requirements.txt"
    pip = [str(venv_python()), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "-r", str(requirements)], check=True)
    shutil.copyfile(requirements, VENV / ".notebooks-requirements.txt")


def register_kernel(evcxr):
    step(f"4. registering the evcxr kernel in {KERNEL_DIR}")
    # evcxr_jupyter --install writes to $JUPYTER_PATH/kernels/rust when JUPYTER_PATH is set;
    # kernel.py goes in front of it, run by the venv's Python (no shell on any OS).
    env = dict(os.environ, JUPYTER_PATH=str(VENV / "share" / "jupyter"))
    subprocess.run([evcxr, "--install"], env=env, check=True, stdout=subprocess.DEVNULL)
    spec_path = KERNEL_DIR / "kernel.json"
    spec = json.loads(spec_path.read_text())
    evcxr_argv = spec["argv"]
    spec["argv"] = [str(venv_python()), str(LAUNCHER), *evcxr_argv]
    spec_path.write_text(json.dumps(spec, indent=2))
    step(f"   and the class-table kernel (notebook 06, polars) in {CLASS_KERNEL_DIR}")
    CLASS_KERNEL_DIR.mkdir(parents=True, exist_ok=True)
    spec["argv"] = [str(venv_python()), str(LAUNCHER), "--folders", "class-table", *evcxr_argv]
    spec["display_name"] = spec.get("display_name", "Rust") + " (class table, polars)"
    (CLASS_KERNEL_DIR / "kernel.json").write_text(json.dumps(spec, indent=2))


def main():
    parser = argparse.ArgumentParser(description="Set up the notebooks: the Rust kernel, Jupyter, the lib's build.")
    parser.add_argument("--install-evcxr", action="store_true", help=f"replace another version by {EVCXR_VERSION}")
    parser.add_argument("--plan", action="store_true", help="print what would be done, and do nothing")
    args = parser.parse_args()
    started = time.monotonic()
    for tool in ("cargo", "rustup"):
        if not shutil.which(tool):
            sys.exit(f"setup.py: no `{tool}` on PATH: install Rust with rustup first (docs/setup.md), then open a new terminal")
    state = State(args.install_evcxr)
    plan(state)
    if args.plan:
        return
    install_evcxr(state)
    if not state.has_rust_src:
        step("2. adding rustup's rust-src component")
        subprocess.run(["rustup", "component", "add", "rust-src"], check=True)
    if not state.jupyter_current:
        install_jupyter()
    if not state.registered():
        register_kernel(state.evcxr)
    step("5. building the lab's lib for the notebooks (about 2 minutes the first time on 2 CPUs)")
    began = time.monotonic()
    subprocess.run([str(venv_python()), str(ROOT / "notebooks" / "check.py"), "--warm-up"], check=True)
    step(f"   built in {took(began)}")
    step(f"notebooks ready in {took(started)}: kernel rust in {KERNEL_DIR}")


if __name__ == "__main__":
    try:
        main()
    except subprocess.CalledProcessError as error:
        sys.exit(f"setup.py: `{' '.join(map(str, error.cmd))}` failed (exit {error.returncode}): see above")
