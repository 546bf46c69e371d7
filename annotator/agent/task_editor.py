"""The task editor: a table of benchmark tasks, read from and written to JSONL with core's validation.

Every row is checked the way core reads a tasks file (`task_from_line`), so what the editor saves reads back;
a bad row is tinted and its problem shown, and nothing is written until every row is good. The rules column
takes rule names separated by commas; the answer kind is chosen from core's list.

Editing is the table's own (a double-click, F2 or typing edits a cell); picking a task for recording is a
separate act, Enter on a row or "Record this task", so that a double-click never leaves the Tasks tab. The editor
knows whether its rows differ from the file's (`modified()`), so that closing the window or opening another
file asks Save / Discard / Cancel, as editors do. Save does not write over a file changed on disk since it was
read (by another program, or a second window): it asks Reload from disk / Save over it / Cancel, naming the tasks
that differ there.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.agent import ANSWER_KINDS, NORMALISE_RULES, Task, load_tasks, save_tasks, task_from_line
from ...core.command_hints import hint_path
from ...core.errors import AgentError, os_error_said, system_words
from ...core.resource_files import is_shipped
from ...core.wording import named_and_more
from ..qt.contrast import tint_cell
from ..qt.file_dialogs import FileDialog as QFileDialog  # Qt's, never opening a file it lists (see there)
from ..qt.signals import emit
from ..qt.widgets import button

COLUMNS = ("id", "category", "instruction", "answer", "answer_kind", "normalise", "start_url")
KIND_COLUMN = COLUMNS.index("answer_kind")
BAD_ROW = QColor("#ffe3e3")  # a bad row's tint on white; on another theme's rows, as it tints white (`tint_cell`)
DEFAULT_RULES = ("case", "whitespace")
HINT = ("Double-click a cell (or F2) to edit it. Enter on a row, or “Record this task”, picks the task for "
        "recording on the Site tab.")
Answer = QMessageBox.StandardButton


def ask_about_changed_file(parent: QWidget, path: Path, differ: str) -> str:
    """"reload", "overwrite" or "cancel", for a tasks file changed on disk since it was read (`differ`: how)."""
    box = QMessageBox(QMessageBox.Icon.Warning, "Tasks file changed on disk",
                      f"{hint_path(path)} has changed on disk since it was read here ({differ}).\n\nReload from disk: "
                      "the table shows the file as it is now, and the edits made here are dropped.\nSave over it: the "
                      "table is written, and the changes made on disk are lost.", QMessageBox.StandardButton.NoButton,
                      parent)
    reload = box.addButton("Reload from disk", QMessageBox.ButtonRole.DestructiveRole)
    overwrite = box.addButton("Save over it", QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(box.addButton(QMessageBox.StandardButton.Cancel))
    box.exec()
    clicked = box.clickedButton()
    return "reload" if clicked is reload else "overwrite" if clicked is overwrite else "cancel"


def ask_to_save(parent: QWidget, what: str) -> QMessageBox.StandardButton:
    """Save, Discard or Cancel for unsaved task edits, before `what` ("closing the window") loses them."""
    return QMessageBox.question(parent, "Unsaved tasks", f"The task table has changes that are not saved. Save "
                                f"them before {what}?", Answer.Save | Answer.Discard | Answer.Cancel, Answer.Save)


class TaskEditor(QWidget):
    """Signals: `saved(path)`, `loaded(path)`, `task_chosen(task)` (Enter on a row or "Record this task"),
    `modified_changed(bool)`, `review_made(queue)` (the review queue, made when first opened). `ask` is how unsaved
    edits are asked about, `ask_changed` what to do with a file changed on disk since it was read (tests answer both
    themselves)."""

    # The file's Path: a str through Qt would lose the bytes of a name that are not UTF-8 (another file, said)
    saved = Signal(object)
    loaded = Signal(object)
    task_chosen = Signal(object)
    modified_changed = Signal(bool)
    review_made = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path: Path | None = None
        self.site = ""  # written with every task, so a tasks file names the site it belongs to
        self.site_source = lambda: None  # the open Site (the agent window sets it), for the review's answer check
        self.review = None  # the review queue window, once opened
        self.ask = ask_to_save
        self.ask_changed = ask_about_changed_file
        # The file as last read or written here: its bytes' digest, and its tasks (to say which ones differ)
        self._disk_digest: str | None = None
        self._disk_tasks: list[Task] = []
        self._clean: list[list[str]] = []  # the rows as last loaded or saved: any difference is unsaved
        self._was_modified = False
        self.table = _TaskTable(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(COLUMNS.index("instruction"), QHeaderView.ResizeMode.Stretch)
        self.table.itemChanged.connect(_show_whole_text)
        # Every cell change would compare the whole table: once per turn of the loop (tints set none: `_tint`)
        self._recheck = QTimer(self, singleShot=True, interval=0)
        self._recheck.timeout.connect(self._note_change)
        self._recheck.timeout.connect(self._refresh_rows_note)
        self._rows_note: tuple[str, str] | None = None  # the bad-rows note on show: (its prefix, its text)
        self.table.itemChanged.connect(self._recheck.start)
        self.table.model().rowsInserted.connect(self._recheck.start)
        self.table.model().rowsRemoved.connect(self._recheck.start)
        self.table.row_entered.connect(self._choose)
        self.table.setToolTip("normalise: rule names separated by commas, from " + ", ".join(NORMALISE_RULES))
        self.status = QLabel(" ")
        self.status.setWordWrap(True)
        self.hint = QLabel(HINT)
        self.hint.setWordWrap(True)
        buttons = QHBoxLayout()
        for text, slot in (("Open…", self.open_dialog), ("Save", self.save), ("Save as…", self.save_as_dialog),
                           ("Add task", self.add_task), ("Remove", self.remove_selected),
                           ("Check", self.check), ("Review candidates…", self.open_review)):
            buttons.addWidget(button(text, slot))
        self.record_button = button("Record this task", lambda: self._choose(self.table.currentRow()))
        buttons.addWidget(self.record_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(buttons)
        layout.addWidget(self.hint)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)

    # -- rows -------------------------------------------------------------------------------------------------

    def set_tasks(self, tasks: list[Task]) -> None:
        """Show `tasks` as the file's own: what the table holds now counts as saved."""
        if tasks and not self.site:
            self.site = tasks[0].site
        self._put_rows([_cells(task) for task in tasks])

    def modified(self) -> bool:
        """Whether the rows differ from the file's as last loaded or saved (an edit undone by hand is none).
        A cell still being typed in counts: its text is committed first, or closing would lose it unasked."""
        self.table.commit_open_editor()
        return displayed_rows(self.table) != self._clean

    def _mark_clean(self) -> None:
        self._clean = displayed_rows(self.table)
        self._note_change()

    def _note_change(self) -> None:
        now = self.modified()
        if now != self._was_modified:
            self._was_modified = now
            emit(self.modified_changed, now)

    def may_discard(self, what: str) -> bool:
        """True when the rows may go: nothing unsaved, or the user saved them or chose to discard them (then
        the file's rows are put back, so the same close is not asked about twice); False: keep them (Cancel, or
        a save that did not happen)."""
        if not self.modified():
            return True
        answer = self.ask(self, what)
        if answer == Answer.Save:
            return self.save() is not None
        if answer == Answer.Discard:
            # The file's rows back, not the edits made clean: should what follows not happen (the file chosen
            # fails to load), the table must not show discarded edits as saved, for a later Save to write
            self._put_rows(self._clean)
            return True
        return False

    def _put_rows(self, rows: list[list[str]]) -> None:
        """The table holds `rows` (as `displayed_rows` gives them), and they count as saved."""
        self.table.setRowCount(0)
        for cells in rows:
            self._append_cells(cells)
        self.table.resizeRowsToContents()
        self._mark_clean()

    def _append(self, task: Task) -> None:
        self._append_cells(_cells(task))

    def _append_cells(self, cells: list[str]) -> None:
        """A row of cell texts in COLUMNS' order (an unknown answer kind shows as the first kind)."""
        row = self.table.rowCount()
        self.table.insertRow(row)
        for column, text in enumerate(cells):
            if column == KIND_COLUMN:
                kinds = QComboBox()
                kinds.addItems(ANSWER_KINDS)
                kinds.setCurrentText(text if text in ANSWER_KINDS else ANSWER_KINDS[0])
                kinds.currentTextChanged.connect(self._recheck.start)
                self.table.setCellWidget(row, column, kinds)
            else:
                self.table.setItem(row, column, QTableWidgetItem(text))

    def add_task(self) -> None:
        """A new row with a fresh id, ready to be filled in."""
        ids = {self._cell(r, "id") for r in range(self.table.rowCount())}
        number = self.table.rowCount() + 1
        while f"task-{number}" in ids:
            number += 1
        start = self._cell(self.table.rowCount() - 1, "start_url") if self.table.rowCount() else ""
        self._append(Task(id=f"task-{number}", instruction="", answer="", normalise=DEFAULT_RULES,
                          start_url=start, site=self.site))
        self.table.setCurrentCell(self.table.rowCount() - 1, COLUMNS.index("instruction"))

    def remove_selected(self) -> None:
        for row in sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True):
            self.table.removeRow(row)

    def _cell(self, row: int, name: str) -> str:
        column = COLUMNS.index(name)
        if column == KIND_COLUMN:
            widget = self.table.cellWidget(row, column)
            return widget.currentText() if isinstance(widget, QComboBox) else ""
        item = self.table.item(row, column)
        return item.text() if item is not None else ""

    def _row_task(self, row: int) -> Task:
        """The row as core reads a tasks line; AgentError says what is wrong with it."""
        rules = [r.strip() for r in self._cell(row, "normalise").replace(";", ",").split(",") if r.strip()]
        data = {"id": self._cell(row, "id"), "category": self._cell(row, "category"),
                "instruction": self._cell(row, "instruction"), "answer": self._cell(row, "answer"),
                "answer_kind": self._cell(row, "answer_kind"), "normalise": rules,
                "start_url": self._cell(row, "start_url"), "site": self.site}
        return task_from_line(json.dumps(data, ensure_ascii=False))

    def tasks(self) -> tuple[list[Task], list[str]]:
        """The good rows as tasks, and one message per bad row (its row is tinted)."""
        tasks, problems = self._read_rows()
        for row in range(self.table.rowCount()):
            self._tint(row, problems.get(row))
        return tasks, [f"row {row + 1}: {problem}" for row, problem in problems.items()]

    def good_tasks(self) -> list[Task]:
        """The good rows as tasks, the table left as it is (no row tinted): for what only reads the tasks open
        here, as the review queue's seeds."""
        return self._read_rows()[0]

    def _read_rows(self) -> tuple[list[Task], dict[int, str]]:
        """The good rows as tasks, and what is wrong with each bad row, by row."""
        tasks: list[Task] = []
        problems: dict[int, str] = {}
        seen: dict[str, int] = {}
        for row in range(self.table.rowCount()):
            problem = None
            try:
                task = self._row_task(row)
                if task.id in seen:
                    problem = f"id {task.id!r} is also used in row {seen[task.id] + 1}"
                else:
                    seen[task.id] = row
                    tasks.append(task)
            except AgentError as error:
                problem = str(error)
            if problem:
                problems[row] = problem
        return tasks, problems

    def _tint(self, row: int, problem: str | None) -> None:
        """A bad row tinted, its problem as every cell's tooltip; a good row plain, each tooltip the cell's whole
        text (as `_show_whole_text` keeps it). Only what differs is set, and with the table's signals blocked:
        every set emits itemChanged, which asks for the table to be checked again, and a note on show tints
        again on each check, so the UI thread re-validated the table without end. The view still repaints. The tint
        is the theme's, its text reads on it, and both follow a theme switch (`tint_cell`)."""
        with QSignalBlocker(self.table):
            for column in range(self.table.columnCount()):
                item = self.table.item(row, column)
                if item is None:
                    continue
                tint_cell(self.table, self.table.indexFromItem(item), BAD_ROW if problem else None)
                tip = problem or item.text()
                if item.toolTip() != tip:
                    item.setToolTip(tip)

    def current_task(self) -> Task | None:
        row = self.table.currentRow()
        if row < 0:
            return None
        try:
            return self._row_task(row)
        except AgentError as error:
            self.status.setText(f"row {row + 1}: {error}")
            return None

    def _choose(self, row: int) -> None:
        if row < 0:
            self.status.setText("choose a row first: its task is the one recorded")
            return
        self.table.setCurrentCell(row, 0)
        task = self.current_task()
        if task is not None:
            emit(self.task_chosen, task)

    # -- files ------------------------------------------------------------------------------------------------

    def load(self, path: str | Path) -> list[Task]:
        """Read a tasks file; on a bad file the table keeps what it had and the status says why."""
        digest = None  # read before the tasks: a change made meanwhile is a change since
        with contextlib.suppress(OSError):  # a file that cannot be read fails below, and says why
            digest = file_digest(Path(path))
        try:
            tasks = load_tasks(path)
        except AgentError as error:
            self.status.setText(str(error))
            raise
        self.path = Path(path)
        self._disk_digest, self._disk_tasks = digest, tasks
        self.site = tasks[0].site if tasks else ""
        self.set_tasks(tasks)  # marks the rows clean
        self.status.setText(f"{len(tasks)} tasks from {hint_path(self.path)}")
        emit(self.loaded, self.path)
        return tasks

    def _say_bad_rows(self, prefix: str, problems: list[str]) -> None:
        text = f"{prefix}{len(problems)} bad row(s): " + "; ".join(problems[:3])
        self._rows_note = (prefix, text)
        self.status.setText(text)

    def _refresh_rows_note(self) -> None:
        """Keep a bad-rows note on show true as the table changes: a row removed or put right is no longer named
        (the rows are numbered anew), and once none is bad the note says so. Another message since: left alone."""
        if self._rows_note is None or self.status.text() != self._rows_note[1]:
            self._rows_note = None
            return
        prefix = self._rows_note[0]
        tasks, problems = self.tasks()  # the tints follow too
        if problems:
            self._say_bad_rows(prefix, problems)
            return
        self._rows_note = None
        unsaved = prefix and self.modified()  # removing the bad rows may leave the file's rows as they were
        self.status.setText(f"{len(tasks)} tasks, all valid" + ("; not saved yet" if unsaved else ""))

    def check(self) -> bool:
        tasks, problems = self.tasks()
        if problems:
            self._say_bad_rows("", problems)
            return False
        self.status.setText(f"{len(tasks)} tasks, all valid")
        return True

    def save(self, path: str | Path | None = None) -> Path | None:
        """Write every row (all must be valid) as JSONL, atomically; None (and a message) when not saved."""
        target = Path(path) if path else self.path
        if target is not None and is_shipped(target):
            self.status.setText(f"{hint_path(target)} ships with RecordLens and is never changed: choose where to save")
            return self.save_as_dialog()
        if target is None:
            return self.save_as_dialog()
        tasks, problems = self.tasks()
        if problems:
            self._say_bad_rows("not saved: ", problems)
            return None
        if not self._may_write_over(target):
            return None
        try:
            save_tasks(target, tasks)
        except (AgentError, OSError) as error:
            self.status.setText(f"not saved: {os_error_said(error) if isinstance(error, OSError) else error}")
            return None
        self.path = target
        self._disk_digest, self._disk_tasks = None, tasks
        with contextlib.suppress(OSError):  # written, but not readable: the next Save cannot tell, and says so
            self._disk_digest = file_digest(target)
        self._mark_clean()
        self.status.setText(f"saved {len(tasks)} tasks to {hint_path(target)}")
        emit(self.saved, target)
        return target

    def _may_write_over(self, target: Path) -> bool:
        """Whether Save may write `target`: yes, unless it is the file open here and it changed on disk since it
        was read or written here; then the user chooses (a reload shows the file's rows, and nothing is saved)."""
        if self.path is None or self._disk_digest is None or target.resolve() != self.path.resolve():
            return True
        try:
            now = file_digest(target)
        except OSError as error:  # there, but whether it changed cannot be told: never written over unasked
            self.status.setText(f"not saved: {hint_path(target)} cannot be read ({system_words(error)}), so whether it "
                                "changed on disk since it was read cannot be told; make it readable, or save under "
                                "another name")
            return False
        if now is None or now == self._disk_digest:  # gone (writing it again loses nothing), or as it was
            return True
        differ = differences(self._disk_tasks, target)
        answer = self.ask_changed(self, target, differ)
        if answer == "overwrite":
            return True
        if answer == "reload":
            try:
                self.load(target)
            except AgentError:  # the status line says why; the table keeps its rows, still unsaved
                return False
            self.status.setText(f"not saved: {hint_path(target)} had changed on disk ({differ}): reloaded from it, the "
                                "edits made here dropped")
        else:
            self.status.setText(f"not saved: {hint_path(target)} has changed on disk since it was read ({differ}); "
                                "Save again to reload it or to save over it")
        return False

    def open_review(self, path: str | Path | None = None):  # noqa: ANN201 - a ReviewQueue
        """Open the review queue for a candidates file (asked for when not given)."""
        return _open_review(self, path)

    def close_review(self) -> bool:
        """Close the review queue and let it go; True when it closed (or none was open). The queue asks first about
        an edit not saved: kept (Cancel, or a Save that failed), its close is refused, and it stays open with the
        edit, still this editor's queue (False)."""
        if self.review is None:
            return True
        if not self.review.close():
            return False
        self.review.deleteLater()
        self.review = None
        return True

    def open_dialog(self) -> None:
        """Asked about unsaved edits only once a file is chosen: a chooser cancelled leaves them as they were."""
        name, _ = QFileDialog.getOpenFileName(self, "Open tasks", str(self.path or ""), "Tasks (*.jsonl);;All (*)")
        if not name or not self.may_discard("opening another tasks file"):
            return
        with contextlib.suppress(AgentError):  # the status line shows the problems
            self.load(name)

    def save_as_dialog(self) -> Path | None:
        name, _ = QFileDialog.getSaveFileName(self, "Save tasks", str(self.path or "tasks.jsonl"),
                                              "Tasks (*.jsonl)")
        return self.save(name) if name else None


