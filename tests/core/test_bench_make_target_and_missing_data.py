"""`make bench` runs the benchmark scripts a bare machine can run in minutes, and only checks (--check) the files
resources/models ships: it once ran every bench/*.py, the hour-long cross-validation among them, and rewrote two
shipped files. A script whose third-party pages are missing says "missing data" in one line and exits with
dev_data.MISSING_DATA, which `make bench` skips; bench/mdr_vs_reference.py stopped with a FileNotFoundError
traceback instead."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MISSING_DATA = 3  # bench/dev_data.py's


def make_bench(tmp_path: Path, skipped: str = "", failing: str = "") -> tuple[subprocess.CompletedProcess, list[str]]:
    """`make bench` with a stand-in Python that notes each command line and exits 0, MISSING_DATA for the script
    `skipped`, 1 for the script `failing` (the venv taken as installed: nothing is installed)."""
    log = tmp_path / "commands"
    python = tmp_path / "python"
    python.write_text(f"""#!/bin/sh
echo "$*" >> {log}
case "$1" in *{skipped or 'none'}.py) exit {MISSING_DATA};; *{failing or 'none'}.py) exit 1;; esac
""")
    python.chmod(0o755)
    done = subprocess.run(["make", "--no-print-directory", "-o", ".venv/.installed", "bench", f"PY={python}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    return done, log.read_text().splitlines() if log.exists() else []


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_bench_checks_the_shipped_files_and_runs_no_cross_validation(tmp_path: Path) -> None:
    done, commands = make_bench(tmp_path)
    assert done.returncode == 0, done.stderr
    assert "bench/repeats_tuning_pages.py --check" in commands
    assert "bench/selector_training_texts.py --check" in commands
    writers = [c for c in commands if c.split()[0].endswith(("repeats_tuning_pages.py", "selector_training_texts.py"))]
    assert all(c.endswith(" --check") for c in writers), commands
    assert not any("offline_extractor.py" in c for c in commands), commands
    assert not any(c.endswith(("timing.py", "dev_data.py", "qt_bench.py")) for c in commands), commands


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_bench_skips_a_script_without_its_data_and_stops_at_a_failure(tmp_path: Path) -> None:
    done, commands = make_bench(tmp_path, skipped="mdr_vs_reference")
    assert done.returncode == 0 and "skipped bench/mdr_vs_reference.py: its data is missing" in done.stdout
    assert "bench/selector_training_texts.py --check" in commands  # went on after it
    (tmp_path / "commands").unlink()
    done, commands = make_bench(tmp_path, failing="extract")
    assert done.returncode != 0 and commands[-1] == "bench/extract.py", commands


def test_mdr_vs_reference_says_missing_data_without_the_sample_pages(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "mdr_vs_reference.py"), "--data", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == MISSING_DATA and done.stdout == "", (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("missing data: ") and str(tmp_path / "nexteval-samples" / "index.json") in done.stderr
