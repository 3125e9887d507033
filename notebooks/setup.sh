#!/usr/bin/env bash
# Sets up the notebooks on this machine; safe to run again (each step is skipped when done):
#   1. evcxr_jupyter 0.22.0, the Rust kernel: downloaded prebuilt by cargo-binstall where it is
#      installed and the release has a build for this machine (seconds, with internet access),
#      else compiled by `cargo install --locked` (about 6.5 minutes on 2 CPUs; CI's path),
#   2. rustup's rust-src component (evcxr's completions and type hints need it),
#   3. Jupyter in the project-local virtual environment .venv (notebooks/requirements.txt),
#   4. the kernel registered inside .venv (share/jupyter/kernels/rust), not in the user's
#      global Jupyter folder; notebooks/lab.sh and notebooks/check.py put it first in
#      JUPYTER_PATH so it wins over any other "rust" kernel,
#   5. the lab's lib compiled into the build folder the next kernel gets (notebook 00's setup
#      cell, shared by every notebook, run headlessly), so the reader's first notebook starts in
#      seconds. It runs every time (about 25 s when nothing changed: a kernel starts and stops).
# An evcxr_jupyter already installed at another version is used as it is (the script says
# so); `--install-evcxr` replaces it by 0.22.0, the version the notebooks are checked with.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv"
evcxr_version=0.22.0
crates=270 # what `cargo install` compiles for it on Linux
usage="usage: bash notebooks/setup.sh [--install-evcxr]"
install_evcxr=false
for arg in "$@"; do
    case "$arg" in
        --install-evcxr) install_evcxr=true ;;
        -h | --help) echo "$usage"; exit 0 ;;
        *) echo "setup.sh: unknown option '$arg' ($usage)" >&2; exit 2 ;;
    esac
