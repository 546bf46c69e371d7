"""The review queue (Agent window → Tasks tab → Review candidates…) holds the candidates file while it writes a
verdict, and refuses the file RecordLens ships.

The queue read the file again before each verdict and merged it, but nothing kept another writer out between that
read and its write: a verdict `agent tasks review` wrote in that moment was written over, lost without a word. The
queue now holds the file's lock from the read to the write, as the shell's commands do (core's
`writing_candidates`): the shell waits for it, and a verdict given while another process writes is not saved, the
holder named. It lets go while it asks about a candidate judged elsewhere. And the demo tasks RecordLens ships,
which every command refuses to write, were opened for review, each verdict then written into the package."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.agent.review_queue import ReviewQueue
from recordlens.core.agent import candidates as candidates_module
from recordlens.core.agent.candidates import Candidate, load_candidates, lock_path
from recordlens.core.cli.command import main
from recordlens.core.errors import AgentError
from tests.app.agent_helpers import DEMO_TASKS, three_questions
from tests.candidates_writers import ReviewInBetween, lock_held_elsewhere

pytestmark = pytest.mark.app


@pytest.fixture
def candidates(tmp_path: Path) -> Path:
    """Three candidates not reviewed yet, gen-1 to gen-3."""
    return three_questions(tmp_path / "cand.jsonl")


@pytest.fixture
def queue(qapp):
    shown = ReviewQueue()
    yield shown
    shown.close()
    shown.deleteLater()


def statuses(path: Path) -> dict[str, tuple[str, str]]:
    return {c.id: (c.status, c.reason) for c in load_candidates(path)}


def test_a_verdict_from_a_shell_between_the_queues_read_and_write_is_kept(queue: ReviewQueue, candidates: Path) -> None:
    queue.load(candidates)
    with ReviewInBetween(candidates, "gen-3", "unable", "colour is not on the site") as shell:
        read = queue._read_again

        def read_then_the_shell_writes(path: Path) -> list[Candidate]:
            held = read(path)
            shell.go()  # the shell's verdict, while the queue has read the file and not yet written it
            return held

        queue._read_again = read_then_the_shell_writes  # type: ignore[method-assign]
        assert queue.judge("accepted") is not None
        assert shell.ended()[0] == 0  # it waited for the queue to let go, then wrote into the file as written

    assert statuses(candidates) == {"gen-1": ("accepted", ""), "gen-2": ("candidate", ""),
                                    "gen-3": ("unable", "colour is not on the site")}
    assert not lock_path(candidates).exists()


def test_a_verdict_while_another_process_writes_the_file_is_not_saved_and_stays_in_the_form(
        queue: ReviewQueue, candidates: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(candidates_module, "LOCK_WAIT_S", 0.2)
    queue.load(candidates)
    before = candidates.read_bytes()
    queue.answer.setText("answer 1, refined")
    with lock_held_elsewhere(candidates) as writer:
        assert queue.judge("accepted") is None
        said = queue.summary.text()
        assert said.startswith(f"not saved: {candidates} is being written by process {writer.pid} on "), said
        assert "try again once it is done" in said and said.endswith("the verdict stays here"), said
        assert candidates.read_bytes() == before
        assert queue.current().id == "gen-1" and queue.answer.text() == "answer 1, refined"

    judged = queue.judge("accepted")  # let go: the same press saves it
    assert judged is not None and judged.task.answer == "answer 1, refined"
    assert statuses(candidates)["gen-1"] == ("accepted", "")


def test_the_file_is_let_go_while_the_queue_asks_about_a_candidate_judged_elsewhere(
        queue: ReviewQueue, candidates: Path, capsys: pytest.CaptureFixture[str]) -> None:
    queue.load(candidates)
    assert main(["agent", "tasks", "review", "--candidates", str(candidates), "--id", "gen-1", "--status", "expired",
                 "--reason", "the page changed"]) == 0

    def ask(_parent: object, ident: str, there: str, verdict: str) -> bool:
        # A question left open holds no one: a verdict from the shell meanwhile is written, and kept
        assert main(["agent", "tasks", "review", "--candidates", str(candidates), "--id", "gen-3", "--status",
                     "accepted"]) == 0, capsys.readouterr().err
        return True

    queue.ask_judged_elsewhere = ask
    queue.reason.setText("")
    assert queue.judge("accepted") is not None

    assert statuses(candidates) == {"gen-1": ("accepted", ""), "gen-2": ("candidate", ""), "gen-3": ("accepted", "")}


def test_the_shipped_tasks_are_refused_in_the_words_of_the_shell(
        queue: ReviewQueue, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["agent", "tasks", "review", "--candidates", str(DEMO_TASKS), "--id", "lookup-1", "--status",
                 "accepted"]) == 2
    shell_said = capsys.readouterr().err

    with pytest.raises(AgentError) as refused:
        queue.load(DEMO_TASKS)
    assert f"error: {refused.value}" in shell_said, shell_said  # one check, one wording
    assert "is one of the files RecordLens ships, which are never changed: copy it first" in str(refused.value)
    assert queue.path is None and queue.candidates == []

    monkeypatch.setattr("recordlens.annotator.agent.review_queue.QFileDialog.getOpenFileName",
                        lambda *_args, **_kw: (str(DEMO_TASKS), ""))
    queue.open_dialog()  # chosen in the file chooser: said there
    assert queue.summary.text() == str(refused.value) and queue.path is None
