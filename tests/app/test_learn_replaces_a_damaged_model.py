"""A damaged learnt model: Propose says Learn (Ctrl+Shift+L) learns it again, and Learn now does, setting the
damaged file aside and saying so, as it starts and as it ends (it used to fail with "is not a selector model …
choose another path"; then it said so only at its end, after minutes of fits). And
"Propose with the shipped model again" where `models/` cannot be written says why and keeps the model, in the
words a failed Learn uses (it used to raise an uncaught OSError in the slot and say nothing)."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.settings import SessionKeyStore, Settings
from recordlens.core.extract.selector_model import SelectorModel
from recordlens.core.store import open_project, project_model, project_model_path
from tests.core.catalogue_pages import project_with_policy

pytestmark = [pytest.mark.app, pytest.mark.usefixtures("quick_fits")]

CUT_SHORT = SelectorModel([], provenance={"trained_on": "cut"}).to_json().encode("utf-8")[:40]


def opened(tmp_path: Path, folder: Path) -> MainWindow:
    return MainWindow(open_project(folder), settings=Settings(annotator="tester"),  # type: ignore[arg-type]
                      settings_file=tmp_path / "settings.json", key_store=SessionKeyStore())


@pytest.mark.timeout(300)
def test_learn_sets_a_damaged_model_aside_and_replaces_it(qtbot, tmp_path: Path) -> None:
    folder, _ = project_with_policy(tmp_path / "damaged", with_secondary=True, labelled=3)
    model = project_model_path(folder)
    model.parent.mkdir(parents=True, exist_ok=True)
    model.write_bytes(CUT_SHORT)
    window = opened(tmp_path, folder)
    try:
        assert window.jobs.do_learn() is not None
        # said as Learn starts, as `train --project` says it, not only minutes later as it ends
        started = window.statusBar().currentMessage()
        assert started.startswith("learning from 3 labelled pages: this project's learnt model is unusable (not a "
                                  "selector model"), started
        assert started.endswith("): the model learnt replaces it, and it is set aside in models/"), started
        qtbot.waitUntil(lambda: window.job is None, timeout=120_000)
        message = window.statusBar().currentMessage()
        assert "failed" not in message, message
        assert project_model(folder) == (model, "")  # learnt again: Propose uses it
        assert (folder / "models" / "selector.unusable.json").read_bytes() == CUT_SHORT
        assert "; the earlier learnt model, which was unusable (not a selector model" in message, message
        # before the comparison with the shipped model that ends Learn of a model of one stage
        assert "), is kept as models/selector.unusable.json; on this project's labelled pages, " in message, message
    finally:
        window.close()
        window.shutdown()


def test_forgetting_where_models_cannot_be_written_says_why_and_keeps_the_model(qtbot, tmp_path: Path,
                                                                                 monkeypatch) -> None:
    folder, _ = project_with_policy(tmp_path / "read-only", with_secondary=True, labelled=3)
    model = project_model_path(folder)
    model.parent.mkdir(parents=True, exist_ok=True)
    learnt = SelectorModel([]).to_json().encode("utf-8")
    model.write_bytes(learnt)
    window = opened(tmp_path, folder)

    def refused(*_: object, **__: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr("recordlens.core.output_paths.tempfile.mkstemp", refused)
    try:
        window.actions_by_name["forget_model"].trigger()  # no exception escapes the slot
        assert window.statusBar().currentMessage() == (
            f"the learnt model cannot be set aside: cannot write {folder / 'models' / 'selector.forgotten.json'}: "
            f"nothing can be written in {folder / 'models'} (Read-only file system); Propose still uses it")
        assert model.read_bytes() == learnt
    finally:
        window.close()
        window.shutdown()
