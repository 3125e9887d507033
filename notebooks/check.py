"""Checks the notebooks: committed with outputs cleared, and each one executes headlessly
with the evcxr kernel without a compile error, panic, failed assertion or error output, and
without skipping a run or experiment it could not read.

evcxr reports a panic as success by default, so the kernel runs with a CI-only config
folder (EVCXR_CONFIG_DIR) whose init.evcxr sets `:preserve_vars_on_panic 0` (a panic then
fails the cell). Warm runs are short because the kernel (notebooks/kernel.py) builds in a
folder it keeps; evcxr's `:cache` is not used: its copies of serde's and thiserror's builds
name a folder that is gone, and every cell then rebuilt them and the lib.
An `Err` returned through `?` only prints to stderr and still "succeeds", so any stderr
output fails the check too, and so does a "Compiling" line after the setup cell, in a cell's
output or in what the kernel wrote to its own stderr while the cell ran (the terminal that
runs Jupyter shows those lines: a later cell rebuilt the lib or a crate). The committed
notebooks are never written to: executed copies go to a temporary folder (or --keep DIR).
Every numbered exercise of a notebook's Exercises cell must have a ready cell (id
`exercise-N`) and a worked answer (id `SOLUTIONS-NN-N`) in the solutions notebook that cell
links to; the solutions notebooks are executed like the others.
Before a notebook is executed, its prediction cells (tagged "prediction", committed unfilled:
`Prediction::new(f64::NAN, "")`) are filled from notebooks/predictions.json, as a student
would fill them, so the comparison after each measurement is executed too.

Usage (from the repository root, after notebooks/setup.py):
    .venv/bin/python notebooks/check.py                # cleared check, then execute all
    .venv/bin/python notebooks/check.py --cleared-only # fast: outputs cleared?
    .venv/bin/python notebooks/check.py --keep out/notebooks notebooks/01-*.ipynb
    .venv/bin/python notebooks/check.py --warm-up      # setup.py's last step (see below)

--fallback executes them with the lib built on the portable fallback (feature
platform-fallback: the OS tells nothing, the stand-in for "this OS cannot tell"); an output
that then claims a measurement only the OS could give (sleeps counted, a verdict on a
virtual machine, threads pinned) fails the check: an unknown is never shown as a figure.

--warm-up executes only the setup cell of notebook 00 (the same cell as 01-06's), in the
build folder the next kernel gets, so that the reader's first notebook finds the lib built.
"""

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

HERE = Path(__file__).resolve().parent
VENV = HERE.parent / ".venv"
INIT_EVCXR = ":preserve_vars_on_panic 0\n"
# Text that means something failed even when the cell reported success.
FAILURE_TEXT = re.compile(r"panicked at|^error(\[E\d+\])?:|^Error:|Subprocess terminated", re.MULTILINE)
# A run or experiment the notebook could not read and left out: its numbers are missing.
SKIPPED_TEXT = re.compile(r"\bskipped\b", re.IGNORECASE)
# Cargo's line for a crate it builds: after the setup cell it means a cell rebuilt the lib or
# its dependencies (seconds lost, and a page of build log shown to the reader).
COMPILING_TEXT = re.compile(r"^\s*Compiling \S+ v\S+", re.MULTILINE)
# Budget from issue 7: seconds one notebook may take after its setup cell.
NOTEBOOK_S = 180
# The values a student would write in the prediction cells, per notebook and variable.
PREDICTIONS = HERE / "predictions.json"
UNFILLED = re.compile(r'let (\w+) = present::prediction::Prediction::new\(f64::NAN, ""\);')
# Its setup cell is the one every other notebook shares.
WARM_UP_NOTEBOOK = "00-your-machine.ipynb"
# A numbered exercise in a notebook's Exercises cell ("1. **Two threads** ..."), and the
# solutions notebook that cell links to.
EXERCISE = re.compile(r"^(\d+)\. \*\*", re.MULTILINE)
SOLUTIONS_LINK = re.compile(r"\(solutions-([\w-]+)\.ipynb\)")
# The setup cell's dependency on the lib, and the same on the portable fallback.
LIB_DEP = ':dep contention = { path = "../lib", features = ["async"] }'
FALLBACK_DEP = ':dep contention = { path = "../lib", features = ["async", "platform-fallback"] }'
# What only the OS can tell: on the fallback, such a sentence turned an unknown into a figure.
# How a solution names a run that is not the student's (data/examples).
OTHERS_RUN = "the lab maintainers' run"
FALLBACK_CLAIMS = re.compile(
    r"sleeps per op \d|No primitive slept|every waiter spun|virtual machine: (yes|no)\b|pinned to CPUs? \d"
)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="*", type=Path, help="notebooks to check (default: notebooks/*.ipynb)")
    parser.add_argument("--cleared-only", action="store_true", help="only check that outputs are cleared")
    parser.add_argument("--keep", type=Path, help="write the executed copies here (default: a temporary folder)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds one cell may take (default 900)")
    parser.add_argument("--warm-up", action="store_true", help="only build the lib: run notebook 00's setup cell")
    parser.add_argument("--fallback", action="store_true", help="build the lib on the portable fallback (no OS calls)")
    return parser.parse_args()


