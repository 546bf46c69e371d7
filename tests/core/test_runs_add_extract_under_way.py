"""`runs --add` of a run folder beside the extract writing it: refused while the extract runs (it holds the folder's
lock), a folder stored when its extract had stopped brought up to date once the extract went on (not stored twice);
`score` of a finished run of part of the project says those pages were not among the run's (no rerun advised);
`runs` marks the figures of a run scored before its labels changed, on the figures themselves."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.runs.evaluate import NOT_GIVEN
from recordlens.core.runs.runner import LOCK_FILE
from recordlens.core.store.db import Provenance
from recordlens.core.store.project import open_project
from tests.core.cli_runs import DEMO, EXTRACT, run

# `recordlens extract` that, its second page written, says so (a file) and goes on only once told to (a file):
# an extract under way, in a process of its own, holding the run folder's lock
PAUSED_AFTER_TWO = """
import sys, time
from pathlib import Path
from recordlens.core.runs import run_files
from recordlens.core.cli.command import main

paused, go = Path(sys.argv[1]), Path(sys.argv[2])
saved, real = [], run_files.save_records
def save_records(path, records):
    real(path, records)
    saved.append(path)
    if len(saved) == 2:
        paused.touch()
        while not go.exists():
            time.sleep(0.05)
run_files.save_records = save_records
sys.exit(main(sys.argv[3:]))
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    assert main(["project", "init", str(tmp_path / "p")]) == 0
    assert main(["import", str(DEMO), "--project", str(tmp_path / "p"), "-q"]) == 0
    return tmp_path / "p"


def _runs(capsys: pytest.CaptureFixture[str], project: Path) -> list[dict]:
    code, listing, _ = run(capsys, "runs", "--project", str(project), "--json")
    assert code == 0
    return json.loads(listing)


