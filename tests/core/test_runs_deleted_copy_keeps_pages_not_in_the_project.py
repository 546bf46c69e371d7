"""A deleted run's folder copy (`removed/runs/`) keeps the pages its folder predicted when the project lacked them
(`run_files.NOT_IN_PROJECT`): added back and scored, such a page is still said "not in the project when the run
was added", not "not given", and the folder it was first added from is named as the only one that holds its
prediction (the copy holds no N.json of it: its records never came into the project, and adding the copy again
would bring nothing)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.runs.evaluate import NOT_IN_THE_PROJECT
from recordlens.core.runs.run_files import ADDED_FROM, META_DIR, NOT_IN_PROJECT, stored_cost
from recordlens.core.store.project import open_project
from tests.core.cli_runs import run
from tests.core.run_folder_helpers import added_while_page_4_was_lacking


def _deleted_copy(project: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Run 1 deleted: the folder its predictions were written to first."""
    code, _, err = run(capsys, "runs", "--project", str(project), "--delete", "1")
    assert code == 0, err
    (copy,) = (project / "removed" / "runs").iterdir()
    return copy


def test_a_deleted_runs_copy_added_back_still_says_the_page_was_not_in_the_project(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project, out = added_while_page_4_was_lacking(tmp_path, capsys)
    copy = _deleted_copy(project, capsys)
    assert not (copy / "4.json").exists()
    kept = stored_cost(json.loads((copy / META_DIR / "run.json").read_text(encoding="utf-8")))
    assert kept[NOT_IN_PROJECT] == ["4"]
    assert kept[ADDED_FROM] == str(out.resolve())

    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(copy))
    assert code == 0, err
    with open_project(project) as held:
        (again,) = held.runs.all()
    _, _, err = run(capsys, "score", "--project", str(project), "--run", str(again.id), "-q")
    assert NOT_IN_THE_PROJECT in err and "page 4" in err, err
    assert f"not among the pages run {again.id} was given" not in err, err
    assert f"`runs --add {out.resolve()}`" in err, err  # the folder that holds page 4's prediction
    assert "`runs --add` it again" not in err, err  # the copy holds none: adding it again would do nothing


def test_a_copys_copy_names_the_folder_the_run_was_first_added_from(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project, out = added_while_page_4_was_lacking(tmp_path, capsys)
    copy = _deleted_copy(project, capsys)
    assert run(capsys, "runs", "--project", str(project), "--add", str(copy))[0] == 0
    code, _, err = run(capsys, "runs", "--project", str(project), "--delete", "2")
    assert code == 0, err
    (second,) = [folder for folder in (project / "removed" / "runs").iterdir() if folder != copy]
    kept = stored_cost(json.loads((second / META_DIR / "run.json").read_text(encoding="utf-8")))
    assert kept[ADDED_FROM] == str(out.resolve()) and kept[NOT_IN_PROJECT] == ["4"]


def test_a_page_brought_in_since_is_not_said_lacking_in_the_copy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project, out = added_while_page_4_was_lacking(tmp_path, capsys)
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0  # page 4 brought in
    copy = _deleted_copy(project, capsys)
    assert (copy / "4.json").is_file()
    assert NOT_IN_PROJECT not in stored_cost(json.loads((copy / META_DIR / "run.json").read_text(encoding="utf-8")))
