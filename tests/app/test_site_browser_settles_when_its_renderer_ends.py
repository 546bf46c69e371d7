"""`SiteBrowser.settle()` returns promptly when the page's renderer process has ended (crashed, or killed here with
SIGKILL), before or while it waits: nothing on the page will answer it. The next page shown has a renderer again."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer

from recordlens.annotator.agent.site_browser import SiteBrowser
from recordlens.annotator.qt.event_loop import spin
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.app.agent_helpers import click, element, shown_browser

pytestmark = pytest.mark.app

HOME = "https://ended.example.com/"
BUSY_MS = 4000  # the renderer held inside a click this long, so that it ends while settle waits on it
PROMPT_S = 2.5  # a settle on a renderer that has ended, however busy the machine (it waited 30 s)


def _site(root: Path) -> Path:
    root.mkdir(parents=True)
    write_mhtml(root / "home.mhtml", "<!DOCTYPE html><html><head><title>Home</title></head><body>"
                "<h1>Home</h1><button type='button'>Does nothing</button></body></html>", url=HOME)
    build_site(root)
    return root


@pytest.fixture
def browser(qapp, tmp_path):
    yield from shown_browser(_site(tmp_path / "site"), (900, 600))


def _start(browser: SiteBrowser) -> None:
    browser.open(HOME, fresh=True)
    browser.settle()
    assert browser.run_js("document.title") == "Home"


def _kill_the_renderer(browser: SiteBrowser) -> None:
    os.kill(browser.page.renderProcessPid(), signal.SIGKILL)


def _timed_settle(browser: SiteBrowser) -> float:
    began = time.monotonic()
    browser.settle()
    return time.monotonic() - began


def test_a_settle_after_the_renderer_ended_returns_promptly(browser) -> None:
    _start(browser)
    _kill_the_renderer(browser)
    spin(1000)  # Qt hears of its end
    took = _timed_settle(browser)
    assert took < PROMPT_S, f"a settle on a page whose renderer ended took {took:.1f} s"
    _start(browser)  # a page shown again has a renderer of its own, and settles


def test_a_settle_returns_promptly_when_the_renderer_ends_while_it_waits(browser) -> None:
    _start(browser)
    browser.run_js(f"window.addEventListener('click', () => {{ const start = performance.now(); "
                   f"while (performance.now() - start < {BUSY_MS}) {{}} }}, true); true")
    click(browser, element(browser.mark(), "Does nothing"))
    QTimer.singleShot(500, lambda: _kill_the_renderer(browser))  # while settle waits for the busy page's answer
    took = _timed_settle(browser)
    assert took < BUSY_MS / 1000 + PROMPT_S, f"a settle whose page's renderer ended took {took:.1f} s"
