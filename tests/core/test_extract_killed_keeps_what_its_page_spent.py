"""A Gemini `extract` killed (SIGKILL) part way through a page keeps what the page spent: its `_run/N.json` is
written as the run's budget counts (`Budget.on_change`), each request before it is sent and each answer's tokens as
soon as they are counted, so the folder holds, at every moment, the page's requests and tokens. Before, only the
page's own record, written once it ended, held them: a kill in a wait before a retry, or with a request in flight,
lost every call the page had paid for (from the resume's count, from `runs --add`'s, and from `score`, which said
the run stopped before the page it stopped on). SIGTERM and Ctrl+C kept them, and still do, alike
(tests/core/test_gemini_stops_kept.py). Real processes against the loopback fake of Gemini, which counts what it
received; each child stops itself at the point named, says so, and is killed there."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from recordlens.core.llm.gemini import UNCOUNTED, Budget, requests_of_call
from recordlens.core.runs.page_loop import Spent, spending_told
from recordlens.core.runs.run_files import (
    DONE,
    META_DIR,
    NEVER_READ,
    NOT_FINISHED,
    model_calls,
    paid_tokens,
    read_page_costs,
    summed_cost,
)
from tests.child_lines import LINE_TIMEOUT_S, first_line
from tests.child_stops import STOPPED, caller_stopping_at
from tests.core.cli_runs import DEMO, demo_project, gemini_extract, run
from tests.fake_gemini import FakeGemini, answer, answer_with, hang, status

KEY = "test-key-not-real-killed-extract"
TOKENS = 120  # the fake's usage of an answer: 100 prompt, 20 completion
# `recordlens extract`, after the code that stops it (`caller_stopping_at`)
EXTRACT = """
from recordlens.core.cli.command import main
sys.exit(main(sys.argv[1:]))
"""


GOOD = answer_with(lambda body: json.dumps([["/html[1]/body[1]"]]))  # a readable answer, whatever the page


def started(run_dir: Path, tmp_path: Path, server: FakeGemini, method: str = "generate", nth: int = 0, *,
            after: bool = False) -> subprocess.Popen[str]:
    """`extract` of the demo's pages into `run_dir` on `server`, in a process of its own, which stops where its
    caller's `method` is called the `nth` time (`after` it returns, or as it is called; never for 0)."""
    code = caller_stopping_at(method, nth, after=after) + EXTRACT
    return subprocess.Popen([sys.executable, "-c", code, *gemini_extract(run_dir, server)],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "HOME": str(tmp_path), "GEMINI_API_KEY": KEY})


def killed_at(run_dir: Path, tmp_path: Path, server: FakeGemini, method: str, nth: int, *, after: bool) -> None:
    """`started`, and killed where it stopped."""
    child = started(run_dir, tmp_path, server, method, nth, after=after)
    killed(child, lambda: first_line(child, LINE_TIMEOUT_S * 2).strip() == STOPPED)


def killed(child: subprocess.Popen[str], ready: Callable[[], bool]) -> None:
    """`child` killed (SIGKILL) once `ready()` (or at once, the test failing, when it is not)."""
    try:
        assert ready(), child.stderr.read() if child.stderr else ""
    finally:
        child.send_signal(signal.SIGKILL)  # no way out: nothing is written after this
        child.communicate(timeout=LINE_TIMEOUT_S)
    assert child.returncode == -signal.SIGKILL


def received(server: FakeGemini, count: int, child: subprocess.Popen[str]) -> bool:
    """Whether `server` received `count` requests for answers before `child` ended (or a deadline passed)."""
    deadline = time.monotonic() + LINE_TIMEOUT_S * 2
    while generate_requests(server) < count:
        if child.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def generate_requests(server: FakeGemini) -> int:
    return sum(1 for request in server.requests if request.path.endswith(":generateContent"))


def requests_kept(record: dict[str, object]) -> int:
    """The requests a page's record says were sent, its earlier records' too."""
    return sum(requests_of_call(call) for kept in [record, *record.get("earlier", [])]  # type: ignore[list-item]
               for call in model_calls(kept.get("raw")))


def record_of(run_dir: Path, name: str) -> dict[str, object]:
    return json.loads((run_dir / META_DIR / f"{name}.json").read_text(encoding="utf-8"))


def score_says_it_stopped_on(capsys: pytest.CaptureFixture[str], run_dir: Path, name: str) -> None:
    """`score` of the killed run in `run_dir` names page `name` as the one the run stopped on, not one it stopped
    before."""
    _, out, err = run(capsys, "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages", str(DEMO / "html"))
    assert f" {name}: not extracted (no N.json): the run stopped on it, part way" in out + err, out + err


def added_to_a_project(capsys: pytest.CaptureFixture[str], run_dir: Path, folder: Path) -> Path:
    """A demo project in `folder` to which `runs --add` added the run folder `run_dir`."""
    project = demo_project(capsys, folder)
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    assert code == 0, err
    return project


def resumed(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, run_dir: Path,
            server: FakeGemini) -> None:
    """`extract` into `run_dir` on `server` run again (a resume), in this process, to its end."""
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    code, _, err = run(capsys, *gemini_extract(run_dir, server))
    assert code == 0, err


