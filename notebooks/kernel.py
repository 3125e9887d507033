"""Starts the evcxr kernel (the first argument; the rest are its own) in a build folder that
outlives it, so the next kernel finds the lib already compiled: without one, evcxr builds in
a new temporary folder every time and compiles the lib again (the lib is a path dependency,
which evcxr's `:cache` never keeps). Each running kernel holds its folder through a lock on
a file beside it (the OS lets go when the kernel ends, however it ends), so two notebooks
open at once never share one. With every folder held, evcxr's own temporary folder is used.
notebooks/setup.py registers this script, run by the venv's Python, as the kernel in .venv:
no shell on any OS.
The folders live where evcxr's own would (the system's temporary folder, $TMPDIR on Unix;
they last until it is cleared, usually at a restart): evcxr links each cell with a relative
run path to Rust's standard library, which resolves from there but not from a folder inside
the home folder.
`--folders NAME` (before the evcxr command) names the build folders NAME-0, NAME-1, ...
(default kernel-N): the class-table kernel (notebook 06 and its solutions, with polars)
builds in folders of its own, so polars never enters 00-05's build folder.
"""

import getpass
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SLOTS = 8


def try_lock(file):
    """Takes `file`'s exclusive lock without waiting; False when another process holds it."""
    try:
        if os.name == "nt":
            import msvcrt

            msvcrt.locking(file.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def kernels_folder():
    """This user's folder of build folders, or None where it is someone else's."""
    user = str(os.getuid()) if hasattr(os, "getuid") else getpass.getuser()
    folder = Path(tempfile.gettempdir()) / f"contention-notebooks-{user}"
    folder.mkdir(mode=0o700, exist_ok=True)
    if hasattr(os, "getuid") and folder.stat().st_uid != os.getuid():
        return None  # someone else's folder: never build in it
    return folder


def start(evcxr_argv, build_folder, lock):
    """Runs the kernel, holding `lock` for as long as it runs."""
    env = dict(os.environ)
    if build_folder is not None:
        env["EVCXR_TMPDIR"] = str(build_folder)
    if os.name == "nt":
        # No exec on Windows: wait for the kernel, holding the lock; Jupyter interrupts the
        # kernel through its own event, never through this process.
        sys.exit(subprocess.run(evcxr_argv, env=env).returncode)
    if lock is not None:
        os.set_inheritable(lock.fileno(), True)  # the lock stays with the kernel across exec
    os.execve(evcxr_argv[0], evcxr_argv, env)


def main():
    arguments = sys.argv[1:]
    folders = "kernel"
    if arguments[:1] == ["--folders"] and len(arguments) >= 2:
        folders, arguments = arguments[1], arguments[2:]
    if not arguments:
        sys.exit("usage: kernel.py [--folders NAME] EVCXR_JUPYTER [ITS ARGUMENTS...] (notebooks/setup.py registers it)")
    evcxr_argv = arguments
    kernels = kernels_folder()
    for slot in range(SLOTS if kernels else 0):
        lock = open(kernels / f"{folders}-{slot}.lock", "a+")
        if try_lock(lock):
            build_folder = kernels / f"{folders}-{slot}"
            build_folder.mkdir(exist_ok=True)
            start(evcxr_argv, build_folder, lock)
        lock.close()
    start(evcxr_argv, None, None)


if __name__ == "__main__":
    main()
