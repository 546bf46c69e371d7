"""Propose with Gemini in the app, against the loopback fake server: Cancel stops the calls, a session is kept
as a run of the project (its calls and tokens, failed pages too), a quota or a failing endpoint stops it as
`extract` stops, its waits are said in the status bar, and a missing key is said rather than silently passed."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtTest import QTest

from recordlens.annotator.qt.event_loop import spin
from recordlens.core.cli.command import main
from tests.app.gemini_helpers import SHOP_PAGE, SHOP_RECORDS, with_gemini
from tests.app.window_helpers import imported_project, keep_status_messages, open_window
from tests.child_lines import first_line
from tests.conftest import ROOT
from tests.fake_gemini import FakeGemini, answer, refused, status

pytestmark = pytest.mark.app


@pytest.fixture
def window(qtbot, tmp_path: Path):
    folder = imported_project(tmp_path, {f"html/{n}.html": SHOP_PAGE.format(n) for n in (1, 2, 3, 4)})
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    keep_status_messages(win)
    yield win
    win.close()


def wait_for_the_job(qtbot, window) -> None:
    qtbot.waitUntil(lambda: window.job is None, timeout=20_000)


def test_cancel_during_a_wait_sends_no_further_request_and_the_run_keeps_what_was_paid(qtbot, window):
    with FakeGemini([answer(SHOP_RECORDS, usage=(300, 40)), status(503, headers={"Retry-After": "30"}),
                     answer(SHOP_RECORDS)]) as server:
        with_gemini(window, server)
        QTest.keySequence(window, "P")
        wait_for_the_job(qtbot, window)
        QTest.keySequence(window, "P")
        # The wait is said in the status bar as it starts, not only on stderr.
        qtbot.waitUntil(lambda: any("HTTP 503: waiting 30 s" in m for m in window.messages_seen), timeout=10_000)
        QTest.keySequence(window, "Ctrl+.")
        wait_for_the_job(qtbot, window)
        spin(300)  # a retry, had one been made, would reach the server now
        assert len(server.requests) == 2
    said = window.statusBar().currentMessage()
    assert said.startswith("cancelled: no further Gemini call is made") and "kept as run 2" in said, said
    first, second = window.project.runs.all()
    assert first.status == "finished" and first.cost["tokens"]["total"] == 340
    assert first.cost["page_costs"]["1"]["raw"]["answers"] == [SHOP_RECORDS]
    assert first.parameters["seed"] == 0 and first.parameters["settings"]["base_url"] == server.url
    assert window.project.runs.predictions(first.id)["1"] == json.loads(SHOP_RECORDS)
    # The cancelled session's paid attempt (the 503) is kept with its page, added when its call ended.
    qtbot.waitUntil(lambda: "1" in window.project.runs.get(second.id).cost["page_costs"], timeout=10_000)
    kept = window.project.runs.get(second.id)
    assert kept.status == "cancelled"
    assert kept.cost["page_costs"]["1"]["raw"]["calls"][0]["statuses"] == [503]
    assert window.project.labels("1")[0].origin.seed == "0"  # the seed really sent


def test_a_refused_page_keeps_its_tokens_and_a_spent_quota_stops_the_session(qtbot, window, capsys):
    quota = status(429, "quota", headers={"Retry-After": "3600"})
    with FakeGemini([refused("SAFETY"), quota], default=answer(SHOP_RECORDS)) as server:
        with_gemini(window, server)
        QTest.keySequence(window, "Shift+P")
        wait_for_the_job(qtbot, window)
        assert len(server.requests) == 2  # pages 3 and 4 are not asked against a spent quota
    said = window.statusBar().currentMessage()
    assert said.startswith("stopped on page 2: HTTP 429") and "not reached: 3, 4" in said, said
    run = window.project.runs.all()[0]
    assert run.outcome == "stopped" and "page 2" in str(run.cost["stopped"])
    assert run.cost["page_costs"]["1"]["status"] == "failed" and run.cost["page_costs"]["1"]["tokens"]["total"] == 120
    assert run.cost["page_costs"]["2"]["status"] == "not finished" and run.cost["calls"] == 2
    assert window.project.runs.errors(run.id) == {"1": "the model did not finish (finishReason SAFETY)"}
    capsys.readouterr()
    assert main(["runs", "--project", str(window.project.root)]) == 0
    assert "stopped before its last page" in capsys.readouterr().out


def test_an_endpoint_failing_on_three_pages_in_a_row_stops_the_session_and_names_the_setting(qtbot, window):
    with FakeGemini(default=status(400, "API key not valid. Please pass a valid API key.")) as server:
        with_gemini(window, server)
        QTest.keySequence(window, "Shift+P")
        wait_for_the_job(qtbot, window)
        assert len(server.requests) == 3
    said = window.statusBar().currentMessage()
    # in `extract`'s words (core's page loop), naming where the app sets the endpoint
    assert said.startswith("stopped on page 3: the model endpoint failed on 3 pages in a row (") and \
        "; check the endpoint (the Gemini endpoint in Settings, the network); not reached: 4; failed on pages " \
        "1, 2, 3;" in said, said
    # each page's failure says it too, whole in the message log (the bar may end a long one with "…")
    assert any(m.startswith("page 1: ") and m.endswith("; check the endpoint (the Gemini endpoint in Settings, the "
                                                       "network)") for _, m in window.messages.entries)
    run = window.project.runs.all()[0]
    assert run.outcome == "stopped" and str(run.cost["stopped"]).startswith("stopped on page 3: the model endpoint")


def test_gemini_chosen_without_a_key_this_session_is_said_as_propose_falls_back(qtbot, window, monkeypatch):
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    window.settings.default_extractor = "gemini"
    QTest.keySequence(window, "P")
    assert window.messages_seen[-1].startswith(
        "Gemini is the default extractor but no key is set (Settings, Ctrl+,): proposing with selector")
    wait_for_the_job(qtbot, window)
    assert "no key is set" in window.statusBar().currentMessage()
    assert window.project.runs.all() == []  # the offline extractor pays for nothing


def test_the_progress_bar_ends_a_long_name_with_an_ellipsis_and_shows_it_whole_in_its_tooltip(qtbot, window):
    note = "4 new pages (12 pages not new left as they are, and a little more to say)"
    assert window.jobs.propose(["1"], method="selector", note=note) is not None
    bar = window.jobs.progress_bar
    assert bar.format().endswith("…") and len(bar.format()) < len(note)
    assert bar.toolTip() == f"proposing with selector for {note}"
    wait_for_the_job(qtbot, window)


# A Propose session's run, kept by the app's own ProposalRun after its first page, in a process killed after it.
SESSION = textwrap.dedent("""
    import sys, time
    from recordlens.annotator.labelling.propose import ProposalRun
    from recordlens.core.extract import Extraction
    from recordlens.core.store import open_project

    class Gemini:
        name, version, parameters, settings = "gemini", "1", {"seed": 0}, {}

    with open_project(sys.argv[1]) as project:
        run = ProposalRun.start(project, Gemini())
        run.record(project, "1", Extraction([["/body[1]/ul[1]/li[1]"]], "gemini", "1", {}, 0.5,
                                            tokens={"total": 70}))
        print(run.run_id, flush=True)
        time.sleep(600)
""")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_a_session_whose_app_was_killed_reads_as_interrupted_in_review_not_running_for_ever(qtbot, window):
    root = window.project.root
    child = subprocess.Popen([sys.executable, "-c", SESSION, str(root)], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        line = first_line(child)
        assert line.strip().isdigit(), (line, child.stderr.read() if child.stderr else "")
        assert window.project.runs.get(int(line)).outcome == "running"  # its process lives
    finally:
        child.kill()  # SIGKILL (and nothing when `first_line` killed it already)
        child.wait(timeout=60)
    run_id = int(line)
    qtbot.waitUntil(lambda: window.project.runs.get(run_id).outcome == "interrupted", timeout=30_000)
    window.start_review(run_id)
    shown = [window.review_panel.runs.itemText(i) for i in range(window.review_panel.runs.count())]
    assert any(text.startswith(f"#{run_id} gemini (interrupted, ") for text in shown), shown
    kept = window.project.runs.get(run_id)  # what it paid for before the kill stays with it
    assert kept.status == "running" and kept.cost["tokens"]["total"] == 70