def _wait_for(path: Path, child: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while not path.exists():
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, "the extract never got to its second page"
        time.sleep(0.05)


def test_a_folder_an_extract_is_writing_is_refused_and_stored_whole_once_it_ends(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, paused, go = tmp_path / "run", tmp_path / "paused", tmp_path / "go"
    child = subprocess.Popen([sys.executable, "-c", PAUSED_AFTER_TWO, str(paused), str(go), *EXTRACT, str(out), "-q"],
                             cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "HOME": str(tmp_path)})
    try:
        _wait_for(paused, child)
        assert (out / LOCK_FILE).exists() and len(list(out.glob("*.json"))) == 2
        code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
        assert code == 2
        assert f"{out} is being extracted into (or added to a project) by process {child.pid} on " in err, err
        assert "wait for it to end (or stop it), then add it again; nothing is stored now" in err, err
        assert "stored as a stopped run" not in err
        assert _runs(capsys, project) == []  # nothing stored
    finally:
        go.touch()
        _, child_err = child.communicate(timeout=120)
    assert child.returncode == 0, child_err
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and f"stored {out} as run 1" in err, err
    (stored,) = _runs(capsys, project)
    assert stored["status"] == "finished" and stored["pages_with_records"] == 4


def test_a_folder_stored_stopped_then_finished_brings_its_run_up_to_date(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    killed = subprocess.run([sys.executable, "-c", PAUSED_AFTER_TWO.replace("paused.touch()", "paused.touch(); "
                                                                            "import os, signal; os.kill(os.getpid(), "
                                                                            "signal.SIGKILL)"),
                             str(tmp_path / "paused"), str(tmp_path / "go"), *EXTRACT, str(out), "-q"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "HOME": str(tmp_path)})
    assert killed.returncode == -signal.SIGKILL
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and "stored as a stopped run" in err and f"stored {out} as run 1" in err
    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0
    before = {s: f for s, f in _page_f1s(project, 1).items()}
    assert len(before) == 4
    assert run(capsys, *EXTRACT, str(out), "-q")[0] == 0  # resumed: the two pages left
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0, err
    assert (f"{out} was stored as run 1 when its extract had stopped (2 pages); the extract went on since: run 1 "
            "now holds what the folder holds") in err, err
    (stored,) = _runs(capsys, project)  # one run, not a partial copy beside the whole one
    assert stored["id"] == 1 and stored["status"] == "finished" and stored["pages_with_records"] == 4
    assert "stopped" not in stored["cost"]
    kept = _page_f1s(project, 1)  # the pages it held as they were keep their scores; the two new ones have none
    assert len(kept) == 2 and all(before[page] == f1 for page, f1 in kept.items())
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and "is stored already, as run 1" in err  # and again: nothing


def test_a_folder_written_again_with_other_records_is_a_run_of_its_own(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "-q")[0] == 0
    described = json.loads((out / "_run" / "run.json").read_text(encoding="utf-8"))
    finished = dict(described)
    (out / "_run" / "run.json").write_text(json.dumps({**described, "stopped": "budget used up"}), encoding="utf-8")
    kept = (out / "4.json").read_bytes()
    (out / "4.json").unlink()
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0  # stopped, 3 pages
    (out / "4.json").write_bytes(kept)
    # page 1 predicted otherwise, extracted again (its record in _run/ a new one): not the run stored, gone on
    (out / "1.json").write_text("[]", encoding="utf-8")
    record = json.loads((out / "_run" / "1.json").read_text(encoding="utf-8"))
    (out / "_run" / "1.json").write_text(json.dumps({**record, "seconds": 9.5}), encoding="utf-8")
    (out / "_run" / "run.json").write_text(json.dumps(finished), encoding="utf-8")
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and f"stored {out} as run 2" in err, err
    assert [r["status"] for r in _runs(capsys, project)] == ["stopped", "finished"]  # the one stored stays
    assert [r["pages_with_records"] for r in _runs(capsys, project)] == [3, 4]


def _page_f1s(project: Path, run_id: int) -> dict[str, float]:
    with open_project(project) as opened:
        return {s.page: s.f1 for s in opened.runs.scores(run_id)}


def test_a_finished_run_of_some_pages_says_the_others_were_not_among_its_pages(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    some = tmp_path / "some"
    some.mkdir()
    for name in ("1", "2"):
        shutil.copy(DEMO / "html" / f"{name}.html", some)
    out = tmp_path / "run"
    assert run(capsys, "extract", "--method", "mdr", "--pages", str(some), "--out", str(out), "-q")[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
    for scoring in (("--project", str(project), "--run", "1"),
                    ("--pred", str(out), "--gt", str(DEMO / "gt"), "--pages", str(DEMO / "html"))):
        code, table, err = run(capsys, "score", *scoring, "-q")
        assert code == 0, err
        assert "run extract again" not in table and "not extracted" not in table, table
        assert ("pages without a prediction (2 not among the run's pages; counted above as empty predictions; the "
                "run finished without the pages it was not given: a run given them predicts them):") in table, table
        assert f"  3: {NOT_GIVEN}\n  4: {NOT_GIVEN}" in table
        assert "were not among the pages" in err and "(3, 4; it finished without them)" in err, err
        assert "page 3: no prediction" not in err  # said once for both, not once a page


def test_a_stopped_run_still_advises_extracting_again(project: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "-q")[0] == 0
    described = json.loads((out / "_run" / "run.json").read_text(encoding="utf-8"))
    (out / "_run" / "run.json").write_text(json.dumps({**described, "stopped": "budget used up"}), encoding="utf-8")
    (out / "4.json").unlink()
    (out / "_run" / "4.json").unlink()  # never reached: no record of it either (one saying done: its file missing)
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
    code, table, _ = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    assert code == 0 and "(1 not extracted; counted above as empty predictions; run extract again" in table, table
    assert NOT_GIVEN not in table


def test_runs_marks_the_figures_of_a_run_scored_before_its_labels_changed(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    truth = tmp_path / "truth"
    shutil.copytree(DEMO / "gt", truth)
    (truth / "_run").mkdir()
    (truth / "_run" / "run.json").write_text(json.dumps({"method": "oracle", "version": 1}), encoding="utf-8")
    assert run(capsys, "runs", "--project", str(project), "--add", str(truth))[0] == 0
    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0
    code, listing, _ = run(capsys, "runs", "--project", str(project))
    row = listing.splitlines()[1]
    assert code == 0 and row.endswith("1.0000       4/4  1.0000") and "*" not in listing, listing
    with open_project(project) as opened:
        opened.set_status("2", "proposed", Provenance.person("ana"))
    code, listing, _ = run(capsys, "runs", "--project", str(project))
    row = listing.splitlines()[1]
    assert code == 0 and row.endswith(" 1.000*       4/4  1.000*"), listing  # the figures themselves, marked
    assert len(row) <= 80, row
    assert ("(* run 1's figures are out of date: 1 page labelled, changed or unmarked since it was scored (2); "
            f"`recordlens score --project {project} --run 1` scores it again)") in listing, listing
