"""A file dialog of the app refuses a file of a database the process may have open as core's readers refuse it
(`file_kinds.sqlite_file_in_use`: by the names SQLite keeps beside it, or, under another name, by the registry of
the databases this process opened), in their words. It asked Linux's /proc/locks which files the process held
locks on: the write-ahead log, on which SQLite holds none, was taken (and what the app then did with it, a read or
a write over it, corrupts the project), and on a system without /proc nothing was refused at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit

from recordlens.annotator.qt import file_dialogs
from recordlens.annotator.qt.file_dialogs import FileDialog
from tests.app.test_file_dialogs_keep_the_project_locks import DIALOG_SECONDS, InTheDialog, _held_database
from tests.app.window_helpers import Answering


def _choose(qtbot, folder: Path, name: str, *, saving: bool = False) -> tuple[str, list[str]]:  # noqa: ANN001
    """`name` typed in a file dialog on `folder` and taken with Return, as a person would; what the dialog gave
    back, and what each refusal said (answered with Esc, the dialog then closed with Esc)."""
    answers = Answering(Qt.Key.Key_Escape)

    def type_the_name(dialog: QFileDialog) -> None:
        edit = dialog.findChild(QLineEdit, "fileNameEdit")
        edit.setText(name)
        QTest.keyClick(edit, Qt.Key.Key_Return)
        if dialog.isVisible():  # refused: a message box, answered with Esc, and the dialog stays
            qtbot.waitUntil(lambda: bool(answers.asked), timeout=DIALOG_SECONDS * 1000)
            qtbot.waitUntil(lambda: QApplication.activeModalWidget() is dialog, timeout=DIALOG_SECONDS * 1000)

    closer = InTheDialog(type_the_name)
    try:
        if saving:
            chosen, _ = FileDialog.getSaveFileName(None, "Save the chart", str(folder), "All (*)")
        else:
            chosen, _ = FileDialog.getOpenFileName(None, "Open tasks", str(folder), "All (*)")
    finally:
        answers.stop()
        closer.timer.stop()
    return chosen, [question for question, _, _ in answers.asked]


def test_the_write_ahead_log_of_the_database_the_app_holds_is_refused(qtbot, tmp_path) -> None:
    held = _held_database(tmp_path)
    try:
        assert file_dialogs.posix_locks_held(tmp_path / "project.db-wal") == 0  # no lock of SQLite's on it
        chosen, said = _choose(qtbot, tmp_path, "project.db-wal")
        assert chosen == ""
        assert said == [f"{tmp_path / 'project.db-wal'} is SQLite's write-ahead log of the database project.db: "
                        "choose another file"]
    finally:
        held.conn.close()


def test_a_hard_link_to_the_database_the_app_holds_is_refused_without_proc(qtbot, tmp_path, monkeypatch) -> None:
    """As on a system without Linux's /proc: the registry of the databases this process opened still knows it."""
    (tmp_path / "project").mkdir()
    held = _held_database(tmp_path / "project")
    try:
        (tmp_path / "elsewhere").mkdir()
        os.link(tmp_path / "project" / "project.db", tmp_path / "elsewhere" / "tasks.jsonl")
        monkeypatch.setattr(file_dialogs, "PROC_LOCKS", tmp_path / "no-proc" / "locks")
        chosen, said = _choose(qtbot, tmp_path / "elsewhere", "tasks.jsonl")
        assert chosen == ""
        assert said == [f"{tmp_path / 'elsewhere' / 'tasks.jsonl'} is another name (a hard link) of "
                        f"{tmp_path / 'project' / 'project.db'}, a database in use (SQLite's project.db-wal is "
                        "beside it): choose another file"]
    finally:
        held.conn.close()


@pytest.mark.parametrize("saving", [False, True])
def test_a_file_of_no_database_is_taken(qtbot, tmp_path, saving: bool) -> None:
    """Beside the database, a file to open, or a new file to save."""
    held = _held_database(tmp_path)
    try:
        (tmp_path / "tasks.jsonl").write_text("", encoding="utf-8")
        name = "chart.png" if saving else "tasks.jsonl"
        chosen, said = _choose(qtbot, tmp_path, name, saving=saving)
        assert chosen == str(tmp_path / name) and said == []
    finally:
        held.conn.close()
