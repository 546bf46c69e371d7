"""`SiteBrowser.settle()` returns after a navigation that an action asked for, however late the page starts it,
and promptly after an action that asked for none; so do the agent's steps (QtSiteBrowser) and the recorder's. A
link the system would handle (mailto:, tel:) goes where it goes for a person, and is not waited for again.

A navigation starts late where the renderer is slow to handle the input (a busy machine): here, deterministically,
a listener of the app's own script world holds the renderer for LATE_MS inside the click or the form's submit
event, before the link is followed or the form sent. Page scripts are off in the site browser, so nothing else
of a page can delay or start one."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.annotator.agent.recorder import Recorder
from recordlens.annotator.agent.site_browser import SiteBrowser
from recordlens.core.agent.model import Step
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.app.agent_helpers import click, element, shown_browser, type_text

pytestmark = pytest.mark.app

BASE = "https://late.example.com"
HOME = f"{BASE}/"
NEXT = f"{BASE}/next"
FOUND = f"{BASE}/found?q=lamp"
MAIL = "mailto:someone@late.example.com"
PHONE = "tel:+15550100"
LATE_MS = 2000  # far beyond a quiet time of 250 ms, as a starved renderer can be
PROMPT_S = 1.5  # an average step with no navigation settles well within this, however busy the machine
QUICK_S = 2.5  # any one settle after an action that asked for no page, however busy the machine


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            f"<body style='font:18px sans-serif;margin:24px'>{body}</body></html>")


def _site(root: Path) -> Path:
    pages = {
        HOME: _page("Start", "<h1>Start</h1><p id='words'>Some words to click on.</p>"
                             "<p><a href='/next'>Next page</a></p>"
                             f"<p><a href='{MAIL}'>Write to us</a> <a href='{PHONE}'>Call us</a></p>"
                             "<form action='/found' method='get'><input name='q' aria-label='Search'>"
                             "<button type='submit'>Find</button></form>"),
        NEXT: _page("Next", "<h1>The next page</h1><a href='/'>Back to the start</a>"),
        FOUND: _page("Found", "<h1>Found: lamp</h1><a href='/'>Back to the start</a>"),
    }
    root.mkdir(parents=True)
    for i, (url, html) in enumerate(pages.items()):
        write_mhtml(root / f"page{i}.mhtml", html, url=url)
    build_site(root)
    return root


@pytest.fixture(scope="module")
def browser(qapp, tmp_path_factory):
    yield from shown_browser(_site(tmp_path_factory.mktemp("late") / "site"), (1000, 700))


def _start(browser: SiteBrowser) -> None:
    browser.open(HOME, fresh=True)
    browser.settle()
    assert browser.url == HOME and browser.run_js("document.title") == "Start"


def _hold_the_renderer_in(browser: SiteBrowser, event: str) -> None:
    """On the page on show, the renderer busy for LATE_MS inside every `event` (before its default action: a
    link followed, a form sent), as a starved renderer handles the input late. The page's next document drops it."""
    browser.run_js(f"window.addEventListener({json.dumps(event)}, () => {{ const start = performance.now(); "
                   f"while (performance.now() - start < {LATE_MS}) {{}} }}, true); true")


def test_a_link_followed_late_is_waited_for(browser) -> None:
    _start(browser)
    _hold_the_renderer_in(browser, "click")
    click(browser, element(browser.mark(), "Next page"))
    browser.settle()
    assert browser.url == NEXT and browser.run_js("document.title") == "Next"
    seen = browser.observe()
    assert seen.url == NEXT and seen.title == "Next" and "The next page" in seen.text


def test_a_form_sent_late_by_enter_is_waited_for(browser) -> None:
    _start(browser)
    _hold_the_renderer_in(browser, "submit")  # the submission is a task of its own, after the key's
    type_text(browser, element(browser.mark(), "Search"), "lamp")
    browser.settle()
    assert browser.url == FOUND and browser.run_js("document.title") == "Found"


def test_an_agents_click_whose_navigation_starts_late_is_observed_after_it(browser) -> None:
    _start(browser)
    agent = QtSiteBrowser(browser=browser)
    link = element(agent.observe(), "Next page")
    _hold_the_renderer_in(browser, "click")
    agent.perform(Step(action="click", target=link))
    seen = agent.observe()
    assert seen.url == NEXT and seen.title == "Next"


def test_a_recorded_click_whose_navigation_starts_late_is_observed_after_it(qtbot, browser) -> None:
    recorder = Recorder(browser, actor="person:test")
    recorder.start(start_url=HOME)
    try:
        _hold_the_renderer_in(browser, "click")
        click(browser, element(recorder.observation, "Next page"))
        qtbot.waitUntil(lambda: len(recorder.steps) >= 1, timeout=60_000)
        assert recorder.observation.url == NEXT and recorder.observation.title == "Next"
        step = recorder.steps[0]
        assert step.action == "click" and step.url == HOME
        assert step.screenshot_after != step.screenshot_before  # the next page's picture, not the start's
    finally:
        recorder.stop()


def test_steps_that_ask_for_no_navigation_settle_promptly(browser) -> None:
    _start(browser)
    words = browser.js_json("JSON.stringify((() => { const r = document.getElementById('words')"
                            ".getBoundingClientRect(); return [r.x + 20, r.y + r.height / 2]; })())")
    steps, navigations = 6, browser.navigations
    began = time.monotonic()
    for _ in range(steps):
        QTest.mouseClick(browser.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         QPoint(round(words[0]), round(words[1])))
        browser.settle()
    took = time.monotonic() - began
    assert browser.url == HOME and browser.navigations == navigations  # nothing was asked for
    assert took < steps * PROMPT_S, f"{steps} steps with no navigation took {took:.1f} s to settle"


@pytest.mark.parametrize(("link", "address"), [("Write to us", MAIL), ("Call us", PHONE)])
def test_a_link_for_the_systems_handler_clicked_by_a_script_is_not_waited_for(browser, link, address) -> None:
    """A mailto: or tel: link a script clicks (no person's gesture) goes where a person's click goes, to the "not
    in this snapshot" page for it, and neither the settle after it nor any later one waits for more."""
    _start(browser)
    browser.run_js(f"[...document.links].find(a => a.textContent === {json.dumps(link)}).click(); true")
    for _ in range(3):
        began = time.monotonic()
        browser.settle()
        took = time.monotonic() - began
        assert took < QUICK_S, f"a settle after a script's click on {link!r} took {took:.1f} s"
    assert browser.url == address and not browser.in_site


def test_a_navigation_the_browser_never_hears_of_is_waited_for_once(browser) -> None:
    """Should the page count a navigation that never reaches this browser (a kind not foreseen), the first settle
    waits for it a while (UNHEARD_NAVIGATION_S), and no later settle on the page does again."""
    _start(browser)
    browser.run_js("__recordlens.site.navigationsStarted = () => 1; true")  # the page says: one started
    browser.settle()  # waits UNHEARD_NAVIGATION_S for it
    for _ in range(3):
        began = time.monotonic()
        browser.settle()
        took = time.monotonic() - began
        assert took < QUICK_S, f"a settle after the unheard navigation was waited for took {took:.1f} s"
    assert browser.url == HOME
