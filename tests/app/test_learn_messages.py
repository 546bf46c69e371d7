"""What the app says around a project's learnt model: Propose with a model learnt from too few pages says so where
its proposals land, and how to go back; an unusable model in a project with nothing labelled is not answered with
"Learn" alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.settings import SessionKeyStore, Settings
from recordlens.core.store import open_project, project_model_path, train_on_project
from tests.core.catalogue_pages import project_with_policy

pytestmark = [pytest.mark.app, pytest.mark.usefixtures("quick_fits")]


def open_window(folder: Path, tmp_path: Path) -> MainWindow:
    return MainWindow(open_project(folder), settings=Settings(annotator="tester"),
                      settings_file=tmp_path / "settings.json", key_store=SessionKeyStore())


def test_propose_with_a_model_learnt_from_few_pages_says_so_as_it_ends(qtbot, tmp_path: Path) -> None:
    folder, _ = project_with_policy(tmp_path / "few", with_secondary=True, labelled=3)
    train_on_project(folder)  # as Learn does it, in this thread: one stage from 3 pages
    window = open_window(folder, tmp_path)
    try:
        assert window.propose(["3"]) is not None
        qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
        message = window.statusBar().currentMessage()
        # what it did first: a status bar cuts a long message at its end, and the caution is the same each time
        assert message.startswith("done: "), message
        assert message.endswith("; proposed with this project's model of one stage only, from 3 labelled pages (a "
                                "second stage needs 6): its proposals may be far off on pages it was not trained "
                                "on; Propose → Propose with the shipped model again goes back to the shipped "
                                "model"), message
    finally:
        window.close()
        window.shutdown()


def test_a_model_learnt_from_enough_pages_is_not_cautioned(qtbot, tmp_path: Path) -> None:
    folder, _ = project_with_policy(tmp_path / "enough", with_secondary=True, labelled=8)
    train_on_project(folder)  # as Learn does it: two stages from 8 pages
    window = open_window(folder, tmp_path)
    try:
        window.jobs.propose(["8"])
        qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
        message = window.statusBar().currentMessage()
        assert message.startswith("proposed with this project's model") or message.startswith("done: "), message
        assert "far off" not in message and "one stage only" not in message, message
    finally:
        window.close()
        window.shutdown()


def test_an_unusable_model_with_no_page_labelled_says_to_label_pages_first(qtbot, tmp_path: Path) -> None:
    folder, _ = project_with_policy(tmp_path / "none", with_secondary=False, labelled=0)
    project_model_path(folder).parent.mkdir(parents=True, exist_ok=True)
    project_model_path(folder).write_text(json.dumps({"format": "recordlens-selector/9"}), encoding="utf-8")
    window = open_window(folder, tmp_path)
    try:
        assert window.propose(["0"]) is not None
        qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
        message = window.statusBar().currentMessage()
        assert message.startswith(
            "proposed with the shipped model: this project's learnt model is unusable; no page is marked labelled "
            "yet: label pages and mark them (L), then Learn from this project’s labelled pages (Ctrl+Shift+L) "
            "learns it again; or Propose → Propose with the shipped model again sets it aside. Why: "), message
    finally:
        window.close()
        window.shutdown()
