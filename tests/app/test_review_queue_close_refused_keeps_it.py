"""Closing the review queue from the Tasks tab (`TaskEditor.close_review`) when the queue refuses to close.

The queue asks before an edit not saved is dropped; answered Cancel, its close is refused. `close_review` went on
all the same: it scheduled the queue's deletion and forgot it, so the edit the user chose to keep was lost with the
window. It now keeps the queue, and says whether it closed. The agent window closed closes its queue too (it was
left open, a window of its own, after the agent window had gone), and stays open when the queue keeps an edit.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import shiboken6
from PySide6.QtWidgets import QMessageBox

from recordlens.annotator.agent.task_editor import TaskEditor
from recordlens.annotator.agent.window import AgentWindow
from recordlens.annotator.qt.event_loop import spin
from tests.app.agent_helpers import DEMO_SITE, three_questions

pytestmark = pytest.mark.app

Answer = QMessageBox.StandardButton
EDITED = "Question 1? (in cm)"


@pytest.fixture
def editor(qapp):
    widget = TaskEditor()
    yield widget
    if widget.review is not None:
        widget.review.ask_to_keep = lambda *_: Answer.Discard
    widget.close_review()
    widget.close()
    widget.deleteLater()


def answering(*answers: Answer) -> tuple[list[str], object]:
    """What the queue was asked before (its `what`), and an `ask_to_keep` giving `answers` in turn."""
    asked: list[str] = []
    left = list(answers)

    def ask(_parent: object, _ident: str, _status: str, what: str) -> Answer:
        asked.append(what)
        return left.pop(0)

    return asked, ask


def test_a_close_refused_keeps_the_queue_and_its_edit(editor: TaskEditor, tmp_path: Path) -> None:
    queue = editor.open_review(three_questions(tmp_path / "cand.jsonl"))
    queue.instruction.setPlainText(EDITED)
    asked, queue.ask_to_keep = answering(Answer.Cancel)

    assert editor.close_review() is False
    spin(50)  # a deletion scheduled would happen here

    assert asked == ["closing the review queue"]
    assert editor.review is queue and shiboken6.isValid(queue)
    assert queue.isVisible() and queue.instruction.toPlainText() == EDITED


def test_a_close_allowed_drops_the_queue(editor: TaskEditor, tmp_path: Path) -> None:
    queue = editor.open_review(three_questions(tmp_path / "cand.jsonl"))
    queue.instruction.setPlainText(EDITED)
    asked, queue.ask_to_keep = answering(Answer.Cancel, Answer.Discard)

    assert editor.close_review() is False
    assert editor.close_review() is True  # asked again: Discard lets it go

    assert len(asked) == 2 and editor.review is None


def test_no_queue_open_is_closed(editor: TaskEditor) -> None:
    assert editor.close_review() is True


@pytest.fixture
def window(qapp):
    agent = AgentWindow(site=DEMO_SITE)
    agent.show()
    yield agent
    if agent.task_editor.review is not None:
        agent.task_editor.review.ask_to_keep = lambda *_: Answer.Discard
    agent.task_editor.close_review()
    agent.close()
    agent.deleteLater()


def test_the_agent_window_closed_closes_its_queue(window: AgentWindow, tmp_path: Path) -> None:
    """The queue is a window of its own: it was left open, orphaned, when the agent window closed."""
    queue = window.task_editor.open_review(three_questions(tmp_path / "cand.jsonl"))
    queue.answer.setText("answer 1, in cm")
    asked, queue.ask_to_keep = answering(Answer.Discard)

    assert window.close()

    assert asked == ["closing the agent window"]  # asked once, by the window: the queue closes with nothing to ask
    assert window.task_editor.review is None and not queue.isVisible()


def test_the_agent_window_kept_when_its_queue_keeps_an_edit(window: AgentWindow, tmp_path: Path) -> None:
    queue = window.task_editor.open_review(three_questions(tmp_path / "cand.jsonl"))
    queue.answer.setText("answer 1, in cm")
    asked, queue.ask_to_keep = answering(Answer.Cancel)

    assert not window.close()

    assert asked == ["closing the agent window"] and not window.closed
    assert window.isVisible() and window.task_editor.review is queue and queue.isVisible()
    assert queue.answer.text() == "answer 1, in cm"
