"""Learn with the project's model already the one its labels give (the same pages, labels and seed) trains
nothing and says so, as `train --project` does ("not trained again"), and sets nothing aside. It used to train
again in full (minutes on a project of some size) and end with only "Propose now follows this project's labels"."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.settings import SessionKeyStore, Settings
from recordlens.core.extract import training
from recordlens.core.store import open_project, project_model_path, train_on_project
from tests.core.catalogue_pages import project_with_policy

pytestmark = [pytest.mark.app, pytest.mark.usefixtures("quick_fits")]


def opened(tmp_path: Path, folder: Path) -> MainWindow:
    return MainWindow(open_project(folder), settings=Settings(annotator="tester"),  # type: ignore[arg-type]
                      settings_file=tmp_path / "settings.json", key_store=SessionKeyStore())


@pytest.mark.timeout(300)
def test_learn_with_the_model_current_trains_nothing_and_says_so(qtbot, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    folder, _ = project_with_policy(tmp_path / "current", with_secondary=True, labelled=3)
    train_on_project(folder)  # as Learn does it, in this thread
    model = project_model_path(folder).read_bytes()

    def no_fit(*_: object, **__: object) -> None:
        raise AssertionError("Learn fitted a model that is in place already")

    monkeypatch.setattr(training, "fit", no_fit)
    window = opened(tmp_path, folder)
    try:
        assert window.jobs.do_learn() is not None
        qtbot.waitUntil(lambda: window.job is None, timeout=120_000)
        message = window.statusBar().currentMessage()
        assert message.startswith("the project's model is the one it had (the same 3 labelled pages and labels, "
                                  "seed 0, RecordLens "), message
        assert "): not trained again (checked in " in message, message
        # one stage from 3 pages: said as a Learn that wrote it says it
        assert "; it is of one stage only, from 3 labelled pages" in message, message
        assert "kept as" not in message, message
        assert project_model_path(folder).read_bytes() == model
        assert not (folder / "models" / "selector.forgotten.json").exists()
    finally:
        window.close()
        window.shutdown()
