"""Sets up the notebooks (notebooks/setup.py) and starts Jupyter Lab on this folder, from any
shell on Linux, macOS or Windows: `python3 notebooks/lab.py` (on Windows `py notebooks\\lab.py`).
With the workshop's room given (`--room URL --code CODE --label SEAT`, as the instructor
says), each notebook's last cell sends its run there (`contention send`); the same three can
be set as CONTENTION_ROOM, CONTENTION_CODE and CONTENTION_LABEL instead. Other arguments go
to `jupyter lab` (e.g. --no-browser --port 8899). `--plan` prints what it would do.
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE.parent / ".venv"
ROOM_VARIABLES = {"room": "CONTENTION_ROOM", "code": "CONTENTION_CODE", "label": "CONTENTION_LABEL"}


def main():
    parser = argparse.ArgumentParser(description="Set up the notebooks and start Jupyter Lab on them.")
    parser.add_argument("--room", metavar="URL", help="the workshop's room, as the instructor gives it")
    parser.add_argument("--code", metavar="CODE", help="the room's code")
    parser.add_argument("--label", metavar="SEAT", help="your seat, e.g. seat-12")
    parser.add_argument("--plan", action="store_true", help="print what would be done, and do nothing")
    args, jupyter_args = parser.parse_known_args()
    env = dict(os.environ)
    for name, variable in ROOM_VARIABLES.items():
        if getattr(args, name):
            env[variable] = getattr(args, name)
    jupyter_path = [str(VENV / "share" / "jupyter"), os.environ.get("JUPYTER_PATH")]
    env["JUPYTER_PATH"] = os.pathsep.join(filter(None, jupyter_path))
    jupyter = VENV / ("Scripts/jupyter.exe" if os.name == "nt" else "bin/jupyter")
    command = [str(jupyter), "lab", *jupyter_args]
    if hasattr(os, "getuid") and os.getuid() == 0:
        command.append("--allow-root")  # Jupyter refuses root without it (a container, CI)
    setup = [sys.executable, str(HERE / "setup.py")] + (["--plan"] if args.plan else [])
    subprocess.run(setup, check=True)
    room = {variable: env[variable] for variable in ROOM_VARIABLES.values() if env.get(variable)}
    print("== the room:", ", ".join(f"{k}={v}" for k, v in room.items()) if room else "none set: the send cells say so")
    print("== starting:", " ".join(command), flush=True)
    if args.plan:
        return
    sys.exit(subprocess.run(command, cwd=HERE, env=env).returncode)


if __name__ == "__main__":
    try:
        main()
    except subprocess.CalledProcessError as error:
        sys.exit(error.returncode)
    except KeyboardInterrupt:
        sys.exit(130)
