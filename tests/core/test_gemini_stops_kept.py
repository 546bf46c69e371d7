"""What a Gemini run keeps when it is stopped part way through a page, and how long it waits when asked to: Ctrl+C
or SIGTERM during a page keeps the calls that page already paid for (as a budget stop does), the request whose answer
was awaited then among them as one whose tokens are unknown (sent, so paid for: as a kill keeps it), and a
Retry-After given as an HTTP date is measured against the server's own Date header, not the local clock. Against
real HTTP servers on 127.0.0.1 (tests/fake_gemini.py, and one here that sends a Date of its own)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from email.utils import formatdate
from pathlib import Path

import pytest

from recordlens.core.llm.gemini import UNCOUNTED, UNREAD, CallSettings, GeminiCaller
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.run_files import META_DIR, NEVER_READ, NOT_FINISHED, read_page_costs, summed_cost
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer, answer_with, hang
from tests.loopback import LoopbackHandler, base_url, serve

DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-stops"
TRUTH = {p: json.loads((DEMO / "gt" / f"{p}.json").read_text()) for p in ("1", "2", "3", "4")}

# `recordlens extract` in a child process whose Ctrl+C raises KeyboardInterrupt, whatever the parent ignores
EXTRACT_CHILD = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
from recordlens.core.cli.command import main
sys.exit(main(sys.argv[1:]))
"""


def extract_args(run_dir: Path, server: FakeGemini) -> list[str]:
    return ["extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(run_dir),
            "--base-url", server.url, "-q"]


def wait_for_requests(server: FakeGemini, count: int, child: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while len(server.requests) < count:
        if child.poll() is not None or time.monotonic() > deadline:
            child.kill()
            raise AssertionError(f"the run ended or stalled before request {count}: {child.communicate()}")
        time.sleep(0.05)


# 1. Ctrl+C or SIGTERM during a page keeps the calls it paid for


@pytest.mark.parametrize(("sent", "status", "said"), [
    (signal.SIGINT, 130, "recordlens: interrupted"),
    (signal.SIGTERM, 143, "recordlens: interrupted (SIGTERM)"),
])
def test_an_interrupt_during_a_page_keeps_its_paid_calls_as_not_finished(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], sent: int, status: int, said: str) -> None:
    run_dir = tmp_path / "run"
    # page 1's first answer is paid for but unreadable; its retry hangs, and the run is interrupted there
    with FakeGemini([answer("no JSON here, sorry", usage=(300, 40)), hang(300)]) as server:
        port = server.port  # a resume goes on through the same endpoint (another one is refused)
        # a short backoff before the retry: the interrupt comes during the retry, not during the wait before it
        child = subprocess.Popen([sys.executable, "-c", EXTRACT_CHILD, *extract_args(run_dir, server),
                                  "--param", "backoff_s=0.05"],
                                 cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env={**os.environ, "HOME": str(tmp_path), "GEMINI_API_KEY": KEY})
        wait_for_requests(server, 2, child)
        child.send_signal(sent)
        _, err = child.communicate(timeout=120)
    assert child.returncode == status, err
    assert err.splitlines()[-1] == said
    assert f"0 of 4 pages extracted, stopped on page 1 (its paid calls kept in {META_DIR}/1.json); run the " \
        "same command again for the rest" in err
    kept = json.loads((run_dir / META_DIR / "1.json").read_text(encoding="utf-8"))
    assert kept["status"] == NOT_FINISHED and "interrupted" in kept["reason"]
    # the retry in flight was sent, so paid for, and never read: its tokens unknown, not 0 (as a kill leaves it)
    assert kept["tokens"] == {"prompt": 300, "completion": 40, "total": 340, UNCOUNTED: 1}
    assert f"1 request {NEVER_READ}" in kept["warnings"], kept["warnings"]
    first, second = kept["raw"]["calls"]
    assert (first["statuses"], first["tokens"]["total"]) == ([200], 340)
    assert second["statuses"] == [0] and "interrupted" in second["error"]  # the request in flight, reserved
    assert second[UNREAD] == 1
    assert kept["raw"]["answers"] == ["no JSON here, sorry"] and kept["raw"]["malformed"] == 1
    assert not (run_dir / "1.json").exists()
    assert summed_cost(read_page_costs(run_dir).values())["tokens"] == {"prompt": 300, "completion": 40,
                                                                        "total": 340, UNCOUNTED: 1}

    # a resume asks the page again, the interrupted calls kept under "earlier", and the run's cost counts them
    os.environ["GEMINI_API_KEY"] = KEY
    try:
        with FakeGemini(default=answer_with(lambda body: json.dumps(TRUTH["1"])), port=port) as server:
            code, _, err = run(capsys, *extract_args(run_dir, server))
    finally:
        del os.environ["GEMINI_API_KEY"]
    assert code == 0, err
    done = json.loads((run_dir / META_DIR / "1.json").read_text(encoding="utf-8"))
    assert done["status"] == "done" and [e["status"] for e in done["earlier"]] == [NOT_FINISHED]
    resumed = summed_cost(read_page_costs(run_dir).values())["tokens"]
    assert (resumed["total"], resumed[UNCOUNTED]) == (340 + 4 * 120, 1)


