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


@pytest.mark.parametrize("delay", [0, 2])  # the refresh at once, and 2 s after the page's own requests
def test_the_status_bar_says_both_the_refused_refresh_and_the_blocked_requests(qapp: QApplication, tmp_path: Path,
                                                                               delay: int) -> None:
    with loopback.serve(_Live) as live:
        live_url = loopback.base_url(live)
        window = AgentWindow(site=_site(tmp_path / "site", live_url))
        bar, browser = window.statusBar(), window.browser
        # The bar's whole message (it may draw only its start and "…", and then a new count can change nothing it
        # draws) each time the window has said the page's note, and each time the bar changes ("" when cleared)
        said: list[str] = []
        noted: list[float] = []  # when the window said the page's note: each time restarts the message's timer

        def note(_: object) -> None:  # after the window's own slot, connected before
            noted.append(time.monotonic())
            said.append(bar.currentMessage())

        for signal in (browser.message, browser.blocked_count_changed):
            signal.connect(note)
        bar.messageChanged.connect(lambda _shown: said.append(bar.currentMessage()))
        try:
            window.show()
            browser.open(f"{BASE}/refresh-{delay}", fresh=True)
            assert browser.wait_until_loaded()
            assert _wait_for(lambda: bool(said) and REFUSED in said[-1]
                             and "3 request(s) blocked on this page" in said[-1]), said  # both, in the last line said

            # One more request after the refusal (as an image a hover shows would make): added from outside, since
            # the page's own scripts are off
            browser.run_js(f"document.body.appendChild(Object.assign(document.createElement('img'), "
                           f"{{src: '{live_url}/late.png'}})) && 1")
            assert _wait_for(lambda: "4 request(s) blocked on this page" in said[-1]), said
            seen = len(said)
            assert REFUSED in said[-1], said[-1]
            # The late event is the message's own timer clearing the bar: until then nothing may replace the line,
            # and it comes no sooner than the refusal's 8 s (a bare count's 4 s would cut the refusal short).
            assert _wait_for(lambda: said[-1] == "", timeout_s=30.0), said
            cleared = time.monotonic()
            assert all(REFUSED in m for m in said[seen - 1:-1]), said[seen - 1:]
            assert cleared - noted[-1] >= 6.0, cleared - noted[-1]  # QTimer may fire a little early (coarse)
            assert browser.url == f"{BASE}/refresh-{delay}"
        finally:
            window.close()
    assert live.requests == []