def test_killed_waiting_to_retry_keeps_the_paid_answer_and_the_requests_and_a_resume_counts_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    run_dir = tmp_path / "run"
    # page 1's first answer is paid for but unreadable; its retry meets a 503, and the run is killed in the wait
    with FakeGemini([answer("no JSON here, sorry", usage=(300, 40)), status(503)], default=GOOD) as server:
        killed_at(run_dir, tmp_path, server, "_wait_before_retry", 1, after=False)
        assert generate_requests(server) == 2
        kept = record_of(run_dir, "1")
        assert kept["status"] == NOT_FINISHED and "killed" in str(kept["reason"])
        # the 503 was read (it costs no tokens): no request awaited in the wait, no tokens unknown
        assert (requests_kept(kept), paid_tokens(kept)) == (2, {"total": 340}), kept
        assert not (run_dir / "1.json").exists()

        score_says_it_stopped_on(capsys, run_dir, "1")

        # runs --add of the killed folder stores what it paid for
        project = added_to_a_project(capsys, run_dir, tmp_path / "p")
        code, listing, _ = run(capsys, "runs", "--project", str(project), "--json")
        (stored,) = json.loads(listing)
        assert stored["cost"]["tokens"]["total"] == 340, stored

        # a resume asks the page again, the killed session's calls kept under "earlier", counted once
        resumed(capsys, monkeypatch, run_dir, server)
    done = record_of(run_dir, "1")
    assert done["status"] == DONE and [e["status"] for e in done["earlier"]] == [NOT_FINISHED]  # type: ignore[union-attr]
    assert requests_kept(done) == 3 and paid_tokens(done)["total"] == 340 + TOKENS
    costs = read_page_costs(run_dir)
    assert sum(map(requests_kept, costs.values())) == generate_requests(server) == 6
    assert summed_cost(costs.values())["tokens"]["total"] == 340 + 4 * TOKENS
    assert all("earlier" not in costs[name] for name in ("2", "3", "4"))  # a page asked once: no earlier of itself


def test_killed_with_a_request_in_flight_keeps_that_request(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    run_dir = tmp_path / "run"
    # page 1 answered; page 2's request never answered: the run is killed while it waits for it
    with FakeGemini([GOOD, hang(300)], default=GOOD) as server:
        child = started(run_dir, tmp_path, server)
        killed(child, lambda: received(server, 2, child))
        assert generate_requests(server) == 2
        assert record_of(run_dir, "1")["status"] == DONE
        kept = record_of(run_dir, "2")
        # the request awaited was paid for, its tokens unknown: counted as such, never as 0 tokens
        assert kept["status"] == NOT_FINISHED and requests_kept(kept) == 1, kept
        assert paid_tokens(kept) == {UNCOUNTED: 1} and NEVER_READ in str(kept["warnings"]), kept
        score_says_it_stopped_on(capsys, run_dir, "2")

        # runs --add of the killed folder, and runs, say the run's spend with that answer's tokens unknown
        project = added_to_a_project(capsys, run_dir, tmp_path / "p")
        code, listing, _ = run(capsys, "runs", "--project", str(project))
        assert ("spent 2 requests, 120 tokens (100 prompt, 20 completion) counted, and 1 answer without token "
                "counts (their tokens unknown, not 0)") in listing, listing

        # a resume keeps the killed session's request under "earlier": the run's cost still says its tokens unknown
        resumed(capsys, monkeypatch, run_dir, server)
    done = record_of(run_dir, "2")
    assert done["status"] == DONE and requests_kept(done) == 2, done
    assert paid_tokens(done) == {"prompt": 100, "completion": 20, "total": TOKENS, UNCOUNTED: 1}, done
    assert summed_cost(read_page_costs(run_dir).values())["tokens"][UNCOUNTED] == 1


def test_killed_as_an_answer_arrives_keeps_its_tokens(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=GOOD) as server:
        # page 2's answer, once the caller has it and before the extractor reads it
        killed_at(run_dir, tmp_path, server, "generate", 2, after=True)
        assert generate_requests(server) == 2
    kept = record_of(run_dir, "2")
    assert kept["status"] == NOT_FINISHED and (requests_kept(kept), paid_tokens(kept)) == (1, {"total": TOKENS})


# The hook itself: what a page spent, from its start, each time the budget counts; the budget's own hook kept


def test_a_page_is_told_what_it_spent_as_its_budget_counts_and_the_budget_s_hook_is_kept() -> None:
    before: list[str] = []
    budget = Budget(requests=5, tokens=900, on_change=lambda: before.append("budget's own"))
    told: list[Spent] = []
    with spending_told(budget, told.append):
        budget.reserve_request()
        budget.add_tokens(120)
        budget.reserve_request()
        budget.release_request()
        budget.add_uncounted(given_up=True)
    # a request reserved is awaited until what its answer cost is counted (or it is given back unsent)
    assert told == [Spent(1, 0, awaited=1), Spent(1, 120), Spent(2, 120, awaited=1), Spent(1, 120),
                    Spent(1, 120, 1, 1)]
    assert len(before) == 5
    budget.reserve_request()
    assert len(told) == 5 and len(before) == 6  # the page's hook gone, the budget's own back


def test_a_budget_without_the_hook_tells_nothing() -> None:
    class Shared:  # a Ray worker's shared budget counts every worker's pages: no page's own figures
        pass

    told: list[Spent] = []
    with spending_told(Shared(), told.append):
        pass
    assert told == [] and not hasattr(Shared(), "on_change")