# 3. a Retry-After date is measured against the server's own clock


def skewed_429_server(skew_s: float, retry_after_s: float, *, sends_date: bool = True) -> type[LoopbackHandler]:
    """A server whose clock is `skew_s` off the local one: its first answer is a 429 asking to wait until
    `retry_after_s` after its own now (an HTTP date), with its own Date header (or none); then an answer."""

    class Handler(LoopbackHandler):
        asked = 0

        def date_time_string(self, timestamp: float | None = None) -> str:
            return formatdate(time.time() + skew_s, usegmt=True)

        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            type(self).asked += 1
            if type(self).asked > 1:
                body = {"candidates": [{"content": {"role": "model", "parts": [{"text": "[]"}]},
                                        "finishReason": "STOP", "index": 0}],
                        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 1, "totalTokenCount": 11}}
                self.send(200, json.dumps(body).encode(), "application/json")
                return
            data = json.dumps({"error": {"code": 429, "message": "quota", "status": "RESOURCE_EXHAUSTED"}}).encode()
            if sends_date:
                self.send_response(429)  # its Date header: the server's own clock
            else:
                self.send_response_only(429)
            self.send_header("Retry-After", formatdate(time.time() + skew_s + retry_after_s, usegmt=True))
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


@pytest.mark.parametrize("skew_s", [600.0, -600.0, 0.0])  # the local clock 10 minutes slow, 10 fast, right
def test_a_retry_after_date_is_measured_from_the_answer_s_own_date(skew_s: float) -> None:
    waits: list[float] = []
    with serve(skewed_429_server(skew_s, 20)) as server:
        caller = GeminiCaller(CallSettings(base_url=base_url(server)), api_key=KEY, sleep=waits.append,
                              notify=lambda message: None)
        caller.generate("a page")
    assert len(waits) == 1 and waits[0] == pytest.approx(20, abs=1.5)


def test_a_retry_after_date_without_a_date_header_is_measured_against_the_local_clock() -> None:
    waits: list[float] = []
    with serve(skewed_429_server(0, 20, sends_date=False)) as server:
        caller = GeminiCaller(CallSettings(base_url=base_url(server)), api_key=KEY, sleep=waits.append,
                              notify=lambda message: None)
        caller.generate("a page")
    # Measured against this clock when the answer is read: the date's cut second, and however long a busy machine
    # took from the server's header to the client's reading of it, come off the 20 s (not so with a Date header,
    # where both times are the server's)
    assert len(waits) == 1 and waits[0] == pytest.approx(20, abs=5)
