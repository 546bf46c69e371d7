"""The review queue in the agent window (verifier report agentw, findings 3 and 4, and the window's close): "Add
refined to tasks" said "2 refined task(s) added" when it had updated rows already in the table, and after a
restart Review candidates asked for the candidates file again, though the window reopens its site and tasks file.
It now says how many were added and how many updated, and reopens the candidates file last reviewed (the app's
settings). An edit in the queue not saved yet is asked about when the agent window (or the app) closes too."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from recordlens.annotator.agent import review_queue
from recordlens.annotator.agent.task_editor import TaskEditor
from recordlens.annotator.agent.window import AgentWindow
from recordlens.annotator.settings import Settings
from tests.app.agent_helpers import DEMO_SITE, candidates_file, three_questions

pytestmark = pytest.mark.app

Answer = QMessageBox.StandardButton


def test_add_refined_to_tasks_says_how_many_were_added_and_how_many_updated(qapp, tmp_path: Path) -> None:
    editor = TaskEditor()
    editor.ask = lambda *_: Answer.Discard
    try:
        queue = editor.open_review(candidates_file(tmp_path, "lookup-1"))
        queue.judge("accepted")
        queue.judge("accepted")
        queue.hand_refined()
        assert "2 refined task(s) added, 0 updated" in editor.status.text(), editor.status.text()

        queue.table.setCurrentCell(0, 0)
        queue.answer.setText("Ilse Marrow, first author")
        queue.judge("accepted")
        queue.hand_refined()  # both ids are in the table now: their rows replaced
        assert "0 refined task(s) added, 2 updated" in editor.status.text(), editor.status.text()
        assert editor.table.rowCount() == 2
    finally:
        editor.close_review()
        editor.close()


def test_the_candidates_file_last_reviewed_is_reopened_after_a_restart(qapp, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    settings_file = tmp_path / "annotator.json"
    candidates = three_questions(tmp_path / "cand.jsonl")
    chooser: list[str] = []
    monkeypatch.setattr(review_queue.QFileDialog, "getOpenFileName",
                        lambda _parent, _title, folder, _filter: (chooser.append(folder), ("", ""))[1])

    first = AgentWindow(site=DEMO_SITE, settings=Settings.load(settings_file), settings_file=settings_file)
    try:
        first.task_editor.open_review(candidates)
    finally:
        first.task_editor.close_review()
        first.close()
    assert Settings.load(settings_file).agent_candidates == str(candidates.resolve())

    again = AgentWindow(settings=Settings.load(settings_file), settings_file=settings_file)
    try:
        queue = again.task_editor.open_review()  # "Review candidates…", the file not given
        assert chooser == [] and queue.path == candidates.resolve() and queue.current().id == "gen-1"
    finally:
        again.task_editor.close_review()
        again.close()


def test_closing_the_agent_window_asks_about_an_edit_in_the_queue(qapp, tmp_path: Path) -> None:
    window = AgentWindow(site=DEMO_SITE)
    try:
        queue = window.task_editor.open_review(three_questions(tmp_path / "cand.jsonl"))
        queue.answer.setText("answer 1, in cm")
        asked: list[str] = []
        queue.ask_to_keep = lambda _parent, _ident, _status, what: (asked.append(what), Answer.Cancel)[1]
        assert not window.may_close()
        assert asked == ["closing the agent window"] and queue.answer.text() == "answer 1, in cm"
        queue.ask_to_keep = lambda *_: Answer.Discard
    finally:
        window.task_editor.close_review()
        window.close()
