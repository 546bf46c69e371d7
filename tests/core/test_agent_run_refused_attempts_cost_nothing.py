"""An agent run's stored cost counts the requests its endpoint was sent, and no attempt whose connection was refused
(nothing listened: it was never sent, so never paid for, as `Budget.release_request` says). Each request is written
to the run's cost before it is sent (a process killed while it waits keeps it: test_agent_run_killed_keeps_what_it_
paid); an attempt refused is written back as not spent. Before, the count written before it stayed (the stored cost
never went down): a run against a closed port stored a request it never made, and one whose endpoint went away part
way one more than it was sent. A resume's --max-requests caps its own session's requests: refused attempts before it
do not eat into it. Real runs against the loopback fake of Gemini, on the demo site in core's text browser."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store.project import open_project
from tests.demo_agent import SITE_DIR, TASKS_FILE, respond
from tests.fake_gemini import FakeGemini, answer_with

# lookup-1 takes 3 model calls (two clicks and its answer); rules-1, which follows it, 2 (a click and its answer)
LOOKUP_REQUESTS, RULES_REQUESTS = 3, 2
TOKENS_PER_ANSWER = 100 + 20  # the fake's usage of every answer


class GoneAfter:
    """The fake model's answers (`demo_agent.respond`); once request `last` has come, the server stops listening
    (its answer still sent, on the connection it came by): every later attempt's connection is refused."""

    def __init__(self, last: int) -> None:
        self.last = last
        self.server: FakeGemini | None = None
        self._asked = 0
        self._counting = threading.Lock()

    def __call__(self, body: dict) -> str:
        with self._counting:
            self._asked += 1
            number = self._asked
        if number == self.last and self.server is not None:
            listening = self.server._server  # noqa: SLF001 - the fake's own server, whose listening ends here
            listening.shutdown()  # its accept loop ends (this handler runs in a thread of its own)
            listening.socket.close()  # nothing listens at the port: a connection is refused
        return respond(body)


def agent_run(project: Path, url: str, *extra: str) -> int:
    return main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(TASKS_FILE),
                 "--base-url", url, *extra])


def model_requests(server: FakeGemini) -> int:
    """The generateContent requests the endpoint was sent: each one paid for."""
    return sum(not r.path.endswith(":countTokens") for r in server.requests)


def stored_cost(project: Path) -> dict[str, object]:
    with open_project(project) as opened:
        return opened.agent.runs()[-1].cost


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_run_against_a_closed_port_stores_no_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real-refused")
    project = tmp_path / "P"
    code = agent_run(project, f"http://127.0.0.1:{closed_port()}", "--task", "lookup-1", "--runs", "1",
                     "--browser", "text")
    assert code == 4  # the endpoint failed
    cost = stored_cost(project)
    assert (cost["requests"], cost["tokens"]) == (0, 0), cost


def test_the_stored_cost_counts_what_the_endpoint_was_sent_and_a_resume_keeps_its_own_cap(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real-refused")
    project = tmp_path / "P"
    gone = GoneAfter(last=LOOKUP_REQUESTS)
    with FakeGemini(default=answer_with(gone)) as server:
        gone.server = server
        code = agent_run(project, server.url, "--task", "lookup-1", "--task", "rules-1", "--runs", "1",
                         "--browser", "text")
        sent = model_requests(server)
        port = server.port
    assert code == 4  # rules-1's attempts were refused: the endpoint failed, lookup-1's episode kept
    assert sent == LOOKUP_REQUESTS
    cost = stored_cost(project)
    assert (cost["requests"], cost["tokens"]) == (sent, sent * TOKENS_PER_ANSWER), cost

    # The resume's cap is its own session's: exactly what rules-1 needs is enough
    with FakeGemini(default=answer_with(respond), port=port) as again:
        with open_project(project) as opened:
            run_id = opened.agent.runs()[-1].id
        code = agent_run(project, again.url, "--resume", str(run_id), "--max-requests", str(RULES_REQUESTS))
        sent_again = model_requests(again)
    assert code == 0
    assert sent_again == RULES_REQUESTS
    cost = stored_cost(project)
    assert [session["requests"] for session in cost["sessions"]] == [sent, sent_again], cost
    assert cost["requests"] == sent + sent_again
