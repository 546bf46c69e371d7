"""An agent run killed with SIGKILL part way keeps in its recorded cost every model request it made, and the raw
call of every answer it read, the episode in flight's too: each request is written to the run's cost before it is
sent, each answer with its raw call as it arrives. A resume runs that episode again, so its calls are paid twice,
and the cost counts both. (SIGTERM and Ctrl+C write the cost on the way out; SIGKILL leaves no way out.) A real
process against the loopback fake of Gemini, on the demo site in core's text browser."""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from pathlib import Path

from recordlens.core.agent.loop import INTERRUPTED
from recordlens.core.store.project import open_project
from tests.child_lines import LINE_TIMEOUT_S
from tests.demo_agent import agent_run_child, agent_run_killed_at_held_request
from tests.fake_gemini import FakeGemini

KEY = "test-key-not-real-agent-kill"
# lookup-1 takes 3 model calls (two clicks and its answer), rules-1 2 (a click and its answer): the 4th request is
# rules-1's first, answered; the 5th, rules-1's second, is held until the run has been killed.
ANSWERED_BEFORE_THE_KILL = 4
TOKENS_PER_ANSWER = 100 + 20  # the fake's usage of every answer


def model_requests(server: FakeGemini) -> int:
    """The generateContent requests the endpoint was sent: each one paid for, answered or not."""
    return sum(not r.path.endswith(":countTokens") for r in server.requests)


def killed_awaiting_rules_1s_second_answer(project: Path, cwd: Path) -> AbstractContextManager[FakeGemini]:
    """`agent run` of lookup-1 and rules-1, 1 run, killed (SIGKILL) while it awaits rules-1's second answer, the
    ANSWERED_BEFORE_THE_KILL before it read; gives the fake model, serving still, until the block ends. (The fake
    records a request before it answers: the one awaited is among its requests already.)"""
    return agent_run_killed_at_held_request(project, cwd, KEY, "--task", "lookup-1", "--task", "rules-1", "--runs",
                                            "1", held=ANSWERED_BEFORE_THE_KILL + 1)


def stored_calls(project: Path) -> int:
    with sqlite3.connect(project / "project.db") as db:
        return int(db.execute("SELECT COUNT(*) FROM model_calls").fetchone()[0])


def stored_stops(project: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(project / "project.db") as db:
        return db.execute("SELECT t.external_id, tr.stop FROM trajectories tr JOIN tasks t ON t.id = tr.task_id "
                          "ORDER BY tr.id").fetchall()


def test_a_run_killed_part_way_keeps_every_request_and_answer_and_a_resume_adds_its_own(tmp_path: Path) -> None:
    project = tmp_path / "P"
    with killed_awaiting_rules_1s_second_answer(project, tmp_path) as server:
        paid_before_the_kill = model_requests(server)

        with open_project(project) as opened:
            run = opened.agent.runs()[-1]
        # every request sent, the one in flight at the kill too, as a SIGTERM'd run counts it
        assert paid_before_the_kill == ANSWERED_BEFORE_THE_KILL + 1
        assert run.cost["requests"] == paid_before_the_kill
        # every answer read: its tokens and its raw call, the episode in flight's (kept, cut: run again) too
        assert run.cost["tokens"] == ANSWERED_BEFORE_THE_KILL * TOKENS_PER_ANSWER
        assert stored_calls(project) == ANSWERED_BEFORE_THE_KILL
        assert stored_stops(project) == [("lookup-1", "answer"), ("rules-1", INTERRUPTED)]

        again = agent_run_child(project, tmp_path, KEY, "--resume", str(run.id))
        out, err = again.communicate(timeout=LINE_TIMEOUT_S * 4)
        paid = model_requests(server)

    assert again.returncode == 0, err
    with open_project(project) as opened:
        run = opened.agent.run(run.id)
    assert run.status == "finished"
    # rules-1 was run again (2 more requests): paid twice, counted twice, each session's apart
    assert paid == paid_before_the_kill + 2
    assert run.cost["requests"] == paid
    assert [session["requests"] for session in run.cost["sessions"]] == [paid_before_the_kill, 2]
    assert stored_calls(project) == ANSWERED_BEFORE_THE_KILL + 2
    assert stored_stops(project) == [("lookup-1", "answer"), ("rules-1", INTERRUPTED), ("rules-1", "answer")]
    assert f"agent run {run.id}: 2 of 2 episodes succeeded" in out
