"""Propose with Gemini proposes no record a label could not hold or that would repeat another of the same answer: a
record answered empty (`[]`, which `labels check` would flag as a record without any XPath once accepted) and a
record repeating an earlier one (the same XPaths, or other XPaths covering the same text) are left out, and the
page's warnings say how many (`extract.proposal_of`); the run keeps the answer's records as answered. Its words name
the app's settings, not `extract`'s options. Against the loopback fake server (tests/fake_gemini.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtTest import QTest

from tests.app.gemini_helpers import SHOP_PAGE, with_gemini
from tests.app.window_helpers import imported_project, keep_status_messages, open_window, recent_messages
from tests.fake_gemini import FakeGemini, answer, refused

pytestmark = pytest.mark.app

ITEM = "/html[1]/body[1]/ul[1]/li[{}]"
# two items, an empty record, and the first item again
ANSWERED = json.dumps([[ITEM.format(1)], [ITEM.format(2)], [], [ITEM.format(1)]])


@pytest.fixture
def window(qtbot, tmp_path: Path):
    folder = imported_project(tmp_path, {"html/1.html": SHOP_PAGE.format(1)})
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    keep_status_messages(win)
    yield win
    win.close()


def _propose(qtbot, window) -> None:
    QTest.keySequence(window, "P")
    qtbot.waitUntil(lambda: window.job is None, timeout=30_000)


def test_an_empty_record_and_a_repeat_are_not_proposed_and_said(qtbot, window):
    with FakeGemini(default=answer(ANSWERED)) as server:
        with_gemini(window, server)
        _propose(qtbot, window)
    labels = window.project.labels("1")
    assert len(labels) == 2 and all(label.xpaths for label in labels), labels
    log = recent_messages(window)
    assert "page 1: 2 records proposed" in log, log
    assert "1 empty record not proposed: a record without any XPath names nothing a label could hold" in log, log
    assert "1 record not proposed: it repeats an earlier record" in log, log


def test_an_answer_cut_at_the_output_limit_names_the_model_in_settings(qtbot, window):
    with FakeGemini(default=refused("MAX_TOKENS", '[["/body[1]')) as server:
        with_gemini(window, server)
        _propose(qtbot, window)
    log = recent_messages(window)
    assert "may need a model with a larger limit (the Gemini model in Settings)" in log, log
    assert "--model" not in log, log
