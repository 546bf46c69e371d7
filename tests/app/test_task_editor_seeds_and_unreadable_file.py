"""The Tasks tab and its review queue (reviewer's probes): the queue reads the seeds from the task editor each time it
shows a candidate's (it kept the tasks as they were when it opened: an edit there, or another tasks file opened,
left it showing old seeds), and opening it tints no row (reading the tasks did); and Save does not write over a
tasks file that is there but cannot be read (whether it changed on disk since it was read cannot be told: it was
taken as gone, and written over unasked)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtWidgets import QTableWidgetItem

from recordlens.annotator.agent.task_editor import BAD_ROW, COLUMNS, TaskEditor
from recordlens.core.agent.tasks import load_tasks, save_tasks
from tests.app.agent_helpers import DEMO_TASKS, candidates_file

pytestmark = pytest.mark.app


@pytest.fixture
def editor(qapp):
    widget = TaskEditor()
    yield widget
    widget.close_review()
    widget.close()
    widget.deleteLater()


def test_the_review_queue_shows_the_seeds_as_the_editor_now_has_them(editor, tmp_path):
    editor.load(DEMO_TASKS)
    bad = editor.table.rowCount()
    editor.table.insertRow(bad)  # a row with no id: a bad row, tinted only when the tasks are checked or saved
    editor.table.setItem(bad, COLUMNS.index("instruction"), QTableWidgetItem("A task being written"))
    queue = editor.open_review(candidates_file(tmp_path, "lookup-1"))
    assert editor.table.item(bad, COLUMNS.index("instruction")).background().color() != BAD_ROW
    assert load_tasks(DEMO_TASKS)[0].instruction in queue.seeds_view.text()

    editor.table.setItem(0, COLUMNS.index("instruction"), QTableWidgetItem("Who is the first author, edited?"))
    queue.table.setCurrentCell(1, 0)  # the next candidate, of the same seed
    assert "Who is the first author, edited?" in queue.seeds_view.text(), queue.seeds_view.text()

    other = tmp_path / "other-tasks.jsonl"  # another tasks file opened in the editor: followed at once
    save_tasks(other, [replace(load_tasks(DEMO_TASKS)[0], instruction="The other file's lookup-1")])
    editor.load(other)
    assert "The other file's lookup-1" in queue.seeds_view.text(), queue.seeds_view.text()


def test_save_does_not_write_over_a_tasks_file_it_cannot_read(editor, tmp_path, monkeypatch):
    path = tmp_path / "tasks.jsonl"
    path.write_bytes(DEMO_TASKS.read_bytes())
    editor.load(path)
    before = path.read_bytes()
    editor.table.setItem(0, COLUMNS.index("instruction"), QTableWidgetItem("Edited here"))
    asked: list[str] = []
    editor.ask_changed = lambda *args: asked.append(args[2]) or "overwrite"
    read_bytes = Path.read_bytes

    def unreadable(self: Path) -> bytes:
        if self.resolve() == path.resolve():
            raise PermissionError(13, "Permission denied", str(self))
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", unreadable)
    assert editor.save() is None
    monkeypatch.undo()
    assert path.read_bytes() == before and asked == []
    assert "cannot be read" in editor.status.text() and "Permission denied" in editor.status.text()
