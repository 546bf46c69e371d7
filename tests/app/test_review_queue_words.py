"""The review queue's words: "an unable verdict" (it said "a unable"), the status as the candidates file writes it
("accepted", where the queue said only "refined"), and the seeds themselves, as the README says ("one candidate
at a time with its seeds"), where the queue showed only their ids."""

from __future__ import annotations

from dataclasses import replace

import pytest

from recordlens.annotator.agent.review_queue import ReviewQueue
from recordlens.core.agent.candidates import load_candidates
from recordlens.core.agent.model import Task
from recordlens.core.agent.tasks import load_tasks, save_tasks
from tests.app.agent_helpers import DEMO_TASKS, candidates_file

pytestmark = pytest.mark.app


@pytest.fixture
def queue(qapp):
    widget = ReviewQueue()
    yield widget
    widget.close()
    widget.deleteLater()


def test_a_verdict_without_its_reason_is_named_with_the_right_article(queue, tmp_path):
    queue.load(candidates_file(tmp_path, "lookup-1"))
    assert queue.judge("unable") is None
    assert "not saved: an unable verdict needs a reason" in queue.summary.text()
    assert queue.judge("expired") is None and "an expired verdict" in queue.summary.text()
    assert queue.judge("similar") is None and "a similar verdict" in queue.summary.text()


def test_the_status_shown_is_the_files_word(queue, tmp_path):
    path = candidates_file(tmp_path, "lookup-1")
    queue.load(path)
    status = queue.table.item(0, 2).text()
    assert status.startswith("candidate")
    queue.judge("accepted")
    assert load_candidates(path)[0].status == "accepted"
    assert queue.table.item(0, 2).text().startswith("accepted")  # not "refined" alone
    assert "1 accepted (refined)" in queue.summary.text()
    queue.table.setCurrentCell(0, 0)
    assert "now accepted" in queue.provenance.text()


def test_the_seeds_are_shown_with_their_text(queue, tmp_path):
    seeds = {t.id: t for t in load_tasks(DEMO_TASKS)}
    queue.set_seeds(list(seeds.values()))
    queue.load(candidates_file(tmp_path, "lookup-1", "no-such-seed"))
    shown = queue.seeds_view.text()
    assert seeds["lookup-1"].instruction in shown and seeds["lookup-1"].answer in shown
    assert "no-such-seed" in shown and "Open seeds" in shown  # one not among the tasks open: said, and how

    other = tmp_path / "seeds.jsonl"
    seed = Task(id="no-such-seed", instruction="Which seed is this?", answer="this one", category="lookup",
                start_url="https://papers.example.org/", site="demo-site")
    save_tasks(other, [seed])
    queue.load_seeds(other)
    assert "Which seed is this?" in queue.seeds_view.text()
    queue.set_seeds([replace(seed, instruction="The editor's task of that id")])  # the review opened again
    assert "Which seed is this?" in queue.seeds_view.text()  # the seeds file opened here still comes first


def test_the_review_opened_from_the_tasks_tab_finds_the_seeds_among_the_tasks_open(qapp, tmp_path):
    from recordlens.annotator.agent.task_editor import TaskEditor

    editor = TaskEditor()
    try:
        editor.load(DEMO_TASKS)
        queue = editor.open_review(candidates_file(tmp_path, "lookup-1"))
        assert load_tasks(DEMO_TASKS)[0].instruction in queue.seeds_view.text()
    finally:
        editor.close_review()
        editor.close()
