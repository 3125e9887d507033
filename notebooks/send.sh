#!/usr/bin/env bash
# Sends a notebook's experiments to the workshop's room under the student's label: each
# notebook's last cell runs `bash send.sh EXPERIMENT...`. The lib does no HTTP (its layers
# point one way), so this runs the `contention` CLI: a quick run of those experiments, saved
# under data/runs/ and posted to the room (`run --send`, see the README's room section).
#
# The room comes from the environment, set before starting Jupyter (the instructor gives the
# address and code):
#   CONTENTION_ROOM=http://192.168.1.20:8765 CONTENTION_CODE=k7m3qx CONTENTION_LABEL=seat-12 just notebooks
# Without CONTENTION_ROOM it sends nothing and says so (exit 0: a notebook run at home is fine).
# CONTENTION_BIN names the CLI to run (by default `contention` on PATH, else `cargo run`);
# CONTENTION_OUT the folder that receives the run (default data/runs, from the repository root).
set -euo pipefail
if [ "$#" -eq 0 ]; then
    echo "usage: bash notebooks/send.sh EXPERIMENT... (the experiments the notebook measures)" >&2
    exit 2
fi
if [ -z "${CONTENTION_ROOM:-}" ]; then
    echo "Not sent: no room is set. To send this notebook's experiments ($*) to the room, start Jupyter with"
    echo "CONTENTION_ROOM=<the room's URL> CONTENTION_CODE=<its code> CONTENTION_LABEL=<your seat> set, and run this cell again."
    exit 0
fi
missing=()
[ -n "${CONTENTION_CODE:-}" ] || missing+=(CONTENTION_CODE)
[ -n "${CONTENTION_LABEL:-}" ] || missing+=(CONTENTION_LABEL)
if [ "${#missing[@]}" -gt 0 ]; then
    echo "Not sent: CONTENTION_ROOM is $CONTENTION_ROOM but ${missing[*]} is not set (the room's code and your seat, e.g. seat-12)."
    exit 1
fi
cd "$(dirname "$0")/.."
if [ -n "${CONTENTION_BIN:-}" ]; then
    cli=("$CONTENTION_BIN")
elif command -v contention > /dev/null; then
    cli=(contention)
else
    cli=(cargo run --release --quiet -p contention-report --)
fi
# The CLI's own messages (a refusal, the line that sends again) go to stdout: the notebook shows them.
exec "${cli[@]}" run "$@" --quick --out "${CONTENTION_OUT:-data/runs}" --label "$CONTENTION_LABEL" --send "$CONTENTION_ROOM" --code "$CONTENTION_CODE" 2>&1
