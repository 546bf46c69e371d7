"""A run added from a folder, deleted (`runs --delete`: its copy in `removed/runs/`) and its copy added back says
what it said before: what it paid (pages, seconds, tokens), the pages its folder predicted on other pages, the pages
whose prediction file was missing (not "not extracted"), its failures, its figures (`run_files.COPIED_COST`), and
when it ended (`run_files.ENDED`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from recordlens.core.runs.evaluate import FILE_MISSING
from recordlens.core.runs.run_files import ADDED_FROM
from tests.core.cli_runs import run
from tests.core.shop_runs import dataset, run_folder

PAID = {"status": "done", "seconds": 2.5, "tokens": {"input": 100, "output": 10}}


def _folder(root: Path) -> Path:
    """Predictions of pages 0 and 1 (0's made on another page of its name), page 2 done but its N.json gone,
    page 3 failed: each with what it cost."""
    out = run_folder(root, ["0", "1"])
    for name, record in (("0", {**PAID, "page": {"sha256": "0" * 64, "texts": "another page"}}), ("1", PAID),
                         ("2", PAID), ("3", {**PAID, "status": "failed", "reason": "the model refused"})):
        (out / "_run" / f"{name}.json").write_text(json.dumps(record), encoding="utf-8")
    return out


def _said(capsys: pytest.CaptureFixture[str], project: Path, run_id: int) -> tuple[dict, str, str]:
    """What `runs --json` says of the run (but its id and its folder: its end too), and what `score` of it says,
    its id as N."""
    code, out, err = run(capsys, "runs", "--project", str(project), "--json")
    assert code == 0, err
    (document,) = [held for held in json.loads(out) if held["id"] == run_id]
    document.pop("id")  # ended_at is kept: the copy's run.json says it (its files are written as the run is deleted)
    document["parameters"].pop("source")
    document["cost"].pop(ADDED_FROM, None)
    code, scored, said = run(capsys, "score", "--project", str(project), "--run", str(run_id), "-q")
    assert code in (0, 1), said
    return document, *(re.sub(rf"\brun {run_id}\b", "run N", text) for text in (scored, said))


def test_a_deleted_runs_copy_added_back_says_what_the_run_said(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", str(dataset(tmp_path / "data", 4)), "--project", str(project), "-q")[0] == 0
    out = _folder(tmp_path / "run")
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code in (0, 1), err
    before = _said(capsys, project, 1)
    assert before[0]["cost"]["tokens"] == {"input": 400, "output": 40} and before[0]["cost"]["seconds"] == 10.0
    assert "(0) was predicted on another page" in before[2] and FILE_MISSING not in before[2], before[2]
    assert "(2) is recorded done by run N's folder, but its prediction file is missing" in before[2], before[2]

    code, _, err = run(capsys, "runs", "--project", str(project), "--delete", "1")
    assert code == 0, err
    (copy,) = (project / "removed" / "runs").iterdir()
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(copy))
    assert code in (0, 1), err
    assert "was predicted on another page" in err, err  # said as the folder was added, as before
    after = _said(capsys, project, 2)
    assert after == before
