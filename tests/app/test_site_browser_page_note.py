"""On a page whose own refresh the site browser refused and whose requests it blocked, the agent window's status bar
says both in one message, whichever came first: the blocked count used to replace the refusal (or the refusal the
count, when the refresh came later), so the person never saw both."""

from __future__ import annotations

from pathlib import Path

import pytest

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


def _wait_for(condition, timeout_s: float = 30.0) -> bool:  # noqa: ANN001 - a callable
    for _ in range(int(timeout_s * 50)):
        if condition():
            return True
        spin(20)
    return condition()


@pytest.mark.parametrize("delay", [0, 2])  # the refresh before the blocked requests, and after them
def test_the_status_bar_says_both_the_refused_refresh_and_the_blocked_requests(qapp, tmp_path, delay) -> None:
    with loopback.serve(_Live) as live:
        window = AgentWindow(site=_site(tmp_path / "site", loopback.base_url(live)))
        said: list[str] = []
        window.statusBar().messageChanged.connect(said.append)
        try:
            window.show()
            browser = window.browser
            browser.open(f"{BASE}/refresh-{delay}", fresh=True)
            assert browser.wait_until_loaded()
            assert _wait_for(lambda: browser.blocked_count == 3 and any(REFUSED in m for m in said)), said
            spin(300)
            shown = window.statusBar().currentMessage()
            assert REFUSED in shown and "3 request(s) blocked on this page" in shown, shown
            assert browser.url == f"{BASE}/refresh-{delay}"
        finally:
            window.close()
    assert live.requests == []
