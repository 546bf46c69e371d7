"""Going back to an earlier RecordLens after the upgrade gives the project its learnt models as they were too: a
training by this version writes its model over the project's and sets that one aside over the one set aside before
(two trainings leave nothing of the earlier models in models/), so the upgrade keeps models/ as it was beside the
database kept, and its message names every file to put back (or, for a project that had no model, the folder to
delete). A copy of the models that cannot be made refuses the upgrade, nothing changed."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

from recordlens.core.store import StoreError, learnt_model, open_project, take_upgrades
from recordlens.core.store.learnt_model import FORGOTTEN_MODEL, PROJECT_MODEL, save_project_model
from tests.core.old_projects import a_version_3_project
from tests.core.test_train_project_model_never_missing import a_model
from tests.core.test_upgrade_message_reads_well import gone_back_as_said

# What an earlier RecordLens wrote as the project's model and the one it set aside: a format this one does not read
EARLIER = b'{"format": "recordlens-selector-0", "said": "earlier"}'
SET_ASIDE_EARLIER = b'{"format": "recordlens-selector-0", "said": "set aside earlier"}'


def an_earlier_project_with_models(folder: Path) -> Path:
    old = a_version_3_project(folder)
    (old / "models").mkdir()
    (old / PROJECT_MODEL).write_bytes(EARLIER)
    (old / FORGOTTEN_MODEL).write_bytes(SET_ASIDE_EARLIER)
    (old / "models" / ".training.lock").write_text("", encoding="utf-8")  # a lock's file: no model
    return old


def trained_twice_here(old: Path) -> str:
    """The project opened by this RecordLens (brought up to date), then its model trained twice: the upgrade's
    message."""
    open_project(old).close()
    (upgrade,) = take_upgrades()
    save_project_model(a_model("first"), old)
    save_project_model(a_model("second"), old)
    assert EARLIER not in {(old / PROJECT_MODEL).read_bytes(), (old / FORGOTTEN_MODEL).read_bytes()}
    return upgrade.message()


def test_going_back_after_two_trainings_gives_the_earlier_models_back(tmp_path: Path) -> None:
    old = an_earlier_project_with_models(tmp_path / "old")
    said = trained_twice_here(old)
    gone_back_as_said(said)
    assert (old / PROJECT_MODEL).read_bytes() == EARLIER
    assert (old / FORGOTTEN_MODEL).read_bytes() == SET_ASIDE_EARLIER
    assert sorted(path.name for path in (old / "models").iterdir()) == ["selector.forgotten.json", "selector.json"]
    with sqlite3.connect(old / "project.db") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 3
    db.close()


def test_a_project_that_had_no_model_goes_back_without_the_models_learnt_since(tmp_path: Path) -> None:
    old = a_version_3_project(tmp_path / "old")
    said = trained_twice_here(old)
    gone_back_as_said(said)
    assert not (old / "models").exists()


def test_models_that_cannot_be_kept_leave_the_project_as_it_was(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    old = an_earlier_project_with_models(tmp_path / "old")

    def denied(project_dir: Path, folder: Path, stem: str) -> Path:
        raise PermissionError(errno.EACCES, "Permission denied", str(folder / stem))

    monkeypatch.setattr(learnt_model, "keep_learnt_models", denied)
    with pytest.raises(StoreError) as refused:
        open_project(old)
    assert "learnt models" in str(refused.value) and "nothing was changed" in str(refused.value)
    with sqlite3.connect(old / "project.db") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 3
    db.close()
    assert not (old / "removed").exists() and take_upgrades() == []
