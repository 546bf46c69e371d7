"""What a Propose with Gemini spent, kept and said: a verifier's findings, against the loopback fake of Gemini.

- An answer given up at quit (Quit now, which the dialog says was "already asked of the model (and paid for)"),
  lost to a kill (SIGKILL) while it was awaited, or awaited at Cancel, was kept in the run as 1 attempt with tokens
  {}: read as 0 tokens. It is kept as a request sent whose answer's tokens are unknown, written before the wait.
- The end of a Propose said "its calls and tokens are kept as run N (Review, recordlens runs)", but neither Review
  nor `recordlens runs` said them, and `runs --json` said "calls": 1 of a page asked three times (429, 429, 200).
- After a Gemini Propose the selector's undecided proposals were said as "earlier proposals the model no longer
  makes", and selected as such.
- While a Propose with Gemini waited, the status said "proposing with gemini" alone.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling import main_window
from recordlens.annotator.labelling.propose import ProposalRun
from recordlens.annotator.qt.jobs import answers_on_their_way
from recordlens.core.llm.gemini import UNCOUNTED, GeminiCaller
from recordlens.core.runs import Spent
from recordlens.core.store import Provenance, open_project
from tests.app.gemini_helpers import SHOP_PAGE, SHOP_RECORDS, window_on_shop_pages, with_gemini
from tests.app.test_answers_kept_at_quit import quit_while_the_answer_is_on_its_way
from tests.app.window_helpers import imported_project, said
from tests.child_lines import LINE_TIMEOUT_S, first_line
from tests.conftest import ROOT
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer, hang, status

pytestmark = pytest.mark.app

NEVER_S = 600.0  # an answer held past the test, let go when the server ends
UNKNOWN = {UNCOUNTED: 1}  # the tokens of one answer paid for and never read
# The app's propose job on page 1 with Gemini at the given endpoint, in a process of its own (killed by the test)
PROPOSE = textwrap.dedent("""
    import sys
    from pathlib import Path
    from PySide6.QtCore import QCoreApplication
    from recordlens.annotator.labelling.propose import ProposeWorker

    app = QCoreApplication([])
    root, url, key = sys.argv[1:]
    print("proposing", flush=True)
    ProposeWorker(Path(root), ["1"], "gemini", {"api_key": key, "base_url": url}).run()
""")


def listed(capsys: pytest.CaptureFixture[str], project: Path) -> dict[str, object]:
    """The project's one run, as `recordlens runs --json` gives it."""
    code, listing, err = run(capsys, "runs", "--project", str(project), "--json")
    assert code == 0, err
    (document,) = json.loads(listing)
    return document


def generate_requests(server: FakeGemini) -> int:
    return sum(1 for request in server.requests if request.path.endswith(":generateContent"))


@pytest.fixture
def window(qtbot, tmp_path: Path):
    with window_on_shop_pages(qtbot, tmp_path, pages=2) as win:
        yield win


