"""The task editor's Save does not write its rows over a tasks file changed on disk since it was read: it asks
Reload from disk / Save over it / Cancel (`ask_changed`, answered by the tests themselves), naming the tasks
that differ. Before, Save said "saved 6 tasks" and the edit made outside the app was gone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.annotator.agent.task_editor import COLUMNS, TaskEditor
from recordlens.core.agent.tasks import load_tasks
from tests.app.agent_helpers import DEMO_TASKS

pytestmark = pytest.mark.app


def tasks_file(tmp_path: Path) -> Path:
    path = tmp_path / "tasks.jsonl"
    path.write_bytes(DEMO_TASKS.read_bytes())
    return path


def edit_outside(path: Path, task_id: str, answer: str) -> None:
    """Another program (an editor, a script) changes one task's answer in the file."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        if data["id"] == task_id:
            data["answer"] = answer
        lines.append(json.dumps(data, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def editor(qapp):
    widget = TaskEditor()
    yield widget
    widget.close()
    widget.deleteLater()


def answers(path: Path) -> dict[str, str]:
    return {t.id: t.answer for t in load_tasks(path)}


def test_save_over_a_file_changed_on_disk_asks_and_cancel_keeps_both(editor, tmp_path):
    path = tasks_file(tmp_path)
    editor.load(path)
    first = editor._cell(0, "id")
    edit_outside(path, first, "changed outside")
    asked: list[tuple[Path, str]] = []
    editor.ask_changed = lambda _parent, where, differ: asked.append((where, differ)) or "cancel"
    editor.table.item(1, COLUMNS.index("answer")).setText("changed here")
    assert editor.save() is None
    assert asked and asked[0][0] == path and first in asked[0][1]  # the task changed outside is named
    assert answers(path)[first] == "changed outside"  # the file is as the other program left it
    assert editor.modified() and editor._cell(1, "answer") == "changed here"  # and the edit here stays
    assert "changed on disk" in editor.status.text() and "not saved" in editor.status.text()


def test_save_over_it_writes_the_rows_and_reload_reads_the_file(editor, tmp_path):
    path = tasks_file(tmp_path)
    editor.load(path)
    first = editor._cell(0, "id")
    second = editor._cell(1, "id")
    edit_outside(path, first, "changed outside")
    editor.table.item(1, COLUMNS.index("answer")).setText("changed here")
    editor.ask_changed = lambda *_: "reload"
    assert editor.save() is None  # nothing written: the file's rows are shown instead
    assert editor._cell(0, "answer") == "changed outside" and not editor.modified()
    assert answers(path)[first] == "changed outside"
    assert "reloaded" in editor.status.text()

    edit_outside(path, first, "changed outside again")
    editor.table.item(1, COLUMNS.index("answer")).setText("changed here")
    editor.ask_changed = lambda *_: "overwrite"
    assert editor.save() == path  # the user chose to write over it
    assert answers(path)[first] == "changed outside" and answers(path)[second] == "changed here"


def test_a_file_saved_by_the_editor_itself_is_not_taken_for_changed(editor, tmp_path):
    path = tasks_file(tmp_path)
    editor.load(path)
    editor.ask_changed = lambda *_: pytest.fail("asked about a file only the editor wrote")
    for answer in ("one", "two"):
        editor.table.item(0, COLUMNS.index("answer")).setText(answer)
        assert editor.save() == path
    assert answers(path)[editor._cell(0, "id")] == "two"
    path.unlink()  # gone from disk: saving writes it again, nothing there is lost
    editor.table.item(0, COLUMNS.index("answer")).setText("three")
    assert editor.save() == path and answers(path)[editor._cell(0, "id")] == "three"


def test_the_question_offers_reload_save_over_and_cancel(qapp, tmp_path):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from recordlens.annotator.agent.task_editor import ask_about_changed_file

    seen: list[list[str]] = []

    def answer(label: str) -> None:
        box = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible())
        seen.append([b.text() for b in box.buttons()] + [box.text()])
        next(b for b in box.buttons() if b.text().replace("&", "") == label).click()

    for label, expected in (("Reload from disk", "reload"), ("Save over it", "overwrite"), ("Cancel", "cancel")):
        QTimer.singleShot(50, lambda label=label: answer(label))
        assert ask_about_changed_file(None, tmp_path / "tasks.jsonl", "lookup-1 changed there") == expected
    assert "lookup-1 changed there" in seen[0][-1] and "edits made here are dropped" in seen[0][-1]
