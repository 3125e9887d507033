# Contention Lab: `just` lists the recipes; `just report` is the main job.

# Every recipe calls only cargo, `contention` and Python, so it runs from any shell: `sh` on
# Linux and macOS, PowerShell on Windows (`just` then needs no bash anywhere).
set windows-shell := ["powershell.exe", "-NoLogo", "-NoProfile", "-Command"]

python := if os_family() == "windows" { "py" } else { "python3" }
venv_python := if os_family() == "windows" { ".venv/Scripts/python.exe" } else { ".venv/bin/python" }

contention := "cargo run --release --quiet -p contention-report --"

# List the recipes.
default:
    @just --list --unsorted

# Measure every experiment on this machine and write report.html (add --quick for ~1 minute).
report *flags:
    {{contention}} report {{flags}}

# Is this laptop ready for the workshop? One line per check, then "ready" or what to fix (`just check --room URL`).
check *flags:
    {{contention}} check {{flags}}

# Can this machine show contention? Prints the verdict and its reasons.
machine:
    {{contention}} run machine c2c --quick

# Measure the given experiments into data/runs/<label>-<utc>/, e.g. `just run stride --quick`.
run +args:
    {{contention}} run {{args}}

# Re-render a saved run without measuring: `just render data/runs/<label>-<utc>`.
render run_dir:
    {{contention}} report --from {{run_dir}}

# Put several machines' saved runs side by side in one page (workshops).
compare +run_dirs:
    {{contention}} report --compare {{run_dirs}} --out compare.html

# Serve the live room of a workshop: laptops send runs with --send, its page fills in (`just room --bind 0.0.0.0`).
room *flags:
    {{contention}} room serve {{flags}}

# Set up Jupyter with the Rust kernel (first time ~10 min) and open the notebooks in Jupyter Lab (`--room URL --code CODE --label seat-12`: each notebook's last cell sends there).
notebooks *args:
    {{python}} notebooks/lab.py {{args}}

# Execute every notebook headlessly with the evcxr kernel; fails on any error or committed output.
notebooks-check *notebooks:
    {{python}} notebooks/setup.py
    {{venv_python}} notebooks/check.py {{notebooks}}

# Run the tests (the README's test command).
test:
    cargo test --release --workspace

# Lint with clippy; warnings are errors.
lint:
    cargo clippy --release --all-targets -- -D warnings

# Format the code.
fmt:
    cargo fmt --all

# Exactly what CI runs on a clean clone (Linux: CI's script is bash).
ci:
    bash .ci/run
