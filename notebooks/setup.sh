#!/usr/bin/env bash
# Sets up the notebooks on this machine; safe to run again (each step is skipped when done):
#   1. evcxr_jupyter 0.22.0, the Rust kernel (cargo install --locked: ~9 minutes on 2 CPUs),
#   2. rustup's rust-src component (evcxr's completions and type hints need it),
#   3. Jupyter in the project-local virtual environment .venv (notebooks/requirements.txt),
#   4. the kernel registered inside .venv (share/jupyter/kernels/rust), not in the user's
#      global Jupyter folder; notebooks/lab.sh and notebooks/check.py put it first in
#      JUPYTER_PATH so it wins over any other "rust" kernel.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv"
evcxr_version=0.22.0
step() { printf '== %s\n' "$*"; }

cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
if ! cargo install --list | grep -qx "evcxr_jupyter v$evcxr_version:"; then
    step "installing evcxr_jupyter $evcxr_version (about 9 minutes on 2 CPUs, once)"
    # A shared CARGO_TARGET_DIR would keep evcxr's build artifacts beside the project's.
    env -u CARGO_TARGET_DIR cargo install --locked --quiet "evcxr_jupyter@$evcxr_version"
fi
evcxr="$cargo_bin/evcxr_jupyter"
[ -x "$evcxr" ] || evcxr="$(command -v evcxr_jupyter)"

if ! rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
    step "adding rustup's rust-src component"
    rustup component add rust-src
fi

[ -x "$venv/bin/python" ] || { step "creating $venv"; python3 -m venv "$venv"; }
stamp="$venv/.notebooks-requirements.txt"
if ! cmp -s "$root/notebooks/requirements.txt" "$stamp"; then
    step "installing Jupyter into $venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$root/notebooks/requirements.txt"
    cp "$root/notebooks/requirements.txt" "$stamp"
fi

kernel_dir="$venv/share/jupyter/kernels/rust"
if ! grep -qF "\"$evcxr\"" "$kernel_dir/kernel.json" 2>/dev/null; then
    step "registering the evcxr kernel in $kernel_dir"
    # evcxr_jupyter --install writes to $JUPYTER_PATH/kernels/rust when JUPYTER_PATH is set.
    JUPYTER_PATH="$venv/share/jupyter" "$evcxr" --install >/dev/null
fi
step "notebooks ready: kernel $(JUPYTER_PATH="$venv/share/jupyter" "$venv/bin/jupyter" kernelspec list | grep -w rust | xargs)"
