"""A Gemini Propose that fails on a new page (HTTP 500 on every attempt): the job's end says why, shortened, and
Review leads with the failure, the page's figures said as those of the empty prediction it is scored as (NEXT-EVAL
gives 1 to a page with nothing to find, which must not read as a perfect answer). Against the loopback fake in
tests/fake_gemini.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtTest import QTest

from recordlens.core.llm.gemini import GeminiCaller
from tests.app.window_helpers import imported_project, open_window
from tests.fake_gemini import FakeGemini, status

pytestmark = pytest.mark.app

PAGE = ("<!doctype html><html><head><meta charset='utf-8'><title>Shop {}</title></head><body><ul>"
        "<li><b>Camera</b> $399</li><li><b>Lens</b> $129</li></ul></body></html>")
FAILED = "⚠ the run failed on this page (Gemini call failed after 5 attempt(s): HTTP 500: "
WHY = "internal error of the fake" + ", and then some" * 10  # a reason too long for a status bar


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)  # five attempts, no waits
    folder = imported_project(tmp_path, {f"html/{n}.html": PAGE.format(n) for n in (1, 2)})
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    yield win
    win.close()


def test_a_page_the_endpoint_failed_on_says_why_at_the_end_and_in_review_leads_with_the_failure(qtbot, window):
    with FakeGemini(default=status(500, WHY)) as server:
        window.keys.set("test-key-not-real-321")
        window.settings.default_extractor = "gemini"
        window.settings.gemini_endpoint = server.url
        QTest.keySequence(window, "P")
        qtbot.waitUntil(lambda: window.job is None, timeout=30_000)
        assert len(server.requests) == 5
    said = window.statusBar().currentMessage()
    # the reason, shortened (whole under Recent messages), then the endpoint's advice once, then what the calls
    # spent and where they are
    assert said.startswith("done: failed on page 1 (Gemini call failed after 5 attempt(s): HTTP 500: internal error "
                           "of the fake, and then some"), said
    assert said.endswith("…); check the endpoint (the Gemini endpoint in Settings, the network); it spent 5 "
                         "requests: its calls are kept as run 1 (Review, recordlens runs)"), said
    assert any(message.startswith("page 1: ") and WHY in message for _, message in window.messages.entries)
    run = window.project.runs.all()[0]
    window.start_review(run.id)
    window.page_view.wait_until_drawn()
    figures = window.review_panel.page_figures.text()
    lines = figures.splitlines()
    assert lines[0].startswith(FAILED) and lines[0].endswith("; scored as an empty prediction:"), figures
    assert lines[1] == ("P 1.000   R 1.000   F1 1.000 (an empty prediction where there is nothing to find: 1 by "
                        "NEXT-EVAL's rule)")
    assert "nothing proposed" not in figures and "⚠ the run failed" not in "\n".join(lines[1:])
    assert WHY in window.review_panel.page_figures.toolTip()  # whole there
