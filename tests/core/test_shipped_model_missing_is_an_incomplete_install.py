"""The selector model RecordLens ships missing from its install (a file deleted, an unpacking cut short) is said as
the app says a file of its folder missing: its path, "the RecordLens installation is incomplete" and how to install
again, in the one wording (`core/incomplete_install.py`); a model file of the user's that is not there is still
"cannot read the model". The shipped resources are a copy here (a folder the test makes, with no model in it): the
tree's own model is never touched."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core import resource_files
from recordlens.core.command_hints import hint_path
from recordlens.core.extract import selector
from recordlens.core.extract.selector_model import ModelError, SelectorModel
from recordlens.core.incomplete_install import IncompleteInstall
from tests.core.cli_runs import DEMO, run

REINSTALL = ("install it again (`pip install --force-reinstall 'recordlens[app]'`; in a source checkout, restore the "
             "file with `git checkout`)")


@pytest.fixture
def shipped_without_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An install's resources/ whose models/ lacks the shipped model; the path the model should be at."""
    resources = tmp_path / "install" / "resources"
    (resources / "models").mkdir(parents=True)
    model = resources / "models" / "selector.json.gz"
    monkeypatch.setattr(resource_files, "_resources_folder", lambda: resources)
    monkeypatch.setattr(selector, "DEFAULT_MODEL", model)
    return model


def test_extract_says_the_install_is_incomplete(shipped_without_model: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "extract", "--pages", str(DEMO / "html"), "--out", str(tmp_path / "run"))
    assert (code, err.splitlines()) == (2, [f"recordlens: error: {hint_path(shipped_without_model)} is missing: the "
                                            f"RecordLens installation is incomplete; {REINSTALL}"])


def test_it_is_an_incomplete_install_and_still_a_model_error(shipped_without_model: Path) -> None:
    with pytest.raises(IncompleteInstall) as raised:  # the app's start heads it "its installation is incomplete"
        SelectorModel.load(shipped_without_model)
    assert isinstance(raised.value, ModelError)  # whoever reads a model catches it as ever


def test_a_users_missing_model_is_not_the_install_s_fault(shipped_without_model: Path, tmp_path: Path) -> None:
    with pytest.raises(ModelError) as raised:
        SelectorModel.load(tmp_path / "mine.json")
    assert not isinstance(raised.value, IncompleteInstall)
    said = f"{hint_path(tmp_path / 'mine.json')}: cannot read the model (no such selector model)"
    assert str(raised.value) == said
