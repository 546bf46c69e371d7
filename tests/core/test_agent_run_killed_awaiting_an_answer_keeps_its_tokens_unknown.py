"""An agent run killed (SIGKILL) while it waits for a model's answer keeps that request in its stored cost as one whose
tokens are unknown (`uncounted`, as an extraction's page record and the app's Propose keep it), not as a request of
0 tokens: a model answer is generated before it is sent, so the request was paid for, and nothing is written after a
SIGKILL. Before, the request was counted and its tokens were read as 0. An attempt answered with an error (a 503)
spends no tokens, and is no longer awaited in the wait before its retry. `agent eval` says the unknown tokens in its
cost line, beside the tokens counted, and a resume keeps them in the run's cost. Real processes against the loopback
fake of Gemini, on the demo site in core's text browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.llm.gemini import UNCOUNTED
from recordlens.core.store.project import open_project
from tests.child_lines import LINE_TIMEOUT_S
from tests.core.test_agent_run_cost_written_as_the_budget_counts import killed_at, stored_cost
from tests.core.test_agent_run_killed_keeps_what_it_paid import (
    ANSWERED_BEFORE_THE_KILL,
    KEY,
    TOKENS_PER_ANSWER,
    killed_awaiting_rules_1s_second_answer,
    model_requests,
)
from tests.demo_agent import agent_run_child, respond
from tests.fake_gemini import FakeGemini, answer_with, status

UNKNOWN_SAID = "1 answer without token counts (their tokens unknown, not 0)"


def test_a_run_killed_awaiting_an_answer_keeps_that_request_s_tokens_unknown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "P"
    with killed_awaiting_rules_1s_second_answer(project, tmp_path) as server:
        assert model_requests(server) == ANSWERED_BEFORE_THE_KILL + 1

        cost = stored_cost(project)
        # every request counted; the answers read by their tokens, the one awaited as unknown, not as 0
        assert (cost["requests"], cost["tokens"], cost.get(UNCOUNTED)) == (
            ANSWERED_BEFORE_THE_KILL + 1, ANSWERED_BEFORE_THE_KILL * TOKENS_PER_ANSWER, 1), cost

        with open_project(project) as opened:
            run_id = opened.agent.runs()[-1].id
        assert main(["agent", "eval", "--project", str(project), "--run", str(run_id)]) == 0
        out = capsys.readouterr().out
        assert (f"cost: 5 model requests, {ANSWERED_BEFORE_THE_KILL * TOKENS_PER_ANSWER} tokens counted, and "
                f"{UNKNOWN_SAID}") in out, out
        assert main(["agent", "eval", "--project", str(project), "--run", str(run_id), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["cost"][UNCOUNTED] == 1

        again = agent_run_child(project, tmp_path, KEY, "--resume", str(run_id))
        _, err = again.communicate(timeout=LINE_TIMEOUT_S * 4)
        assert again.returncode == 0, err
    cost = stored_cost(project)
    # the killed session's request stays unknown; the resumed session read every answer it asked for
    assert [session.get(UNCOUNTED) for session in cost["sessions"]] == [1, None], cost  # type: ignore[union-attr]
    assert cost[UNCOUNTED] == 1 and cost["tokens"] == (ANSWERED_BEFORE_THE_KILL + 2) * TOKENS_PER_ANSWER, cost


def test_a_run_killed_waiting_to_retry_after_an_error_keeps_no_tokens_unknown(tmp_path: Path) -> None:
    project = tmp_path / "P"
    # the first request answered with a 503 (read: no tokens spent): killed in the wait before the retry
    with FakeGemini([status(503)], default=answer_with(respond)) as server:
        killed_at(project, tmp_path, server.url, "_wait_before_retry", 1, after=False)
        assert model_requests(server) == 1
    cost = stored_cost(project)
    assert (cost["requests"], cost["tokens"], cost.get(UNCOUNTED)) == (1, 0, None), cost