def file_digest(path: Path) -> str | None:
    """The SHA-256 of the file's bytes (None: there is no file), to tell a file changed since it was read. A file
    that is there but cannot be read raises OSError: whether it changed cannot be told."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def differences(read: list[Task], path: Path) -> str:
    """How the tasks file at `path` differs from `read` (its tasks when it was read here), by task id: "lookup-1
    changed there; lookup-9 added there"; or why it cannot be told."""
    try:
        now = {task.id: task for task in load_tasks(path)}
    except AgentError as error:
        return f"it no longer reads as a tasks file: {error}"
    before = {task.id: task for task in read}
    parts = []
    for ids, what in (([i for i in now if i in before and now[i] != before[i]], "changed"),
                      ([i for i in now if i not in before], "added"),
                      ([i for i in before if i not in now], "removed")):
        if ids:
            parts.append(f"{named_and_more(ids, 3)} {what} there")
    return "; ".join(parts) or "the same tasks, written differently"


def _open_review(editor: TaskEditor, path: str | Path | None = None):  # noqa: ANN202 - a ReviewQueue
    """The review queue for candidate tasks (review_queue.py), in a window of its own; refined tasks it hands
    over are added to the table (a task whose id is there already replaces that row)."""
    from .review_queue import ReviewQueue

    if editor.review is None:
        editor.review = ReviewQueue(editor)
        editor.review.setWindowFlag(Qt.WindowType.Window)  # its own window, closed with the editor
        editor.review.refined.connect(lambda tasks: _add_refined(editor, tasks))
        editor.loaded.connect(lambda _: editor.review is not None and editor.review.show_seeds_again())
        emit(editor.review_made, editor.review)  # the agent window gives it the candidates file last reviewed
    editor.review.set_site(editor.site_source())
    # The experts' seeds are often the tasks open here: read as they are each time a candidate's seeds are shown
    editor.review.seeds_from(editor.good_tasks)
    # Its file chooser starts beside the open tasks file, where a benchmark's candidates usually are
    editor.review.start_folder = editor.path.parent if editor.path is not None else None
    if path is None:
        editor.review.show()
        if not editor.review.candidates:
            editor.review.reopen_or_ask()
    else:
        editor.review.load(path)
        editor.review.show()
    return editor.review