done
started=$SECONDS
step() { printf '== %s\n' "$*"; }
took() { local s=$((SECONDS - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

# Which evcxr_jupyter to use: the checked version, another one already installed, or none yet.
cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
cargo_version="$(cargo install --list | sed -n 's/^evcxr_jupyter v\([^ :]*\).*/\1/p')"
evcxr="$cargo_bin/evcxr_jupyter"
[ -n "$cargo_version" ] || evcxr="$(command -v evcxr_jupyter || true)"
if [ "$install_evcxr" = true ] && [ "$cargo_version" != "$evcxr_version" ]; then
    evcxr=""
fi
has_rust_src=false
rustup component list --installed 2>/dev/null | grep -q '^rust-src' && has_rust_src=true
jupyter_current=false
cmp -s "$root/notebooks/requirements.txt" "$venv/.notebooks-requirements.txt" && jupyter_current=true

# The plan first, with what each step costs on a small machine (2 CPUs, a fresh laptop).
plan() { printf '   %-44s %s\n' "$1" "$2"; }
step "setting up the notebooks (times measured on a 2-CPU machine)"
has_binstall=false
cargo binstall -V >/dev/null 2>&1 && has_binstall=true
if [ -z "$evcxr" ] && $has_binstall; then
    plan "1. evcxr_jupyter $evcxr_version (the Rust kernel)" "cargo binstall: a download, else cargo install (~6.5 min)"
elif [ -z "$evcxr" ]; then
    plan "1. evcxr_jupyter $evcxr_version (the Rust kernel)" "cargo install: about 6.5 minutes, once"
elif [ "$cargo_version" = "$evcxr_version" ]; then
    plan "1. evcxr_jupyter $evcxr_version" "installed"
else
    plan "1. evcxr_jupyter ${cargo_version:-of unknown version}" "installed at $evcxr: using it"
fi
plan "2. rustup's rust-src" "$($has_rust_src && echo present || echo 'a few seconds, once')"
plan "3. Jupyter in .venv" "$($jupyter_current && echo 'up to date' || echo 'pip: about 20 s, once')"
kernel_dir="$venv/share/jupyter/kernels/rust"
launcher="$root/notebooks/kernel.sh"
registered() { grep -qF "\"$launcher\"" "$kernel_dir/kernel.json" 2>/dev/null && grep -qF "\"$evcxr\"" "$kernel_dir/kernel.json"; }
plan "4. the kernel registered in .venv" "$(registered && echo registered || echo 'under a second')"
plan "5. the lib built for the notebooks" "about 2 minutes the first time, 25 s after"
plan "then each notebook's setup cell" "seconds"

# A prebuilt kernel where cargo-binstall can fetch one; its own fallback (compiling) is off,
# so a failed download falls through to the plain `cargo install` below, the path CI takes.
if [ -z "$evcxr" ] && $has_binstall; then
    step "1. downloading evcxr_jupyter $evcxr_version prebuilt (cargo binstall)"
    began=$SECONDS
    if env -u CARGO_TARGET_DIR cargo binstall --no-confirm --disable-strategies compile "evcxr_jupyter@$evcxr_version"; then
        evcxr="$cargo_bin/evcxr_jupyter" cargo_version="$evcxr_version"
        step "   evcxr_jupyter $evcxr_version downloaded in $(took "$began")"
    else
        step "   no prebuilt evcxr_jupyter $evcxr_version for this machine: compiling it instead"
    fi
fi
if [ -z "$evcxr" ]; then
    step "1. installing evcxr_jupyter $evcxr_version (about 6.5 minutes on 2 CPUs; progress below)"
    began=$SECONDS
    # A shared CARGO_TARGET_DIR would keep evcxr's build artifacts beside the project's.
    install=(env -u CARGO_TARGET_DIR cargo install --locked "evcxr_jupyter@$evcxr_version")
    if [ -t 2 ]; then
        "${install[@]}" # a terminal: cargo draws its own bar (crates built / to build)
    else
        # A log or a pipe gets no bar: each line of cargo's, with the time so far and which
        # crate of about $crates it is compiling.
        crate=0
        "${install[@]}" 2>&1 | while IFS= read -r line; do
            count=""
            case "$line" in *Compiling*) crate=$((crate + 1)) count=" crate $crate of ~$crates:" ;; esac
            printf '   [%s]%s %s\n' "$(took "$began")" "$count" "${line#"${line%%[! ]*}"}"
        done
    fi
    evcxr="$cargo_bin/evcxr_jupyter"
    step "   evcxr_jupyter $evcxr_version installed in $(took "$began")"
elif [ "$cargo_version" != "$evcxr_version" ]; then
    step "1. using evcxr_jupyter ${cargo_version:-of unknown version} ($evcxr); the notebooks are" \
        "checked with $evcxr_version: \`bash notebooks/setup.sh --install-evcxr\` installs it (~6.5 min)"
fi

if ! $has_rust_src; then
    step "2. adding rustup's rust-src component"
    rustup component add rust-src
fi

if ! $jupyter_current; then
    [ -x "$venv/bin/python" ] || { step "3. creating $venv"; python3 -m venv "$venv"; }
    step "3. installing Jupyter into $venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$root/notebooks/requirements.txt"
    cp "$root/notebooks/requirements.txt" "$venv/.notebooks-requirements.txt"
fi

if ! registered; then
    step "4. registering the evcxr kernel in $kernel_dir"
    # evcxr_jupyter --install writes to $JUPYTER_PATH/kernels/rust when JUPYTER_PATH is set;
    # then kernel.sh goes in front of it (a build folder each kernel keeps for the next).
    JUPYTER_PATH="$venv/share/jupyter" "$evcxr" --install >/dev/null
    "$venv/bin/python" - "$kernel_dir/kernel.json" "$launcher" <<'PYTHON'
import json, sys
path, launcher = sys.argv[1:]
spec = json.load(open(path))
spec["argv"] = ["bash", launcher, *spec["argv"]]
json.dump(spec, open(path, "w"), indent=2)
PYTHON
fi
# Notebook 06 and its solutions name the kernel rust-class-table: the same kernel, building
# in folders of its own (kernel.sh --folders), so polars never enters 00-05's build folder.
class_kernel_dir="$venv/share/jupyter/kernels/rust-class-table"
if ! grep -qF '"--folders"' "$class_kernel_dir/kernel.json" 2>/dev/null || ! grep -qF "\"$evcxr\"" "$class_kernel_dir/kernel.json"; then
    step "4. registering the class-table kernel (notebook 06, polars) in $class_kernel_dir"
    mkdir -p "$class_kernel_dir"
    "$venv/bin/python" - "$kernel_dir/kernel.json" "$class_kernel_dir/kernel.json" <<'PYTHON'
import json, sys
source, target = sys.argv[1:]
spec = json.load(open(source))
spec["argv"] = spec["argv"][:2] + ["--folders", "class-table"] + spec["argv"][2:]
spec["display_name"] = spec.get("display_name", "Rust") + " (class table, polars)"
json.dump(spec, open(target, "w"), indent=2)
PYTHON
fi
step "5. building the lab's lib for the notebooks (about 2 minutes the first time on 2 CPUs)"
began=$SECONDS
"$venv/bin/python" "$root/notebooks/check.py" --warm-up
step "   built in $(took "$began")"
kernel="$(JUPYTER_PATH="$venv/share/jupyter" "$venv/bin/jupyter" kernelspec list | grep -w rust | xargs)"
step "notebooks ready in $(took "$started"): kernel $kernel"
