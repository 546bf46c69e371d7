"""Learn's progress in the status bar says its phase and count in `train`'s words, in one bar that never goes back
from the pages to the fits; a Learn cancelled while it fits lets go of every page's prepared example."""

from __future__ import annotations

import gc
import threading
import time
import weakref
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.settings import SessionKeyStore, Settings
from recordlens.core.extract import training
from recordlens.core.extract.fit_pool import WORKERS_VARIABLE
from recordlens.core.store import open_project, project_model_path
from tests.core.catalogue_pages import project_with_policy

pytestmark = [pytest.mark.app, pytest.mark.usefixtures("quick_fits")]


def learning_window(tmp_path: Path, folder: Path) -> MainWindow:
    return MainWindow(open_project(folder), settings=Settings(annotator="tester"),  # type: ignore[arg-type]
                      settings_file=tmp_path / "settings.json", key_store=SessionKeyStore())


@pytest.mark.timeout(300)
def test_learns_progress_names_its_phase_and_never_goes_back(qtbot, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(WORKERS_VARIABLE, "1")
    folder, _ = project_with_policy(tmp_path / "p", with_secondary=True)
    window = learning_window(tmp_path, folder)
    try:
        window.show()
        bar = window.jobs.progress_bar
        shown: list[tuple[float, str, str]] = []
        job = window.jobs.do_learn()
        assert job is not None
        job.progress.connect(lambda *_: shown.append(  # after the window's own handler: what the bar shows
            (bar.value() / max(bar.maximum(), 1), bar.format(), bar.toolTip())))
        qtbot.waitUntil(lambda: window.job is None, timeout=240_000)
        assert project_model_path(folder).is_file(), window.statusBar().currentMessage()
        shares = [share for share, _, _ in shown]
        assert shares == sorted(shares), shares
        words = [what for _, what, _ in shown]
        assert "preparing pages 8/8" in words, words
        assert any(what.startswith("fitting ") for what in words), words
        assert not [what for what in words if not what.startswith(("preparing pages ", "fitting "))], words
        # the bar cuts nothing it does not keep whole in its tooltip, the job's name first
        assert all(tip == f"learning from 8 labelled pages: {what}" for _, what, tip in shown if what)
    finally:
        window.close()
        window.shutdown()


@pytest.mark.timeout(300)
def test_a_cancelled_learn_lets_go_of_the_pages_it_prepared(qtbot, tmp_path: Path, monkeypatch) -> None:
    folder, _ = project_with_policy(tmp_path / "slow", with_secondary=True)
    fitting = threading.Event()
    real_fit, real_without_page = training._fit_task, training.without_page
    prepared: list[weakref.ref] = []

    def slow_fit(task):  # noqa: ANN001, ANN202 - the training's own fit, a second slower
        fitting.set()
        time.sleep(1.0)
        return real_fit(task)

    def kept(example):  # noqa: ANN001, ANN202 - each page's example as training keeps it, watched
        example = real_without_page(example)
        prepared.append(weakref.ref(example))
        return example

    monkeypatch.setenv(WORKERS_VARIABLE, "1")  # in this process, where the slow fit is
    monkeypatch.setattr(training, "_fit_task", slow_fit)
    monkeypatch.setattr(training, "without_page", kept)
    window = learning_window(tmp_path, folder)
    try:
        assert window.jobs.do_learn() is not None
        qtbot.waitUntil(fitting.is_set, timeout=120_000)
        window.jobs.do_cancel_job()
        qtbot.waitUntil(lambda: window.job is None, timeout=30_000)
        assert len(prepared) == 8
        assert gc.get_freeze_count() == 0  # the collector sees every object again
        assert [ref for ref in prepared if ref() is not None] == []
        assert not project_model_path(folder).exists()
    finally:
        window.close()
        window.shutdown()
