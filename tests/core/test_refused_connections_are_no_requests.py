"""An attempt whose connection is refused (nothing listens at the address) never reached a server: it is neither
sent nor paid for, so it counts as no request, in the run's budget (`--max-requests`), its closing line, its stop
line and run.json, while the page's record still lists it among the call's attempts, marked refused. Against a
refusing port (tests/loopback.py) and the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path

import pytest

from recordlens.core.llm.gemini import Budget, CallSettings, GeminiCaller, requests_of_call
from recordlens.core.llm.shared_budget import Limiter
from recordlens.core.resource_files import resource_path
from recordlens.core.runs import ray_engine
from recordlens.core.runs.run_files import META_DIR, model_calls
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer
from tests.loopback import refusing_port

DEMO = resource_path("demo", "dataset")  # pages 1 to 4
KEY = "test-key-not-real-refused"


def test_a_run_against_a_refusing_port_spends_no_request(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)
    run_dir = tmp_path / "run"
    with refusing_port() as port:
        code, printed, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                                 str(run_dir), "--base-url", f"http://127.0.0.1:{port}", "--max-requests", "3", "-q")
    # the endpoint's failure stops it, not a budget that no request reached a server to spend
    assert code == 4, err
    assert "request budget used up" not in err and "failed on 3 pages in a row" in err, err
    assert "0 requests" in printed  # the closing line, on stdout
    described = json.loads((run_dir / META_DIR / "run.json").read_text(encoding="utf-8"))
    assert "request budget" not in described["stopped"] and "3 pages in a row" in described["stopped"]
    record = json.loads((run_dir / META_DIR / "1.json").read_text(encoding="utf-8"))
    [call] = model_calls(record["raw"])
    assert (call["attempts"], call["refused"], requests_of_call(call)) == (2, 2, 0)  # tried twice, sent never


def test_a_call_refused_then_answered_counts_one_request(tmp_path: Path) -> None:
    with ExitStack() as held:
        port = held.enter_context(refusing_port())
        servers: list[FakeGemini] = []

        def server_comes_up(seconds: float) -> None:  # the wait before the retry: the server is started meanwhile
            held.close()  # the port freed, then listened at
            servers.append(FakeGemini(default=answer("[]"), port=port).__enter__())

        budget = Budget(max_requests=5)
        caller = GeminiCaller(CallSettings(base_url=f"http://127.0.0.1:{port}", backoff_s=0.01), api_key=KEY,
                              budget=budget, sleep=server_comes_up)
        try:
            reply = caller.generate("find the records")
        finally:
            for server in servers:
                server.__exit__(None, None, None)
    assert reply.attempts == 2 and reply.log.refused == 1
    assert budget.requests == 1 and len(servers[0].requests) == 1
    assert requests_of_call(reply.log.as_dict()) == 1


def test_on_ray_a_refused_attempt_gives_its_reservation_back_to_the_shared_limit() -> None:
    limiter = Limiter(max_requests=1)  # the state the workers' shared actor holds (no Ray needed)
    assert limiter.reserve(0.0)[0] == "ok"
    limiter.release()  # its connection refused
    assert limiter.reserve(0.0)[0] == "ok" and limiter.counts()[0] == 1
    notices = ray_engine._Notices()  # what a worker that died had paid for: not the refused attempt
    unit = (1, "page 3")
    notices.reserved(unit)
    notices.reserved(unit)
    notices.released(unit)
    assert notices.requests_of(unit) == 1
