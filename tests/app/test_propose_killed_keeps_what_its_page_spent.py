"""The app's Propose with Gemini, its process killed (SIGKILL) part way through a page, keeps in the project's run
what the page spent: the page is kept in the run as its budget counts (`ProposalRun.record_spent`, each request
before it is sent and each answer's tokens as read), as `recordlens extract` keeps it in its folder. Before, a page
was kept only once it ended: killed in the wait before a retry after a paid, unreadable answer, the run read as
interrupted with an empty cost while the server had been sent two requests and paid for one answer's tokens.
A page that ends counts once: its own record takes the place of what was kept as it went.

Real processes against the loopback fake of Gemini, which counts what it received; the child runs the app's
propose job and stops itself in the wait before the retry, says so, and is killed there."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from recordlens.core.llm.gemini import requests_of_call
from recordlens.core.runs import model_calls
from tests.app.gemini_helpers import SHOP_PAGE, SHOP_RECORDS, with_gemini
from tests.app.window_helpers import imported_project, open_window
from tests.child_lines import LINE_TIMEOUT_S, first_line
from tests.conftest import ROOT
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer, status

pytestmark = [pytest.mark.app, pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")]

KEY = "test-key-not-real-killed-propose"
STOPPED = "stopped here"
UNREADABLE = answer("no JSON here, sorry", usage=(300, 40))  # paid for (340 tokens), and asked again
# The app's propose job on page 1, with Gemini at the given endpoint; the caller's wait before a retry says STOPPED
# on stdout and waits to be killed
PROPOSE_STOPPING_IN_THE_WAIT = textwrap.dedent("""
    import sys, threading
    from pathlib import Path
    from PySide6.QtCore import QCoreApplication
    from recordlens.annotator.labelling.propose import ProposeWorker
    from recordlens.core.llm.gemini import GeminiCaller

    def stopping(self, *args, **kwargs):
        print({stopped!r}, flush=True)
        threading.Event().wait()

    GeminiCaller._wait_before_retry = stopping
    app = QCoreApplication([])
    root, url, key = sys.argv[1:]
    ProposeWorker(Path(root), ["1"], "gemini", {{"api_key": key, "base_url": url}}).run()
""").format(stopped=STOPPED)


def requests_kept(record: dict[str, object]) -> int:
    return sum(requests_of_call(call) for call in model_calls(record.get("raw")))


def generate_requests(server: FakeGemini) -> int:
    return sum(1 for request in server.requests if request.path.endswith(":generateContent"))


def test_propose_killed_waiting_to_retry_keeps_the_paid_answer_and_the_requests_in_its_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = imported_project(tmp_path, {"html/1.html": SHOP_PAGE.format(1)})
    with FakeGemini([UNREADABLE, status(503)], default=answer(SHOP_RECORDS)) as server:
        child = subprocess.Popen([sys.executable, "-c", PROPOSE_STOPPING_IN_THE_WAIT, str(project), server.url, KEY],
                                 cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = first_line(child, LINE_TIMEOUT_S * 2)
            assert line.strip() == STOPPED, (line, child.stderr.read() if child.stderr else "")
        finally:
            child.send_signal(signal.SIGKILL)  # no way out: nothing is written after this
            child.communicate(timeout=LINE_TIMEOUT_S)
        assert generate_requests(server) == 2
    code, listing, err = run(capsys, "runs", "--project", str(project), "--json")
    assert code == 0, err
    (stored,) = json.loads(listing)
    assert stored["status"] == "interrupted", stored
    kept = stored["cost"]["page_costs"]["1"]
    assert kept["status"] == "not finished" and "killed" in str(kept["reason"]), kept
    assert requests_kept(kept) == 2, kept
    assert stored["cost"]["tokens"]["total"] == 340, stored


def test_a_propose_that_ends_counts_its_page_once(qtbot, tmp_path: Path) -> None:
    folder = imported_project(tmp_path, {"html/1.html": SHOP_PAGE.format(1)})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        with FakeGemini([UNREADABLE, status(503, headers={"Retry-After": "1"})],
                        default=answer(SHOP_RECORDS, usage=(100, 20))) as server:
            with_gemini(window, server)
            window.jobs.propose(["1"])
            qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
            assert generate_requests(server) == 3
        (stored,) = window.project.runs.all()
    finally:
        window.close()
    assert stored.status == "finished"
    page = stored.cost["page_costs"]["1"]
    assert page["status"] == "done" and requests_kept(page) == 3, page
    assert stored.cost["tokens"]["total"] == 340 + 120 and stored.cost["pages"] == 1, stored.cost
    assert stored.cost["calls"] == len(model_calls(page["raw"])), stored.cost
