"""`train --project DIR` (and the app's Learn, `train_on_project`) checks that DIR is a project before it takes the
training lock: it used to warn first that the lock could not be taken (a folder not there), and to make models/ in a
folder that is not a project, left behind after the refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.errors import RecordLensError
from recordlens.core.store.learnt_model import train_on_project


def test_a_folder_not_there_is_refused_without_a_word_of_the_lock(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "--project", str(tmp_path / "nope")]) != 0
    err = capsys.readouterr().err
    assert "training lock" not in err
    assert f"there is no folder {tmp_path / 'nope'}" in err
    assert not (tmp_path / "nope").exists()


def test_a_folder_that_is_not_a_project_is_left_as_it_was(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "notaproject"
    folder.mkdir()
    assert main(["train", "--project", str(folder)]) != 0
    err = capsys.readouterr().err
    assert "is not a RecordLens project" in err and "training lock" not in err
    assert list(folder.iterdir()) == []


def test_learn_on_a_folder_that_is_not_a_project_makes_nothing_there(tmp_path: Path) -> None:
    with pytest.raises(RecordLensError, match="is not a RecordLens project"):
        train_on_project(tmp_path)
    assert list(tmp_path.iterdir()) == []