def uncleared(path):
    """Why a committed notebook is not clean, or None."""
    notebook = nbformat.read(path, as_version=4)
    dirty = [
        index
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None or "execution" in cell.metadata)
    ]
    return f"cells {dirty} have outputs or execution counts" if dirty else unfilled_predictions(notebook)


def unfilled_predictions(notebook):
    """Why a committed notebook's prediction cells are not as a student finds them, or None."""
    found = [
        index
        for index, cell in enumerate(notebook.cells)
        if "prediction" in cell.metadata.get("tags", []) and not UNFILLED.search(cell.source)
    ]
    return f"prediction cells {found} are filled in (commit them as Prediction::new(f64::NAN, \"\"))" if found else None


def fill_predictions(notebook, name):
    """Fills the prediction cells from the fixture; a fixture entry with no cell, or a cell
    with no entry, is an error (the two would drift apart unseen)."""
    wanted = json.loads(PREDICTIONS.read_text()).get(name, {})
    filled = set()
    for cell in notebook.cells:
        if "prediction" not in cell.metadata.get("tags", []):
            continue

        def fill(match):
            variable = match.group(1)
            if variable not in wanted:
                raise SystemExit(f"{name}: no value for prediction `{variable}` in {PREDICTIONS.name}")
            value, reason = wanted[variable]
            filled.add(variable)
            return f"let {variable} = present::prediction::Prediction::new({float(value)!r}, {json.dumps(reason)});"

        cell.source = UNFILLED.sub(fill, cell.source)
    if missing := set(wanted) - filled:
        raise SystemExit(f"{name}: {PREDICTIONS.name} fills predictions no cell holds: {sorted(missing)}")


def missing_exercise_cells(path):
    """Why a notebook's exercises lack a ready cell (id `exercise-N`) or a worked answer (id
    `SOLUTIONS-NN-N` in the solutions notebook its Exercises cell links to), or None."""
    notebook = nbformat.read(path, as_version=4)
    exercises = next((cell.source for cell in notebook.cells if cell.cell_type == "markdown" and "## Exercises" in cell.source), None)
    if exercises is None:
        return None
    exercises = exercises.split("## Exercises", 1)[1]
    numbers = EXERCISE.findall(exercises)
    ids = {cell.get("id") for cell in notebook.cells}
    missing = [f"a ready cell exercise-{n}" for n in numbers if f"exercise-{n}" not in ids]
    link = SOLUTIONS_LINK.search(exercises)
    if link is None:
        missing.append("a link to its solutions notebook")
    else:
        solutions = HERE / f"solutions-{link.group(1)}.ipynb"
        answers = {cell.get("id") for cell in nbformat.read(solutions, as_version=4).cells} if solutions.exists() else set()
        prefix = f"{link.group(1).split('-')[0]}-{path.name[:2]}"
        missing += [f"an answer {prefix}-{n} in {solutions.name}" for n in numbers if f"{prefix}-{n}" not in answers]
    return f"exercises lack {', '.join(missing)}" if missing else None


def output_text(output):
    if output.output_type == "stream":
        return output.text
    if output.output_type == "error":
        return "\n".join([f"{output.ename}: {output.evalue}", *output.traceback])
    return "\n".join(str(value) for key, value in output.get("data", {}).items() if key.startswith("text/plain"))


def problems_in(notebook):
    """Every failure the executed outputs show: error outputs, stderr, panic or error text
    (one line per cell and kind, with the first lines of the text)."""
    found = []
    for index, cell in enumerate(notebook.cells):
        outputs = cell.get("outputs", [])
        stderr = "".join(o.text for o in outputs if o.output_type == "stream" and o.name == "stderr")
        if stderr.strip():
            found.append(f"cell {index}: wrote to stderr: {first_lines(stderr)}")
        for output in outputs:
            text = output_text(output)
            if output.output_type == "error":
                found.append(f"cell {index}: error output: {first_lines(text)}")
            elif output.output_type != "stream" and FAILURE_TEXT.search(text):
                found.append(f"cell {index}: failure in output: {first_lines(text)}")
        stdout = "".join(o.text for o in outputs if o.output_type == "stream" and o.name == "stdout")
        if FAILURE_TEXT.search(stdout):
            found.append(f"cell {index}: failure in output: {first_lines(stdout)}")
        shown = stdout + "".join(output_text(o) for o in outputs if o.output_type != "stream")
        if SKIPPED_TEXT.search(shown):
            found.append(f"cell {index}: a run or experiment was skipped: {first_lines(shown)}")
    return found


