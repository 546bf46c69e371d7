"""Ctrl+O on a folder that holds nothing offers to make a project there: the app had no way to make one, and the
message it gave ("create one with `recordlens project init ...`") named a command that the packaged app puts on no
PATH. A folder that holds something other than a project is still refused, with what the user most likely meant."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from recordlens.annotator.labelling import main_window
from recordlens.core.command_hints import hint_path
from tests.app.window_helpers import Answering, imported_project, open_window, recent_messages

pytestmark = pytest.mark.app

PAGE = "<!doctype html><html><head><title>One</title></head><body><ul><li>a</li><li>b</li></ul></body></html>"


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    return imported_project(tmp_path / "made", {"html/1.html": PAGE})


def open_with_ctrl_o(
    window: main_window.MainWindow,
    monkeypatch,  # noqa: ANN001 - pytest's MonkeyPatch
    folder: Path,
    *keys: Qt.Key,
) -> tuple[Answering, list[str]]:
    """Ctrl+O choosing `folder`, each question the window asks then answered with the next of `keys`; the questions,
    and the warnings shown (kept, not shown: one the test did not expect would wait for ever)."""
    monkeypatch.setattr(main_window.QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    warned: list[str] = []
    monkeypatch.setattr(main_window.QMessageBox, "warning", lambda _parent, _title, text, *a: warned.append(text))
    answering = Answering(*keys)
    try:
        window.do_open_project()
    finally:
        answering.stop()
    return answering, warned


def test_an_empty_folder_is_made_a_project_once_the_user_says_so(qtbot, tmp_path, project_dir, monkeypatch) -> None:
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        empty = tmp_path / "new project"
        empty.mkdir()
        (empty / ".hidden").write_text("a file manager's", encoding="utf-8")  # not the user's: still empty
        answering, warned = open_with_ctrl_o(window, monkeypatch, empty, Qt.Key.Key_C)
        assert warned == []
        [(question, details, buttons)] = answering.asked
        assert question == f"{hint_path(empty)} is not a RecordLens project yet. Create one there?"
        assert "The folder is empty" in details and buttons == ["&Create project", "Cancel"]
        assert (empty / "project.db").is_file()
        assert window.project.root == empty and window.project.page_names() == []
        assert f"created project {hint_path(empty)}" in recent_messages(window)
        assert "This project has no pages yet" in window.page_view.note.text()
    finally:
        window.close()


def test_cancel_makes_nothing_and_the_project_stays(qtbot, tmp_path, project_dir, monkeypatch) -> None:
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        empty = tmp_path / "empty"
        empty.mkdir()
        answering, warned = open_with_ctrl_o(window, monkeypatch, empty, Qt.Key.Key_Escape)
        assert len(answering.asked) == 1 and warned == []
        assert list(empty.iterdir()) == []
        assert window.project.root == project_dir
    finally:
        window.close()


def test_a_folder_holding_other_files_is_refused_as_before(qtbot, tmp_path, project_dir, monkeypatch) -> None:
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        folder = tmp_path / "notes"
        folder.mkdir()
        (folder / "notes.txt").write_text("mine", encoding="utf-8")
        answering, [said] = open_with_ctrl_o(window, monkeypatch, folder)
        assert answering.asked == []
        assert said.startswith(f"{hint_path(folder)} is not a RecordLens project (no project.db)")
        assert not (folder / "project.db").exists() and window.project.root == project_dir
    finally:
        window.close()
