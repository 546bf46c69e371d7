"""The review queue (Agent window → Tasks tab → Review candidates…) and an edit not saved yet (verifier report
agentw, findings 1, 2 and 4).

An instruction or answer edited in the queue and then left (the queue's window closed, another row chosen, the
Review button pressed again) was dropped without a word, where the Tasks tab asks Save / Discard / Cancel: the
queue now asks too. The "On the site" line kept saying where the answer as generated is while the answer was
edited, and an Accept of an answer found on no saved page saved it and moved on with no warning: the line now
follows the edit, and such an Accept stays on the candidate, saying so. And the queue reopens the candidates file
last reviewed (`last_file`, which the agent window reads from the app's settings) rather than asking for it again.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from recordlens.annotator.agent import review_queue
from recordlens.annotator.agent.review_queue import ReviewQueue
from recordlens.annotator.agent.task_editor import TaskEditor
from recordlens.core.agent.candidates import load_candidates
from recordlens.core.agent.sites import load_site
from tests.app.agent_helpers import DEMO_SITE, DEMO_TASKS, candidates_file, three_questions, wait_for

pytestmark = pytest.mark.app

Answer = QMessageBox.StandardButton
EDITED = "Question 1? (in cm)"


@pytest.fixture
def candidates(tmp_path: Path) -> Path:
    """Three candidates not reviewed yet, gen-1 to gen-3 ("Question N?", "answer N")."""
    return three_questions(tmp_path / "cand.jsonl")


@pytest.fixture
def queue(qapp):
    shown = ReviewQueue()
    shown.ask_to_keep = never_asked
    yield shown
    shown.ask_to_keep = lambda *_: Answer.Discard
    shown.close()
    shown.deleteLater()


def never_asked(*_args: object) -> Answer:
    raise AssertionError("asked about an edit where there is none")


def answering(*answers: Answer) -> tuple[list[tuple[str, str, str]], object]:
    """What the queue asked (candidate, its status, before what), and an `ask_to_keep` giving `answers` in turn."""
    asked: list[tuple[str, str, str]] = []
    left = list(answers)

    def ask(_parent: object, ident: str, status: str, what: str) -> Answer:
        asked.append((ident, status, what))
        return left.pop(0)

    return asked, ask


def row_ids(queue: ReviewQueue) -> list[int]:
    return sorted({index.row() for index in queue.table.selectionModel().selectedIndexes()})


def click_row(queue: ReviewQueue, row: int) -> None:
    rect = queue.table.visualRect(queue.table.model().index(row, 0))
    QTest.mouseClick(queue.table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())


def test_closing_the_queue_with_an_edit_asks_and_cancel_keeps_it(queue: ReviewQueue, candidates: Path) -> None:
    queue.load(candidates)
    queue.show()
    queue.instruction.setPlainText(EDITED)
    asked, queue.ask_to_keep = answering(Answer.Cancel, Answer.Save)

    assert not queue.close()  # Cancel: the window stays, with the edit
    assert queue.isVisible() and queue.instruction.toPlainText() == EDITED
    assert queue.close()  # Save: the edit is saved, the candidate still not reviewed

    assert asked == [("gen-1", "candidate (not reviewed)", "closing the review queue")] * 2
    saved = load_candidates(candidates)[0]
    assert (saved.task.instruction, saved.status, saved.original["instruction"]) == (EDITED, "candidate",
                                                                                     "Question 1?")


def test_closing_the_queue_with_an_edit_discarded_writes_nothing(queue: ReviewQueue, candidates: Path) -> None:
    queue.load(candidates)
    queue.show()
    before = candidates.read_bytes()
    queue.answer.setText("answer 1, in cm")
    asked, queue.ask_to_keep = answering(Answer.Discard)

    assert queue.close()
    assert len(asked) == 1 and candidates.read_bytes() == before
    assert queue.answer.text() == "answer 1"  # the form shows the candidate again: reopened, it is not asked again


def test_a_queue_without_an_edit_closes_unasked(queue: ReviewQueue, candidates: Path) -> None:
    queue.load(candidates)
    queue.show()
    queue.answer.setText("answer 1")  # typed as it was
    queue.instruction.setPlainText("  Question   1? ")  # the same words: the verdict would save them the same
    assert queue.close()


def test_another_row_chosen_with_an_edit_asks_and_cancel_stays_on_the_edit(
        queue: ReviewQueue, candidates: Path) -> None:
    queue.load(candidates)
    queue.show()
    QTest.qWaitForWindowExposed(queue)
    queue.instruction.setPlainText(EDITED)
    asked, queue.ask_to_keep = answering(Answer.Cancel)

    click_row(queue, 1)
    wait_for(lambda: bool(asked))

    assert asked == [("gen-1", "candidate (not reviewed)", "going to another candidate")]
    assert queue.table.currentRow() == 0 and row_ids(queue) == [0]  # back on the candidate edited, alone chosen
    assert queue.current().id == "gen-1" and queue.instruction.toPlainText() == EDITED


def test_another_row_chosen_with_an_edit_discarded_goes_there(queue: ReviewQueue, candidates: Path) -> None:
    queue.load(candidates)
    before = candidates.read_bytes()
    queue.answer.setText("answer 1, in cm")
    asked, queue.ask_to_keep = answering(Answer.Discard)

    queue.table.setCurrentCell(2, 0)
    wait_for(lambda: queue.current().id == "gen-3" and queue.answer.text() == "answer 3")

    assert len(asked) == 1 and candidates.read_bytes() == before
    queue.table.setCurrentCell(0, 0)  # the edit dropped: back on gen-1 unasked
    assert queue.answer.text() == "answer 1"


def test_another_row_chosen_with_an_edit_saved_saves_it_then_goes_there(queue: ReviewQueue, candidates: Path) -> None:
    queue.load(candidates)
    queue.instruction.setPlainText(EDITED)
    queue.reason.setText("the unit was missing")
    asked, queue.ask_to_keep = answering(Answer.Save)

    queue.table.setCurrentCell(2, 0)
    wait_for(lambda: bool(asked) and queue.current().id == "gen-3")

    saved = load_candidates(candidates)[0]
    assert (saved.task.instruction, saved.status, saved.reason) == (EDITED, "candidate", "the unit was missing")
    assert queue.instruction.toPlainText() == "Question 3?"


def test_next_not_reviewed_with_an_edit_asks(queue: ReviewQueue, candidates: Path) -> None:
    queue.load(candidates)
    queue.answer.setText("answer 1, in cm")
    asked, queue.ask_to_keep = answering(Answer.Cancel)
    queue.next_pending()
    wait_for(lambda: bool(asked))
    assert queue.current().id == "gen-1" and queue.answer.text() == "answer 1, in cm"


def test_the_review_button_pressed_again_keeps_the_edit(qapp, tmp_path: Path) -> None:
    editor = TaskEditor()
    try:
        editor.load(DEMO_TASKS)
        queue = editor.open_review(candidates_file(tmp_path, "lookup-1"))
        queue.ask_to_keep = never_asked
        queue.answer.setText("Ilse Marrow, first author")
        editor.open_review()  # the queue shown again, its seeds read again from the tasks open
        assert queue.answer.text() == "Ilse Marrow, first author"
    finally:
        if editor.review is not None:
            editor.review.ask_to_keep = lambda *_: Answer.Discard
        editor.close_review()
        editor.close()


def test_the_on_the_site_line_follows_the_answer_as_it_is_edited(queue: ReviewQueue, tmp_path: Path) -> None:
    queue.set_site(load_site(DEMO_SITE))
    queue.load(candidates_file(tmp_path, "lookup-1"))
    assert queue.evidence.text().startswith("found on https://papers.example.org/")

    queue.answer.setText("Marrow-Quint, I.")
    wait_for(lambda: "no saved page" in queue.evidence.text(), 5000)
    queue.answer.setText("Ilse Marrow")
    wait_for(lambda: queue.evidence.text().startswith("found on https://papers.example.org/"), 5000)


def test_an_accept_of_an_answer_on_no_saved_page_warns_and_stays(queue: ReviewQueue, tmp_path: Path) -> None:
    path = candidates_file(tmp_path, "lookup-1")
    queue.set_site(load_site(DEMO_SITE))
    queue.load(path)
    queue.answer.setText("Marrow-Quint, I.")

    judged = queue.judge("accepted")

    assert judged is not None and judged.evidence == ""
    saved = load_candidates(path)[0]
    assert (saved.status, saved.task.answer, saved.evidence) == ("accepted", "Marrow-Quint, I.", "")
    assert queue.current().id == "gen-1"  # not moved on: the warning is read where the answer is
    said = queue.summary.text()
    assert "gen-1" in said and "no saved page's text" in said and "N goes on" in said, said
    assert "no saved page" in queue.evidence.text()
    queue.next_pending()
    assert queue.current().id == "gen-2"

    queue.judge("accepted")  # "never": the answer as generated, on no page either
    assert queue.current().id == "gen-2" and "gen-2" in queue.summary.text()
    queue.answer.setText("Ilse Marrow")
    queue.reason.setText("asked of the wrong paper")
    queue.judge("similar")  # a verdict that rejects the task: no warning needed, on it goes
    assert "no saved page" not in queue.summary.text()


def test_the_queue_reopens_the_candidates_file_last_reviewed(queue: ReviewQueue, candidates: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    chooser: list[str] = []
    monkeypatch.setattr(review_queue.QFileDialog, "getOpenFileName",
                        lambda _parent, _title, folder, _filter: (chooser.append(folder), ("", ""))[1])
    opened: list[Path] = []
    queue.opened.connect(opened.append)
    queue.last_file = candidates

    queue.reopen_or_ask()

    assert chooser == [] and queue.path == candidates and queue.current().id == "gen-1"
    assert opened == [candidates]  # what the agent window remembers


def test_a_candidates_file_last_reviewed_that_is_gone_is_said_and_asked_for(
        queue: ReviewQueue, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chooser: list[str] = []
    monkeypatch.setattr(review_queue.QFileDialog, "getOpenFileName",
                        lambda _parent, _title, folder, _filter: (chooser.append(folder), ("", ""))[1])
    queue.last_file = tmp_path / "gone" / "cand.jsonl"

    queue.reopen_or_ask()

    assert len(chooser) == 1 and queue.path is None
    said = queue.summary.text()
    assert "the candidates file last reviewed" in said and "is gone" in said, said
