"""On a page whose own refresh the site browser refused and whose requests it blocked, the agent window's status bar
says both in one message, whichever came first: the blocked count used to replace the refusal (or the refusal the
count, when the refresh came later), so the person never saw both. A request the page makes after the refusal says
the line again, and it then stays until its own timer clears it, as long as the refusal alone would (8 s, not a bare
count's 4 s), with nothing replacing it meanwhile."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from recordlens.annotator.agent.window import AgentWindow
from recordlens.annotator.qt.event_loop import spin
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import write_mhtml
from tests import loopback

pytestmark = pytest.mark.app

BASE = "https://news.example.net"
STORY = f"{BASE}/story"
REFUSED = "this page tried to go to https://news.example.net/story by itself (a refresh or redirect in it); it stays"


class _Live(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        self.send(200, b"")


def _site(root: Path, live: str) -> Path:
    images = "".join(f"<img src='{live}/pixel{i}.png' width='1' height='1' alt=''>" for i in range(3))
    pages = {f"{BASE}/refresh-{delay}": f"<!DOCTYPE html><html><head><meta http-equiv='refresh' "
                                        f"content='{delay};url={STORY}'><title>Refresh</title></head>"
                                        f"<body><h1>Refresh in {delay} s</h1>{images}</body></html>"
             for delay in (0, 2)}
    pages[STORY] = "<!DOCTYPE html><html><head><title>The story</title></head><body><h1>Story</h1></body></html>"
    root.mkdir(parents=True)
    for i, (url, html) in enumerate(pages.items()):
        write_mhtml(root / f"page{i}.mhtml", html, url=url)
    build_site(root)
    return root


def _wait_for(condition: Callable[[], bool], timeout_s: float = 30.0) -> bool:
    for _ in range(int(timeout_s * 50)):
        if condition():
            return True
        spin(20)
    return condition()


class _Shown:
    """A window on one refresh page (its own site, browser and status bar), and what its bar said: the bar's whole
    message (it may draw only its start and "…", and then a new count can change nothing it draws) each time the
    window has said the page's note, and each time the bar changes ("" when cleared), with when."""

    def __init__(self, root: Path, live_url: str, delay: int) -> None:
        self.url = f"{BASE}/refresh-{delay}"
        self.window = AgentWindow(site=_site(root, live_url))
        self.bar, self.browser = self.window.statusBar(), self.window.browser
        self.said: list[str] = []
        self.said_at: list[float] = []
        self.noted: list[float] = []  # when the window said the page's note: each time restarts the message's timer
        for signal in (self.browser.message, self.browser.blocked_count_changed):
            signal.connect(self._note)  # after the window's own slot, connected before
        self.bar.messageChanged.connect(lambda _shown: self._say())

    def _say(self) -> None:
        self.said.append(self.bar.currentMessage())
        self.said_at.append(time.monotonic())

    def _note(self, _: object) -> None:
        self.noted.append(time.monotonic())
        self._say()


def test_the_status_bar_says_both_the_refused_refresh_and_the_blocked_requests(qapp: QApplication,
                                                                               tmp_path: Path) -> None:
    """The refresh at once, and 2 s after the page's own requests: each in a window of its own, side by side (each
    waits for its message's timer)."""
    with loopback.serve(_Live) as live:
        live_url = loopback.base_url(live)
        shown: list[_Shown] = []
        try:
            for delay in (0, 2):  # one at a time: a window made is closed below even if the next fails to be made
                shown.append(_Shown(tmp_path / f"site-{delay}", live_url, delay))
            for one in shown:
                one.window.show()
                one.browser.open(one.url, fresh=True)
            for one in shown:
                assert one.browser.wait_until_loaded(), one.url
            for one in shown:
                said = one.said
                assert _wait_for(lambda said=said: bool(said) and REFUSED in said[-1]
                                 and "3 request(s) blocked on this page" in said[-1]), said  # both, in the last line
            seen = []
            for one in shown:
                # One more request after the refusal (as an image a hover shows would make): added from outside,
                # since the page's own scripts are off
                said = one.said
                one.browser.run_js(f"document.body.appendChild(Object.assign(document.createElement('img'), "
                                   f"{{src: '{live_url}/late.png'}})) && 1")
                assert _wait_for(lambda said=said: "4 request(s) blocked on this page" in said[-1]), said
                seen.append(len(said))
                assert REFUSED in said[-1], said[-1]
            for one, at in zip(shown, seen, strict=True):
                # The late event is the message's own timer clearing the bar: until then nothing may replace the
                # line, and it comes no sooner than the refusal's 8 s (a bare count's 4 s would cut the refusal
                # short). When it came is taken as the bar said it.
                said = one.said
                assert _wait_for(lambda said=said: said[-1] == "", timeout_s=30.0), said
                cleared = one.said_at[-1]
                assert all(REFUSED in m for m in said[at - 1:-1]), said[at - 1:]
                assert cleared - one.noted[-1] >= 6.0, cleared - one.noted[-1]  # QTimer may fire a little early
                assert one.browser.url == one.url
        finally:
            for one in shown:
                one.window.close()
    assert live.requests == []
