#!/usr/bin/env bash
# Sets up the notebooks (notebooks/setup.sh) and starts Jupyter Lab on this folder. Extra
# arguments go to `jupyter lab` (e.g. --no-browser --port 8899).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/../.venv"
bash "$here/setup.sh"
export JUPYTER_PATH="$venv/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
as_root=()
[ "$(id -u)" -ne 0 ] || as_root=(--allow-root)
cd "$here"
exec "$venv/bin/jupyter" lab "${as_root[@]}" "$@"
