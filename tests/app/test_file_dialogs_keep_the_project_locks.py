"""A file dialog of the app never drops the locks SQLite holds on the open project's database.

On Linux, closing any descriptor a process has on a file drops every POSIX lock the process holds on it. Qt's file
dialog read the first bytes of each file of the folder it showed (to tell its kind), so Ctrl+O, which starts in
the project's own folder, opened and closed project.db and project.db-shm: a `recordlens` command run next took
itself for the project's last user and deleted the write-ahead log the app went on writing to, and an edit the
app said was saved was lost. The app's dialogs (annotator/qt/file_dialogs.py) tell a file's kind by its name, and
refuse a file of a database the process may have open; a loss of locks while a dialog is open is said.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QFileSystemModel, QLineEdit, QMessageBox

from recordlens.annotator.qt.file_dialogs import FileDialog, posix_locks_held
from recordlens.core.store.db import connect
from tests.app.window_helpers import Answering

ROOT = Path(__file__).resolve().parents[2]
DIALOG_SECONDS = 30  # the longest a dialog is waited for, and left open, on a busy machine


class InTheDialog:
    """Once a file dialog is up and has listed its folder (every file of it handed to the dialog's icon provider,
    where Qt's own read them), does `then` to it, as a person would with keys; closes it with Esc after that, or
    when it never lists its folder."""

    def __init__(self, then: Callable[[QFileDialog], None] = lambda dialog: None) -> None:
        self.then = then
        self.listed = False  # the dialog listed its folder before it was closed
        self._ticks_after_listing = 0
        self._ticks = 0
        self.timer = QTimer()
        self.timer.timeout.connect(self._look)
        self.timer.start(50)

    def _look(self) -> None:
        self._ticks += 1
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog) or not dialog.isVisible():
            return
        if not self.listed and not _listed(dialog) and self._ticks * 50 < DIALOG_SECONDS * 1000:
            return
        self.listed = self.listed or _listed(dialog)
        self._ticks_after_listing += 1
        if self._ticks_after_listing < 10:  # half a second more: every batch of the listing is taken in
            return
        self.timer.stop()
        self.then(dialog)
        if dialog.isVisible() and QApplication.activeModalWidget() is dialog:
            QTest.keyClick(dialog, Qt.Key.Key_Escape)


def _listed(dialog: QFileDialog) -> bool:
    """Whether the dialog's model has taken in its folder's listing (the project's folder holds snapshots/)."""
    model = dialog.findChild(QFileSystemModel)
    return model is not None and model.rowCount(model.index(dialog.directory().absolutePath())) > 0


def _held_database(folder: Path):  # noqa: ANN202 - a sqlite_utils Database
    """A database in `folder` held open as the app holds its project's (WAL: locks on it and its -shm), in a
    folder holding a subfolder too, as a project's does (snapshots/), which any dialog lists."""
    (folder / "snapshots").mkdir()
    held = connect(folder / "project.db")
    held.execute("CREATE TABLE t (x)")
    assert all(_locks(folder).values()), _locks(folder)
    return held


def _locks(root: Path) -> dict[str, int]:
    return {name: posix_locks_held(root / name) for name in ("project.db", "project.db-shm")}


def _run_python(code: str) -> str:
    """`code` run by another Python process (as a `recordlens` command runs), what it printed."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _statuses_read_by_another_process(database: Path, page: str) -> list[str]:
    """The statuses of `page`'s records, as another process opening the project reads them."""
    return _run_python(f"""
        from pathlib import Path
        from recordlens.core.store.project import open_project
        with open_project(Path({str(database.parent)!r})) as project:
            print(" ".join(label.status for label in project.labels({page!r})))
    """).split()


def _judge_first_record(window, qtbot, key: Qt.Key, status: str) -> None:  # noqa: ANN001 - a MainWindow, a bot
    """The page's first record selected in the record list, and judged there with `key` (R rejects, A accepts)."""
    window.activateWindow()  # (offscreen, a dialog closed gives the window back no activation of its own)
    qtbot.waitUntil(window.isActiveWindow)
    window.record_panel.select_ids([window.project.labels(window.page_name)[0].id])
    window.record_panel.list.setFocus()
    QTest.keyClick(window.record_panel.list, key)
    qtbot.waitUntil(lambda: window.project.labels(window.page_name)[0].status == status, timeout=5_000)


def test_ctrl_o_closed_with_esc_keeps_the_locks_and_a_command_run_next_keeps_the_edits(qtbot, window):
    root = window.project.root
    database = root / "project.db"
    assert window.page_name == "1" and window.project.labels("1")[0].status == "accepted"
    _judge_first_record(window, qtbot, Qt.Key.Key_R, "rejected")
    assert (root / "project.db-wal").stat().st_size > 0  # the edit is in the log, not yet in project.db
    assert all(_locks(root).values()), _locks(root)

    closer = InTheDialog()
    QTest.keySequence(window, "Ctrl+O")  # the dialog starts in the project's own folder
    closer.timer.stop()
    assert closer.listed, "the dialog never listed the project's folder"
    assert all(_locks(root).values()), f"the dialog dropped the app's locks on the database: {_locks(root)}"

    # A command on the project, as `recordlens export` opens and closes it: it must see the app still there
    _run_python(f"""
        from pathlib import Path
        from recordlens.core.store.db import connect
        db = connect(Path({str(database)!r}))
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        db.conn.close()
    """)
    assert (root / "project.db-wal").is_file(), "a command deleted the log the app writes to"
    _judge_first_record(window, qtbot, Qt.Key.Key_A, "accepted")  # saved, says the app: and it is
    assert _statuses_read_by_another_process(database, "1")[0] == "accepted"


def test_a_database_the_app_holds_is_refused_in_a_file_dialog(qtbot, tmp_path):
    """What the app does with a file chosen (reads it, or its first bytes before writing over it) would open and
    close it: a file whose locks the process holds is refused, and the dialog stays open to choose another."""
    held = _held_database(tmp_path)
    try:
        answers = Answering(Qt.Key.Key_Escape)

        def choose_the_database(dialog: QFileDialog) -> None:
            name = dialog.findChild(QLineEdit, "fileNameEdit")
            name.setText("project.db")
            QTest.keyClick(name, Qt.Key.Key_Return)  # the refusal: a message box, answered with Esc
            qtbot.waitUntil(lambda: bool(answers.asked), timeout=DIALOG_SECONDS * 1000)
            qtbot.waitUntil(lambda: QApplication.activeModalWidget() is dialog, timeout=DIALOG_SECONDS * 1000)

        closer = InTheDialog(choose_the_database)
        chosen, _ = FileDialog.getOpenFileName(None, "Open tasks", str(tmp_path), "Tasks (*.jsonl);;All (*)")
        answers.stop()
        closer.timer.stop()
        assert chosen == ""
        assert len(answers.asked) == 1 and answers.asked[0][0] == (
            f"{tmp_path / 'project.db'} is a database in use (SQLite's project.db-wal is beside it): choose another "
            "file")
        assert posix_locks_held(tmp_path / "project.db")
    finally:
        held.conn.close()


def test_locks_lost_while_a_dialog_is_open_are_said(qtbot, tmp_path, capsys):
    """Were anything else to drop them (here a plain open and close of the database while the dialog is up), the
    user is told to start the app again before a command uses the project."""
    held = _held_database(tmp_path)
    try:
        answers = Answering(Qt.Key.Key_Escape)

        def drop_the_locks(_dialog: QFileDialog) -> None:
            (tmp_path / "project.db").read_bytes()  # the harm itself: a descriptor of the file closed

        closer = InTheDialog(drop_the_locks)
        assert FileDialog.getExistingDirectory(None, "Open a RecordLens project", str(tmp_path)) == ""
        qtbot.waitUntil(lambda: bool(answers.asked), timeout=DIALOG_SECONDS * 1000)
        answers.stop()
        closer.timer.stop()
        said = answers.asked[0][0]
        assert f"RecordLens lost its locks on {tmp_path / 'project.db'}" in said and "start it again" in said
        assert "lost its locks" in capsys.readouterr().err
        assert not isinstance(QApplication.activeModalWidget(), QMessageBox)
    finally:
        held.conn.close()
