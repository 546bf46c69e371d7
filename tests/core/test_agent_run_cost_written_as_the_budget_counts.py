"""An agent run's caller's budget has the run's cost written each time its counts change (`Budget.on_change`), so that
a process killed (SIGKILL) at any point keeps what the run paid for: an answer's tokens as soon as they are counted,
before the loop does anything with the answer (before, they were written with its raw call, once its action was read:
a kill in between kept the request and lost what its answer cost); and an attempt whose connection was refused
written back as no request before the wait for the next one. Each request written before it is sent is
test_agent_run_killed_keeps_what_it_paid's. Real processes against the loopback fake of Gemini, or a port that refuses
connections, on the demo site in core's text browser; each child stops itself at the point named, says so, and is
killed there."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from recordlens.core.store.project import open_project
from tests.child_lines import LINE_TIMEOUT_S, first_line
from tests.child_stops import STOPPED, caller_stopping_at
from tests.core.test_agent_run_killed_keeps_what_it_paid import KEY, TOKENS_PER_ANSWER, model_requests
from tests.demo_agent import AGENT_CHILD, SITE_DIR, TASKS_FILE, respond
from tests.fake_gemini import FakeGemini, answer_with
from tests.loopback import refusing_port


def killed_at(project: Path, tmp_path: Path, base_url: str, method: str, nth: int, *, after: bool) -> None:
    """`agent run` of lookup-1 then rules-1 on `base_url`, killed where its caller's `method` is called the `nth`
    time (`after` it returns, or as it is called)."""
    child_code = caller_stopping_at(method, nth, after=after) + AGENT_CHILD
    child = subprocess.Popen(
        [sys.executable, "-c", child_code, "agent", "run", "--project", str(project), "--site", str(SITE_DIR),
         "--tasks", str(TASKS_FILE), "--task", "lookup-1", "--task", "rules-1", "--runs", "1", "--browser", "text",
         "--base-url", base_url],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "HOME": str(tmp_path), "GEMINI_API_KEY": KEY})
    try:
        assert first_line(child, LINE_TIMEOUT_S * 2).strip() == STOPPED
    finally:
        child.send_signal(signal.SIGKILL)  # no way out: nothing is written after this
        child.communicate(timeout=LINE_TIMEOUT_S)
    assert child.returncode == -signal.SIGKILL


def stored_cost(project: Path) -> dict[str, object]:
    with open_project(project) as opened:
        return opened.agent.runs()[-1].cost


def test_a_run_killed_as_an_answer_arrives_keeps_its_tokens(tmp_path: Path) -> None:
    answers = 4  # rules-1's first (lookup-1 takes 3 calls): killed once the caller has it, before the loop reads it
    project = tmp_path / "P"
    with FakeGemini(default=answer_with(respond)) as server:
        killed_at(project, tmp_path, server.url, "generate", answers, after=True)
        sent = model_requests(server)
    assert sent == answers
    cost = stored_cost(project)
    assert (cost["requests"], cost["tokens"]) == (sent, answers * TOKENS_PER_ANSWER), cost


def test_a_run_killed_waiting_to_retry_a_refused_connection_counts_no_request(tmp_path: Path) -> None:
    project = tmp_path / "P"
    with refusing_port() as port:
        # the first attempt refused: killed in the wait before the second
        killed_at(project, tmp_path, f"http://127.0.0.1:{port}", "_wait_before_retry", 1, after=False)
    cost = stored_cost(project)
    assert (cost["requests"], cost["tokens"]) == (0, 0), cost
