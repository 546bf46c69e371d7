"""A stored run's page that its folder predicted while the project lacked it (`run_files.NOT_IN_PROJECT`), the page
imported since: `score --project --run` says of it what is true (not in the project when the run was added:
add the folder again), not that it failed (nothing to extract again), and its reason is not cut mid-sentence. A
run stored again from its deleted copy names, in `runs`, the folder it was first added from, and keeps when it
ended."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from recordlens.core.runs.evaluate import NOT_IN_THE_PROJECT
from tests.core.cli_runs import run
from tests.core.run_folder_helpers import added_while_page_4_was_lacking


def _summary(out: str) -> str:
    """The score's line that sums up its pages without a prediction."""
    (line,) = [line for line in out.splitlines() if line.startswith("pages without a prediction")]
    return line


def _reason(out: str, page: str) -> str:
    (line,) = [line for line in out.splitlines() if line.startswith(f"  {page}: ")]
    return line.removeprefix(f"  {page}: ")


def _added_back(project: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Run 1 deleted and its copy added back (as run 2); the copy."""
    assert run(capsys, "runs", "--project", str(project), "--delete", "1")[0] == 0
    (copy,) = (project / "removed" / "runs").iterdir()
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(copy))
    assert code == 0, err
    return copy


def test_a_page_the_project_lacked_is_not_said_failed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project, out = added_while_page_4_was_lacking(tmp_path, capsys)
    code, scored, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    assert code in (0, 1), err
    summary = _summary(scored)
    assert "failed" not in summary and "run extract again" not in summary, summary
    assert "not in the project when the run was added" in summary and "runs --add" in summary, summary
    assert _reason(scored, "4").startswith(NOT_IN_THE_PROJECT), scored


def test_the_reason_of_a_re_added_copy_is_not_cut_mid_sentence(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / ("a-long-folder-name-" * 4) / ("and-another-one-" * 4)
    deep.mkdir(parents=True)
    project, out = added_while_page_4_was_lacking(deep, capsys)
    _added_back(project, capsys)
    code, scored, err = run(capsys, "score", "--project", str(project), "--run", "2", "-q")
    assert code in (0, 1), err
    said = _reason(scored, "4")
    assert said.startswith(NOT_IN_THE_PROJECT) and "failed" not in _summary(scored), scored
    assert said.endswith("…") and len(said) <= 200, said  # marked where cut


def test_a_re_added_copy_names_the_folder_it_was_first_added_from(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    project, out = added_while_page_4_was_lacking(tmp_path, capsys)
    code, listed, err = run(capsys, "runs", "--project", str(project))
    assert code == 0, err
    assert f"from {out.name};" in listed, listed
    code, described, err = run(capsys, "runs", "--project", str(project), "--json")
    (ended,) = [held["ended_at"] for held in json.loads(described)]
    _added_back(project, capsys)
    code, listed, err = run(capsys, "runs", "--project", str(project))
    assert code == 0, err
    assert re.search(rf"from {re.escape(out.name)} \(via its deleted copy\)", listed), listed
    code, described, err = run(capsys, "runs", "--project", str(project), "--json")
    (again,) = json.loads(described)
    assert again["ended_at"] == ended  # not when the copy was written