class KernelLog:
    """The kernel's own stderr, cell by cell. evcxr writes cargo's "Compiling" lines there
    (the terminal that runs Jupyter shows them), not into the cell's output."""

    def __init__(self, folder):
        self.path = Path(folder) / "kernel-stderr.log"
        # Append mode: the kernel's writes land at the end whatever this process reads.
        self.file = open(self.path, "a+", encoding="utf-8")
        self.read_up_to = 0
        self.by_cell = {}

    def cell_executed(self, cell, cell_index, **_):
        with open(self.path, encoding="utf-8", errors="replace") as log:
            log.seek(self.read_up_to)
            self.by_cell[cell_index] = log.read()
            self.read_up_to = log.tell()


def compiled_crates(text):
    return [match.split()[1] for match in COMPILING_TEXT.findall(strip_colours(text))]


def rebuilds_after_setup(notebook, kernel_log):
    """One problem per code cell after the first (the setup cell) whose output or kernel log
    shows cargo compiling a crate, naming the crates."""
    code_cells = [(index, cell) for index, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
    found = []
    for index, cell in code_cells[1:]:
        text = "\n".join([*(output_text(output) for output in cell.get("outputs", [])), kernel_log.by_cell.get(index, "")])
        if crates := compiled_crates(text):
            found.append(f"cell {index}: rebuilt {len(crates)} crates after the setup cell: {', '.join(sorted(set(crates)))}")
    return found


def strip_colours(text):
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def first_lines(text, count=4):
    plain = strip_colours(text).strip()
    lines = [line.strip() for line in plain.splitlines() if line.strip()]
    more = f" | ... ({len(lines) - count} more lines)" if len(lines) > count else ""
    return " | ".join(lines[:count]) + more


def kernel_name(notebook):
    """The kernel the notebook names: "rust", or "rust-class-table" (notebook 06 and its
    solutions: polars, built in kernel folders of its own so 00-05 never compile it)."""
    return notebook.metadata.get("kernelspec", {}).get("name", "rust")


def cell_seconds(cell):
    timing = cell.metadata.get("execution", {})
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not (start and end):
        return None
    parse = lambda stamp: datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return (parse(end) - parse(start)).total_seconds()


def execute(notebook, path, timeout):
    """Runs a notebook read from `path` (in place); returns (problems, seconds of the first
    code cell, crates it compiled, total seconds)."""
    with tempfile.TemporaryDirectory(prefix="kernel-log-") as log_dir:
        kernel_log = KernelLog(log_dir)
        client = NotebookClient(
            notebook,
            kernel_name=kernel_name(notebook),
            timeout=timeout,
            allow_errors=False,
            record_timing=True,
            resources={"metadata": {"path": str(path.parent)}},
            on_cell_executed=kernel_log.cell_executed,
        )
        problems = []
        start = time.monotonic()
        try:
            client.execute(stderr=kernel_log.file)
        except CellExecutionError as error:
            problems.append(f"a cell failed: {first_lines(str(error), 6)}")
        except (CellTimeoutError, DeadKernelError) as error:
            problems.append(f"{type(error).__name__}: {first_lines(str(error))}")
            problems.append(f"the kernel's last words: {first_lines(kernel_log.path.read_text()[-2000:])}")
        total = time.monotonic() - start
        kernel_log.file.close()
    problems.extend(problem for problem in problems_in(notebook) if problem not in problems)
    problems.extend(rebuilds_after_setup(notebook, kernel_log))
    code_cells = [index for index, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
    first = cell_seconds(notebook.cells[code_cells[0]]) if code_cells else None
    setup_crates = len(compiled_crates(kernel_log.by_cell.get(code_cells[0], ""))) if code_cells else 0
    return problems, first, setup_crates, total


@contextmanager
def kernel_environment():
    """The kernel registered in .venv, with a config folder that makes a panic fail its cell."""
    with tempfile.TemporaryDirectory(prefix="evcxr-ci-") as config_dir:
        (Path(config_dir) / "init.evcxr").write_text(INIT_EVCXR)
        os.environ["EVCXR_CONFIG_DIR"] = config_dir
        os.environ["RUST_BACKTRACE"] = "0"
        jupyter_path = [str(VENV / "share/jupyter"), os.environ.get("JUPYTER_PATH")]
        os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, jupyter_path))
        yield


