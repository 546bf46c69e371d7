"""The agent window's site browser leaves a page only when a person asks: a saved page's
`<meta http-equiv=refresh>` (to a page of the site, to one it does not hold, to a live server, to itself) is not
followed, while a trajectory is recorded too, and the status bar says so once per page; a person's link click
still leaves the page. "N request(s) blocked on this page" counts the page on show, not every page since the
site opened. A live HTTP server on 127.0.0.1 that a page points at never hears of any of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.agent.window import AgentWindow
from recordlens.annotator.qt.event_loop import spin
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import write_mhtml
from tests import loopback
from tests.app.agent_helpers import click, element

pytestmark = pytest.mark.app

BASE = "https://news.example.net"
REFRESH_SAVED = f"{BASE}/refresh-saved"
REFRESH_MISSING = f"{BASE}/refresh-missing"
REFRESH_LIVE = f"{BASE}/refresh-live"
REFRESH_SELF = f"{BASE}/refresh-self"
STORY = f"{BASE}/story"
FRONT = f"{BASE}/"
SAID = "by itself (a refresh or redirect in it); it stays"


class _Live(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        self.send(200, b"<html><title>Live</title><body>live</body></html>")


def _page(title: str, head: str, body: str) -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'>{head}<title>{title}</title></head>"
            f"<body>{body}</body></html>")


def _refresh(to: str) -> str:
    return f"<meta http-equiv='refresh' content='0;url={to}'>" if to else "<meta http-equiv='refresh' content='0'>"


def _site(root: Path, live: str) -> Path:
    images = "".join(f"<img src='{live}/pixel{i}.png' width='1' height='1' alt=''>" for i in range(3))
    pages = {
        FRONT: _page("Front page", "", f"<h1>Front page</h1><a href='/story'>Read the story</a>{images}"),
        REFRESH_SAVED: _page("Refresh to a saved page", _refresh(STORY),
                             "<h1>Refreshing</h1><a href='/story'>Read the story</a>"),
        REFRESH_MISSING: _page("Refresh to a missing page", _refresh(f"{BASE}/not-saved"), "<h1>Missing</h1>"),
        REFRESH_LIVE: _page("Refresh to a live server", _refresh(f"{live}/tracked"), "<h1>Live</h1>"),
        REFRESH_SELF: _page("Refresh of itself", _refresh(""), "<h1>Self</h1>"),
        STORY: _page("The story", "", f"<h1>The story</h1><img src='{live}/story.png' width='1' height='1' alt=''>"),
    }
    root.mkdir(parents=True)
    for i, (url, html) in enumerate(pages.items()):
        write_mhtml(root / f"page{i}.mhtml", html, url=url)
    build_site(root)
    return root


def _wait_for(condition, timeout_s: float = 30.0) -> bool:  # noqa: ANN001 - a callable
    for _ in range(int(timeout_s * 50)):
        if condition():
            return True
        spin(20)
    return condition()


def test_a_saved_pages_refresh_is_not_followed_but_a_persons_click_is(qapp, tmp_path) -> None:
    with loopback.serve(_Live) as live:
        window = AgentWindow(site=_site(tmp_path / "site", loopback.base_url(live)))
        said: list[str] = []
        window.browser.message.connect(said.append)
        try:
            window.show()
            browser = window.browser
            for url in (REFRESH_MISSING, REFRESH_LIVE, REFRESH_SELF):
                said.clear()
                browser.open(url, fresh=True)
                assert browser.wait_until_loaded()
                assert _wait_for(lambda: any(SAID in m for m in said)), (url, said)
                spin(1000)  # a refresh followed would have shown another page by now
                assert browser.url == url and browser.in_site, (url, browser.url)
                assert window.statusBar().currentMessage().startswith("this page tried to ")
                assert len([m for m in said if SAID in m]) == 1  # said once
            assert f"reload itself {SAID}" in said[-1]

            # While a person records a trajectory: the refresh changes nothing, their click leaves the page.
            said.clear()
            window.recorder.start(start_url=REFRESH_SAVED)
            assert _wait_for(lambda: any(f"tried to go to {STORY} {SAID}" in m for m in said)), said
            spin(1000)
            assert browser.url == REFRESH_SAVED and not window.recorder.trajectory.steps
            click(browser, element(browser.mark(), "Read the story"))
            browser.settle()
            assert browser.url == STORY and browser.run_js("document.title") == "The story"
            trajectory = window.recorder.stop()
            assert [step.action for step in trajectory.steps] == ["click"]
        finally:
            window.close()
    assert live.requests == []  # the live server heard of none of it


def test_the_blocked_count_is_the_page_on_show(qapp, tmp_path) -> None:
    with loopback.serve(_Live) as live:
        window = AgentWindow(site=_site(tmp_path / "site", loopback.base_url(live)))
        counts: list[int] = []
        window.browser.blocked_count_changed.connect(counts.append)
        try:
            window.show()
            browser = window.browser
            browser.open(FRONT, fresh=True)  # three images on the live server
            assert browser.wait_until_loaded()
            assert _wait_for(lambda: browser.blocked_count == 3)
            counts.clear()
            click(browser, element(browser.mark(), "Read the story"))  # a page of one image
            browser.settle()
            assert browser.url == STORY
            assert _wait_for(lambda: counts)
            spin(500)
            assert browser.blocked_count == 1 and counts[-1] == 1
            assert window.statusBar().currentMessage() == "1 request(s) blocked on this page"
            assert browser.blocked_urls == [f"{loopback.base_url(live)}/story.png"]
        finally:
            window.close()
    assert live.requests == []