def test_an_answer_given_up_at_quit_now_is_kept_with_its_tokens_unknown(qtbot, tmp_path: Path, monkeypatch,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(main_window, "ANSWERS_WAIT_S", 60.0)
    released = threading.Event()
    try:
        folder, shown, _ = quit_while_the_answer_is_on_its_way(qtbot, tmp_path, released, press_quit_now=True)
        assert shown and answers_on_their_way() == 1  # given up: the process would end here
        document = listed(capsys, folder)
        page = document["cost"]["page_costs"]["1"]
        assert page["tokens"] == UNKNOWN, page
        assert document["cost"]["tokens"] == UNKNOWN and document["cost"]["requests"] == 1, document["cost"]
    finally:
        released.set()  # the answer comes now, to a test that no longer looks
        qtbot.waitUntil(lambda: answers_on_their_way() == 0, timeout=60_000)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_an_app_killed_while_an_answer_is_awaited_keeps_it_with_its_tokens_unknown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = imported_project(tmp_path, {"html/1.html": SHOP_PAGE.format(1)})
    with FakeGemini([hang(NEVER_S)]) as server:
        child = subprocess.Popen([sys.executable, "-c", PROPOSE, str(project), server.url, "test-key-not-real-k9"],
                                 cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert first_line(child, LINE_TIMEOUT_S * 2).strip() == "proposing"
            deadline = time.monotonic() + LINE_TIMEOUT_S * 2
            while generate_requests(server) < 1 and child.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert generate_requests(server) == 1, child.stderr.read() if child.stderr else ""
        finally:
            child.send_signal(signal.SIGKILL)  # nothing is written after this: what the run holds was written before
            child.communicate(timeout=LINE_TIMEOUT_S)
    document = listed(capsys, project)
    assert document["status"] == "interrupted", document
    assert document["cost"]["page_costs"]["1"]["tokens"] == UNKNOWN, document["cost"]
    assert document["cost"]["tokens"] == UNKNOWN and document["cost"]["requests"] == 1, document["cost"]


def test_a_wait_said_with_its_limit_and_a_cancel_keeps_the_awaited_answer_with_its_tokens_unknown(qtbot, window):
    with FakeGemini([hang(NEVER_S)]) as server:
        with_gemini(window, server)
        QTest.keySequence(window, "P")
        qtbot.waitUntil(lambda: generate_requests(server) == 1, timeout=60_000)
        # what it waits for, and how long at most: as it starts, and in the bar while it waits
        waits = "waiting for the model's answer on page 1 (at most 5 min per request)"
        assert ("proposing with gemini; waiting for the model's answer on each page (at most 5 min per request)"
                in window.messages_seen), window.messages_seen
        bar = window.jobs.progress_bar
        assert bar.toolTip() == f"proposing with gemini: {waits}" and bar.format().startswith("waiting for the")
        QTest.keySequence(window, "Ctrl+.")
        qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
        (stored,) = window.project.runs.all()
        kept = stored.cost["page_costs"]["1"]
        assert kept["status"] == "not finished" and kept["tokens"] == UNKNOWN, kept
        assert said(window) == ("cancelled: no further Gemini call is made; it spent 1 request, 0 tokens counted, "
                                "and 1 answer without token counts (their tokens unknown, not 0): its calls are "
                                "kept as run 1 (Review, recordlens runs)")
    qtbot.waitUntil(lambda: answers_on_their_way() == 0, timeout=60_000)  # the server's end closed the request


def test_a_propose_says_its_requests_and_tokens_and_so_do_review_and_runs(qtbot, window, monkeypatch,
                                                                        capsys: pytest.CaptureFixture[str]):
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)  # the retries without waits
    with FakeGemini([status(429), status(429), answer(SHOP_RECORDS, usage=(100, 20))]) as server:
        with_gemini(window, server)
        QTest.keySequence(window, "P")
        qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
        assert generate_requests(server) == 3
    spent = "3 requests, 120 tokens (100 prompt, 20 completion)"
    assert said(window).endswith(f"; it spent {spent}: its calls are kept as run 1 (Review, recordlens runs)"), \
        said(window)
    (stored,) = window.project.runs.all()
    window.start_review(stored.id)
    runs = window.review_panel.runs
    assert f"\nspent: {spent}" in runs.itemData(runs.findData(stored.id), Qt.ItemDataRole.ToolTipRole)
    code, table, err = run(capsys, "runs", "--project", str(window.project.root))
    assert code == 0 and f"    spent {spent}" in table.splitlines(), table + err
    document = listed(capsys, window.project.root)
    assert (document["cost"]["requests"], document["cost"]["calls"]) == (3, 1), document["cost"]


def test_another_extractors_undecided_proposals_are_not_said_as_ones_the_model_no_longer_makes(qtbot, window):
    title = "/html[1]/head[1]/title[1]"
    change = window.project.add_records("1", [[title]], Provenance.extractor("selector", "1.0 model shipped"))
    window.reload_labels([])
    with FakeGemini([answer(SHOP_RECORDS)]) as server:
        with_gemini(window, server)
        QTest.keySequence(window, "P")
        qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
    assert said(window).startswith("done: 3 records proposed on page 1; 1 undecided proposal of selector, another "
                                   "extractor, stays as it was; it spent 1 request"), said(window)
    assert "no longer makes" not in said(window)
    window.actions_by_name["select_not_made"].trigger()
    assert said(window) == "no earlier proposal that the last Propose of page 1 did not make is still undecided"
    assert change.after[0].id not in window.record_panel.selected_ids()


def test_a_request_awaited_is_kept_with_its_tokens_unknown_until_its_attempt_ends(tmp_path: Path) -> None:
    folder = imported_project(tmp_path, {"html/1.html": SHOP_PAGE.format(1)})
    with open_project(folder) as project:
        run_ = ProposalRun(project.root, project.runs.start("gemini", {}))

        def kept() -> dict[str, int]:
            return project.runs.get(run_.run_id).cost.get("tokens") or {}

        begun = time.monotonic()
        run_.record_spent("1", begun, Spent(requests=1, awaited=1))  # sent: awaited
        assert kept() == UNKNOWN
        run_.record_spent("1", begun, Spent(requests=1))  # a 429: its attempt over, nothing awaited, nothing paid
        assert kept() == {}
        run_.record_spent("1", begun, Spent(requests=2, awaited=1))  # the retry sent
        assert kept() == UNKNOWN
        run_.record_spent("1", begun, Spent(requests=2, tokens=120))  # its answer read
        assert kept() == {"total": 120}
        assert project.runs.get(run_.run_id).cost["requests"] == 2
