#!/usr/bin/env bash
# Starts the evcxr kernel (the first argument; the rest are its own) in a build folder that
# outlives it, so the next kernel finds the lib already compiled: without one, evcxr builds
# in a new temporary folder every time and compiles the lib again (the lib is a path
# dependency, which evcxr's `:cache` never keeps). Each running kernel holds its folder
# (a lock directory with its process id), so two notebooks open at once never share one; a
# lock whose kernel has gone is taken over. With every folder held, evcxr's own temporary
# folder is used. notebooks/setup.sh registers this script as the kernel in .venv.
# The folders live where evcxr's own would ($TMPDIR, else /tmp; they last until it is
# cleared, usually at a restart): evcxr links each cell with a relative run path to Rust's
# standard library, which resolves from there but not from a folder inside $HOME.
# `--folders NAME` names the build folders NAME-0, NAME-1, ... (default kernel-N): the
# class-table kernel (notebook 06 and its solutions, with polars) builds in folders of its own.
set -euo pipefail
folders=kernel
if [ "${1:-}" = --folders ]; then
    folders="$2"
    shift 2
fi
evcxr="$1"
shift
kernels="${TMPDIR:-/tmp}/contention-notebooks-$(id -u)"
mkdir -p -m 700 "$kernels"
[ -O "$kernels" ] || exec "$evcxr" "$@" # someone else's folder: never build in it
for slot in 0 1 2 3 4 5 6 7; do
    lock="$kernels/$folders-$slot.lock"
    if ! mkdir "$lock" 2>/dev/null; then
        holder="$(cat "$lock/pid" 2>/dev/null || true)"
        # Held by a live kernel (or one that is writing its pid right now): try the next.
        if [ -z "$holder" ] || kill -0 "$holder" 2>/dev/null; then
            continue
        fi
        rm -rf "$lock"
        mkdir "$lock" 2>/dev/null || continue
    fi
    echo $$ >"$lock/pid" # exec keeps this process id, so the lock lives as long as the kernel
    mkdir -p "$kernels/$folders-$slot"
    EVCXR_TMPDIR="$kernels/$folders-$slot" exec "$evcxr" "$@"
done
exec "$evcxr" "$@"
