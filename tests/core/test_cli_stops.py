"""How `extract` stops and starts again: SIGTERM as Ctrl+C (what was kept said, a rerun goes on), one run at a
time in a run folder (its lock), and a resume with nothing to do that leaves the run's description alone."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core import owner_files
from recordlens.core.runs.run_files import META_DIR, STOPPED
from recordlens.core.runs.runner import LOCK_FILE
from tests.core.cli_runs import DEMO, EXTRACT, run

# `recordlens extract` whose second page written sends the process SIGTERM (as `timeout` or Slurm would)
TERMINATED_AFTER_TWO = """
import os, signal, sys
from recordlens.core.runs import run_files
from recordlens.core.cli.command import main

saved, real = [], run_files.save_records
def save_records(path, records):
    real(path, records)
    saved.append(path)
    if len(saved) == 2:
        os.kill(os.getpid(), signal.SIGTERM)
run_files.save_records = save_records
sys.exit(main(sys.argv[1:]))
"""


def test_sigterm_stops_extract_as_ctrl_c_does_and_a_rerun_goes_on(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    done = subprocess.run([sys.executable, "-c", TERMINATED_AFTER_TWO, *EXTRACT, str(out), "-q"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(tmp_path)})
    assert done.returncode == 128 + signal.SIGTERM
    assert done.stderr.splitlines()[-2:] == [f"{out}: 2 of 4 pages extracted; run the same command again for the "
                                             "rest", "recordlens: interrupted (SIGTERM)"]
    assert len(list(out.glob("*.json"))) == 2
    assert STOPPED in json.loads((out / META_DIR / "run.json").read_text(encoding="utf-8"))
    code, printed, err = run(capsys, *EXTRACT, str(out), "-q")
    assert code == 0 and "2 extracted, 2 already there" in printed
    assert not (out / LOCK_FILE).exists()


def test_a_second_extract_into_a_run_folder_is_refused_while_the_first_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    out.mkdir()
    lock = owner_files.take(out / LOCK_FILE)  # another extract, running
    try:
        code, _, err = run(capsys, *EXTRACT, str(out), "-q")
    finally:
        owner_files.release(lock)
    assert code == 2
    assert (f"{out} is being extracted into (or added to a project) by process {os.getpid()} on "
            f"{socket.gethostname()} right now") in err
    assert not list(out.glob("*.json"))


def test_the_lock_of_a_killed_extract_is_taken_over_and_said(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / LOCK_FILE).write_text(f"{socket.gethostname()} 999999999\n", encoding="utf-8")  # no one holds it
    code, printed, err = run(capsys, *EXTRACT, str(out), "-q")
    assert code == 0 and "4 extracted" in printed
    assert "by process 999999999 ended without releasing its lock (it was killed); the lock is taken over" in err
    assert not (out / LOCK_FILE).exists()


def test_a_resume_with_nothing_to_do_leaves_run_json_untouched(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "-q")[0] == 0
    described = out / META_DIR / "run.json"
    earlier = json.loads(described.read_text(encoding="utf-8")) | {"written": "2000-01-01T00:00:00+00:00"}
    described.write_text(json.dumps(earlier, indent=2), encoding="utf-8")
    before = described.read_bytes(), described.stat().st_mtime_ns
    code, printed, err = run(capsys, *EXTRACT, str(out), "-q")
    assert code == 0 and "0 extracted, 4 already there" in printed
    assert (described.read_bytes(), described.stat().st_mtime_ns) == before
    (out / "3.json").unlink()  # something to do: the run is written again, with its new date
    code, printed, err = run(capsys, *EXTRACT, str(out), "-q")
    assert code == 0 and "1 extracted, 3 already there" in printed
    assert json.loads(described.read_text(encoding="utf-8"))["written"] != earlier["written"]


# `recordlens import` / `export` whose second page sends the process SIGTERM
TERMINATED_ON_THE_SECOND_PAGE = """
import os, signal, sys
from recordlens.core.store import exporter, importer
from recordlens.core.cli.command import main

seen = []
def stopping(real):
    def call(*args, **kwargs):
        seen.append(1)
        if len(seen) == 3:
            os.kill(os.getpid(), signal.SIGTERM)
        return real(*args, **kwargs)
    return call
importer.import_page = stopping(importer.import_page)
exporter._copy_checked = stopping(exporter._copy_checked)
sys.exit(main(sys.argv[1:]))
"""


def test_sigterm_to_import_and_export_says_how_far_they_got(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    assert run(capsys, "project", "init", str(project))[0] == 0

    def stopped(*command: str) -> list[str]:
        done = subprocess.run([sys.executable, "-c", TERMINATED_ON_THE_SECOND_PAGE, *command, "-q"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(tmp_path)})
        assert done.returncode == 128 + signal.SIGTERM, done.stderr
        return done.stderr.splitlines()[-2:]

    assert stopped("import", str(DEMO), "--project", str(project)) == [
        "import stopped after 2 of 4 pages; running the same command again imports the rest (the pages already in "
        "the project are left as they are)", "recordlens: interrupted (SIGTERM)"]
    code, out, _ = run(capsys, "import", str(DEMO), "--project", str(project))
    assert code == 0 and "2 already in the project" in out
    export = tmp_path / "ex"
    assert stopped("export", "--project", str(project), "--format", "nexteval", "--out", str(export)) == [
        f"export stopped after 2 of 4 pages; {export} holds an unfinished export (EXPORT-UNFINISHED.txt says so), "
        "which a new export refuses: remove it (or choose an empty folder) and export again",
        "recordlens: interrupted (SIGTERM)"]
