"""The review queue (Agent window → Tasks tab → Review candidates…) and verdicts made elsewhere meanwhile (verifier
report agentbench, finding 1): each verdict saved the queue's copy of the candidates file, read when it was opened,
so a verdict made meanwhile from a shell (`recordlens agent tasks review`), by `agent tasks filter` or in a second
window was written over without a word. Now a verdict re-reads the file and changes only the candidate it is for;
the list then shows the file as written, and says what had changed there. A candidate judged elsewhere meanwhile
is asked about; one removed meanwhile, and a file gone or unreadable, are said, nothing is written, and the verdict
stays in the form."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from recordlens.annotator.agent.window import AgentWindow
from recordlens.core.agent.candidates import load_candidates, save_candidates
from recordlens.core.cli.command import main
from tests.app.agent_helpers import DEMO_SITE, three_questions

pytestmark = pytest.mark.app


@pytest.fixture
def candidates(tmp_path: Path) -> Path:
    """Three candidates not reviewed yet, gen-1 to gen-3."""
    return three_questions(tmp_path / "g5.jsonl")


@pytest.fixture
def window(qapp):
    agent = AgentWindow(site=DEMO_SITE)
    agent.task_editor.ask = lambda *_: QMessageBox.StandardButton.Discard  # refined tasks handed over, not saved
    yield agent
    agent.task_editor.close_review()
    agent.close()
    agent.deleteLater()


def review_from_a_shell(path: Path, ident: str, status: str, reason: str) -> None:
    assert main(["agent", "tasks", "review", "--candidates", str(path), "--id", ident, "--status", status,
                 "--reason", reason]) == 0


def statuses(path: Path) -> dict[str, tuple[str, str]]:
    return {c.id: (c.status, c.reason) for c in load_candidates(path)}


def shown_status(queue, ident: str) -> str:
    row = next(r for r in range(queue.table.rowCount()) if queue.table.item(r, 0).text() == ident)
    return queue.table.item(row, 2).text()


def test_a_verdict_made_from_a_shell_meanwhile_is_kept_and_shown(window, candidates: Path) -> None:
    queue = window.task_editor.open_review(candidates)
    assert queue.current().id == "gen-1"
    queue.judge("accepted")
    assert queue.current().id == "gen-1" and "no saved page" in queue.summary.text()  # "answer 1" is on no demo page
    queue.next_pending()
    assert queue.current().id == "gen-2"
    review_from_a_shell(candidates, "gen-3", "unable", "colour is not on the site")

    queue.judge("accepted")

    assert statuses(candidates) == {"gen-1": ("accepted", ""), "gen-2": ("accepted", ""),
                                    "gen-3": ("unable", "colour is not on the site")}
    assert shown_status(queue, "gen-3").startswith("unable")  # the list shows the file as written
    assert "changed on disk" in queue.summary.text() and "1 candidate(s) judged or edited elsewhere" in \
        queue.summary.text()
    assert "3 generated" in queue.summary.text() and "1 unable" in queue.summary.text()


def test_the_candidate_judged_in_the_window_judged_elsewhere_meanwhile_is_asked_about(window, candidates: Path) -> None:
    queue = window.task_editor.open_review(candidates)
    asked: list[tuple[str, str]] = []
    answers = [False, True]

    def ask(_parent: object, ident: str, there: str, verdict: str) -> bool:
        asked.append((ident, there))
        return answers.pop(0)

    queue.ask_judged_elsewhere = ask
    review_from_a_shell(candidates, "gen-1", "expired", "the page changed")
    queue.reason.setText("")
    assert queue.judge("accepted") is None  # "keep that verdict": nothing written, the verdict there shown
    assert asked == [("gen-1", "expired (the page changed)")]
    assert statuses(candidates)["gen-1"] == ("expired", "the page changed")
    assert queue.current().id == "gen-1" and shown_status(queue, "gen-1").startswith("expired")
    assert "judged elsewhere" in queue.summary.text() and "kept" in queue.summary.text()

    review_from_a_shell(candidates, "gen-1", "unable", "no such question")
    queue.reason.setText("")
    judged = queue.judge("accepted")  # shown as expired, unable on disk: asked again, and replaced
    assert judged is not None and len(asked) == 2
    assert statuses(candidates)["gen-1"] == ("accepted", "")


def test_a_candidate_removed_from_the_file_meanwhile_is_said_and_nothing_is_written(window, candidates: Path) -> None:
    queue = window.task_editor.open_review(candidates)
    save_candidates(candidates, [c for c in load_candidates(candidates) if c.id != "gen-1"])
    before = candidates.read_bytes()

    assert queue.judge("accepted") is None

    assert candidates.read_bytes() == before
    assert "gen-1 is no longer in" in queue.summary.text() and "not saved" in queue.summary.text()
    assert [queue.table.item(r, 0).text() for r in range(queue.table.rowCount())] == ["gen-2", "gen-3"]


def test_a_file_deleted_or_unreadable_meanwhile_is_not_written_and_the_verdict_stays_in_the_form(
        window, candidates: Path, tmp_path: Path) -> None:
    queue = window.task_editor.open_review(candidates)
    kept = tmp_path / "kept.jsonl"
    shutil.move(candidates, kept)
    queue.answer.setText("answer 1, refined")
    queue.reason.setText("was vague")

    assert queue.judge("accepted") is None
    assert not candidates.exists()  # not made again from the window's copy
    assert "is no longer there" in queue.summary.text()
    assert queue.current().id == "gen-1" and queue.answer.text() == "answer 1, refined"
    assert queue.reason.text() == "was vague"

    candidates.write_text("not a candidate\n", encoding="utf-8")
    assert queue.judge("accepted") is None
    assert candidates.read_text(encoding="utf-8") == "not a candidate\n"  # never written over
    assert "not saved" in queue.summary.text() and "bad line" in queue.summary.text()
    assert queue.answer.text() == "answer 1, refined"

    shutil.move(kept, candidates)  # back: the same press saves it
    assert queue.judge("accepted") is not None
    judged = load_candidates(candidates)[0]
    assert (judged.status, judged.task.answer, judged.reason) == ("accepted", "answer 1, refined", "was vague")


def test_add_refined_to_tasks_hands_over_the_tasks_accepted_from_a_shell_too(window, candidates: Path) -> None:
    queue = window.task_editor.open_review(candidates)
    queue.judge("accepted")
    assert main(["agent", "tasks", "review", "--candidates", str(candidates), "--id", "gen-3", "--status",
                 "accepted"]) == 0
    handed: list[list[str]] = []
    queue.refined.connect(lambda tasks: handed.append([t.id for t in tasks]))

    queue.hand_refined()

    assert handed == [["gen-1", "gen-3"]]
    assert shown_status(queue, "gen-3").startswith("accepted") and "changed on disk" in queue.summary.text()
