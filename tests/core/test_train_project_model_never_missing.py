"""`train --project` replaces the project's own model so that at every instant the project has one: the earlier
model is copied to where Forget sets it aside, and the new one renamed over it. Moving the earlier one aside
first left a training killed between its two renames with no `models/selector.json` (Propose then quietly used
the shipped model)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core.extract.selector_model import Ensemble, SelectorModel, Stages, Tree
from recordlens.core.store.learnt_model import FORGOTTEN_MODEL, PROJECT_MODEL, save_project_model

# Saves a new model as the project's own, killed (no clean-up of any kind: os._exit) as it is about to make its
# KILL_AT-th rename; exit 0 when it made every rename first. The new model is given as its JSON.
_KILLED_AT_A_RENAME = """
import os, sys
from pathlib import Path
from recordlens.core.extract.selector_model import SelectorModel
from recordlens.core.store.learnt_model import save_project_model

kill_at, renames, rename = int(sys.argv[2]), [], os.replace

def renaming(*args, **kwargs):
    renames.append(args)
    if len(renames) == kill_at:
        os._exit(9)
    return rename(*args, **kwargs)

os.replace = renaming
save_project_model(SelectorModel.from_json(sys.argv[3]), Path(sys.argv[1]))
"""


def a_model(said: str) -> SelectorModel:
    """A model this version loads (one member: one tree of one leaf), set aside where Forget sets one aside (one
    that cannot be loaded goes to `selector.unusable.json`, never over a model kept there)."""
    leaf = {"left": [-1], "right": [-1], "feature": [-2], "threshold": [-2.0], "value": [0.0]}
    member = Stages(Ensemble(base=0.0, rate=1.0, trees=[Tree.from_dict(leaf, features=1)]))
    return SelectorModel([member], provenance={"trained_on": said})


def a_project_with_its_model(folder: Path) -> bytes:
    (folder / "models").mkdir(parents=True)
    (folder / PROJECT_MODEL).write_text(a_model("old").to_json(), encoding="utf-8")
    (folder / FORGOTTEN_MODEL).write_text(a_model("older").to_json(), encoding="utf-8")
    return (folder / PROJECT_MODEL).read_bytes()


def test_a_training_killed_at_any_rename_leaves_the_project_a_model(tmp_path: Path) -> None:
    new = a_model("new").to_json().encode("utf-8")
    for kill_at in range(1, 10):
        folder = tmp_path / f"killed-at-{kill_at}"
        old = a_project_with_its_model(folder)
        killed = subprocess.run([sys.executable, "-c", _KILLED_AT_A_RENAME, str(folder), str(kill_at), new.decode()],
                                check=False, timeout=120)
        model = folder / PROJECT_MODEL
        assert model.is_file(), f"killed at rename {kill_at}: the project has no model"
        assert model.read_bytes() in (old, new)
        if model.read_bytes() == new:  # replaced: the earlier one is kept where Forget sets it aside
            assert (folder / FORGOTTEN_MODEL).read_bytes() == old
        if killed.returncode == 0:  # every rename made: the model replaced, and nothing further to kill
            assert model.read_bytes() == new and kill_at > 2
            assert sorted(p.name for p in model.parent.iterdir()) == ["selector.forgotten.json", "selector.json"]
            break
        assert killed.returncode == 9
    else:
        pytest.fail("the model was never saved")


def test_a_replacement_that_fails_leaves_the_earlier_model_in_place(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    old = a_project_with_its_model(tmp_path)
    rename = os.replace

    def refused_over_the_model(source: object, target: object) -> None:
        if Path(str(target)).name == "selector.json":
            raise OSError(5, "Input/output error")
        rename(source, target)

    monkeypatch.setattr(os, "replace", refused_over_the_model)
    with pytest.raises(OSError):
        save_project_model(a_model("new"), tmp_path)
    assert (tmp_path / PROJECT_MODEL).read_bytes() == old
    assert not (tmp_path / "models" / ".selector.json.new").exists()


def test_the_model_replaced_is_kept_and_a_project_without_one_keeps_none(tmp_path: Path) -> None:
    old = a_project_with_its_model(tmp_path)
    assert save_project_model(a_model("new"), tmp_path) == (tmp_path / PROJECT_MODEL, tmp_path / FORGOTTEN_MODEL)
    assert (tmp_path / FORGOTTEN_MODEL).read_bytes() == old
    assert save_project_model(a_model("new"), tmp_path) == (tmp_path / PROJECT_MODEL, None)  # the same: not again
    fresh = tmp_path / "fresh"
    (fresh / "models").mkdir(parents=True)
    assert save_project_model(a_model("first"), fresh) == (fresh / PROJECT_MODEL, None)
    assert not (fresh / FORGOTTEN_MODEL).exists()