def warm_up(timeout):
    """Runs notebook 00's setup cell alone: the lib compiles into the build folder the next
    kernel gets (the lowest one no running kernel holds). Returns 1 when the cell failed."""
    path = HERE / WARM_UP_NOTEBOOK
    notebook = nbformat.read(path, as_version=4)
    notebook.cells = [next(cell for cell in notebook.cells if cell.cell_type == "code")]
    with kernel_environment():
        problems, seconds, crates, _ = execute(notebook, path, timeout)
    print(f"   the setup cell of {path.name} ran in {seconds or 0:.0f} s ({crates} crates compiled)")
    for problem in problems:
        print(f"     {problem}")
    return 1 if problems else 0


def main():
    args = parse_args()
    if args.warm_up:
        return warm_up(args.timeout)
    paths = sorted(path.resolve() for path in (args.notebooks or HERE.glob("*.ipynb")))
    if not paths:
        print("no notebooks found")
        return 1
    dirty = [(path, reason) for path in paths if (reason := uncleared(path))]
    for path, reason in dirty:
        print(f"NOT CLEARED {path.name}: {reason}")
    if dirty:
        names = " ".join(f"notebooks/{path.name}" for path, _ in dirty)
        print(f"notebooks are committed with outputs cleared; run:\n  .venv/bin/jupyter nbconvert --clear-output --inplace {names}")
        return 1
    print(f"{len(paths)} notebooks have their outputs cleared")
    unanswered = [(path, reason) for path in paths if (reason := missing_exercise_cells(path))]
    for path, reason in unanswered:
        print(f"EXERCISES {path.name}: {reason}")
    if unanswered:
        return 1
    if args.cleared_only:
        return 0

    out_dir = args.keep or Path(tempfile.mkdtemp(prefix="notebooks-executed-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    with kernel_environment():
        started = time.monotonic()
        failed = sum(check_one(path, out_dir, args.timeout, args.fallback) for path in paths)
        print(f"{len(paths)} notebooks executed in {time.monotonic() - started:.0f} s")
    if failed or args.keep:
        print(f"executed copies in {out_dir}")
    else:
        shutil.rmtree(out_dir)
    print(f"{len(paths) - failed} passed, {failed} failed")
    return 1 if failed else 0


def on_fallback(notebook):
    """The notebook with its setup cell's lib built on the portable fallback."""
    setup = next(cell for cell in notebook.cells if cell.cell_type == "code")
    if LIB_DEP not in setup.source:
        raise SystemExit(f"the setup cell has no `{LIB_DEP}` line to build on the fallback")
    setup.source = setup.source.replace(LIB_DEP, FALLBACK_DEP)


def fallback_claims(notebook):
    """One problem per cell whose output claims what only the OS could have told."""
    found = []
    for index, cell in enumerate(notebook.cells):
        text = "".join(output_text(output) for output in cell.get("outputs", []))
        # A line about a kept run of the maintainers' machines (named so) may state its facts.
        own = "\n".join(line for line in text.splitlines() if OTHERS_RUN not in line)
        if match := FALLBACK_CLAIMS.search(own):
            found.append(f"cell {index}: claims a measurement the fallback cannot make ({match.group(0)!r}): {first_lines(text)}")
    return found


def check_one(path, out_dir, timeout, fallback=False):
    """Executes one notebook and prints how it went; returns True when it failed."""
    notebook = nbformat.read(path, as_version=4)
    fill_predictions(notebook, path.name)
    if fallback:
        on_fallback(notebook)
    problems, first, setup_crates, total = execute(notebook, path, timeout)
    if fallback:
        problems.extend(fallback_claims(notebook))
    nbformat.write(notebook, out_dir / path.name)
    after_setup = total - (first or 0)
    budget = "" if after_setup <= NOTEBOOK_S else f" (over the {NOTEBOOK_S} s budget)"
    first_text = f"{first:.1f} s, {setup_crates} crates compiled" if first is not None else "-"
    status = "FAIL" if problems else "ok"
    print(f"{status:4} {path.name}: setup cell (:dep) {first_text}; the rest {after_setup:.1f} s{budget}", flush=True)
    for problem in problems:
        print(f"     {problem}")
    return bool(problems)


if __name__ == "__main__":
    sys.exit(main())