def _add_refined(editor: TaskEditor, tasks: list[Task]) -> None:
    rows = {editor._cell(r, "id"): r for r in range(editor.table.rowCount())}
    updated = 0
    for task in tasks:
        if task.id in rows:
            updated += 1
            editor.table.removeRow(rows.pop(task.id))
            rows = {editor._cell(r, "id"): r for r in range(editor.table.rowCount())}
        editor._append(task)
    editor.table.resizeRowsToContents()
    editor.status.setText(f"from the review: {len(tasks) - updated} refined task(s) added, {updated} updated (their "
                          "ids were in the table already); save to keep them")


class _TaskTable(QTableWidget):
    """Row heights follow the wrapped instructions at the width the table has now: measured once, before it was
    laid out, against a stretching column still 100 px wide, rows were up to a dozen lines tall and only 2 to 4
    of the 12 demo tasks showed. `row_entered(row)`: Enter on a row while no cell is being edited (an open
    cell editor takes Enter itself, to commit)."""

    row_entered = Signal(int)

    def commit_open_editor(self) -> None:
        """Put the text of a cell being typed in into its cell (the editor stays open, to go on typing)."""
        if self.state() != self.State.EditingState:
            return
        editor = self.indexWidget(self.currentIndex())
        if editor is not None:
            self.commitData(editor)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if (event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.state() != self.State.EditingState
                and self.currentRow() >= 0):
            emit(self.row_entered, self.currentRow())
            return
        super().keyPressEvent(event)

    def __init__(self, rows: int, columns: int) -> None:
        super().__init__(rows, columns)
        self.setAccessibleName("tasks")
        self.horizontalHeader().setAccessibleName("task columns")
        self.verticalHeader().setAccessibleName("task rows")
        # Qt's corner button (top left, where the headers meet) selects every cell, and says nothing of it
        corner = self.findChild(QAbstractButton, "qt_tableview_cornerbutton")
        if corner is not None:
            corner.setAccessibleName("select all tasks")
            corner.setToolTip("Select all tasks")
        self._fit = QTimer(self, singleShot=True, interval=0)  # after the header has stretched its column too
        self._fit.timeout.connect(self.resizeRowsToContents)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit.start()


def _show_whole_text(item: QTableWidgetItem) -> None:
    """A cell's tooltip is its whole text, for a column that cuts it (a long start_url), after every edit too."""
    if item.toolTip() != item.text():  # setting it changes the item again: once is enough
        item.setToolTip(item.text())


def displayed_rows(table: QTableWidget) -> list[list[str]]:
    """The table's text, row by row (tests and debugging)."""
    out = []
    for row in range(table.rowCount()):
        cells = []
        for column in range(table.columnCount()):
            widget = table.cellWidget(row, column)
            item = table.item(row, column)
            cells.append(widget.currentText() if isinstance(widget, QComboBox) else (item.text() if item else ""))
        out.append(cells)
    return out


def _cells(task: Task) -> list[str]:
    """A task's row as cell texts in COLUMNS' order."""
    values = {"id": task.id, "category": task.category, "instruction": task.instruction, "answer": task.answer,
              "answer_kind": task.answer_kind, "normalise": ", ".join(task.normalise), "start_url": task.start_url}
    return [values[name] for name in COLUMNS]
