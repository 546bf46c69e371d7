"""Propose with Gemini says the warnings its answer came with (XPaths that name no element of the page, two JSON
lists of which one was read...), as `extract` says them on stderr: once per page, in the status bar and under Recent
messages, and the job's end says that there were some. Against the loopback fake server (tests/fake_gemini.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtTest import QTest

from tests.app.gemini_helpers import window_on_shop_pages, with_gemini
from tests.app.window_helpers import recent_messages, said
from tests.fake_gemini import FakeGemini, answer

pytestmark = pytest.mark.app

ITEM = "/html[1]/body[1]/ul[1]/li[{}]"
# The three items of the page and one that is not there (proposed all the same, the answer warning of it):
DANGLING = json.dumps([[ITEM.format(k)] for k in (1, 2, 3, 9)])
NOTHING = "1 of 4 XPaths in the answer name no element of the page"


@pytest.fixture
def window(qtbot, tmp_path: Path):
    with window_on_shop_pages(qtbot, tmp_path, pages=2) as win:
        yield win


def _propose(qtbot, window, keys: str) -> None:
    QTest.keySequence(window, keys)
    qtbot.waitUntil(lambda: window.job is None, timeout=30_000)


def test_an_answer_s_warnings_are_said_once_for_its_page(qtbot, window):
    with FakeGemini(default=answer(DANGLING)) as server:
        with_gemini(window, server)
        _propose(qtbot, window, "P")
    log = recent_messages(window)
    assert log.count(NOTHING) == 1, log  # once, with its page
    assert f"page 1: 4 records proposed; warning: {NOTHING}" in log, log
    assert any(f"warning: {NOTHING}" in message for message in window.messages_seen)  # shown in the status bar
    end = said(window)
    assert "the proposals came with warnings: Recent messages (Ctrl+Shift+M) say them" in end, end


def test_warnings_of_a_page_with_nothing_new_are_said_too(qtbot, window):
    with FakeGemini(default=answer(DANGLING)) as server:
        with_gemini(window, server)
        _propose(qtbot, window, "P")
        _propose(qtbot, window, "P")  # the same answer again: nothing new on the page
    log = recent_messages(window)
    assert log.count(NOTHING) == 2, log  # once for each answer
    assert f"page 1: all 4 proposals are already on the page; warning: {NOTHING}" in log, log


def test_each_page_s_warnings_are_said_with_it_and_the_end_names_the_pages(qtbot, window):
    with FakeGemini(default=answer(DANGLING)) as server:
        with_gemini(window, server)
        _propose(qtbot, window, "Shift+P")  # Propose for new pages: 1 and 2
    log = recent_messages(window)
    assert f"page 1: 4 records proposed; warning: {NOTHING}" in log, log
    assert f"page 2: 4 records proposed; warning: {NOTHING}" in log, log
    end = said(window)
    assert "the proposals on pages 1, 2 came with warnings" in end, end
