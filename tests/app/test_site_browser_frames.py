"""A captured page's frames are parts of its MHTML (Chromium writes each as a `cid:` part under the frame's URL): the
site browser shows them, the Qt agent browser's observation has their text, and "Save this page to the site"
writes them again with it. The site browser used to refuse every frame navigation, so such frames stayed empty and
a save wrote them empty over the captured content. A frame pointing to the live web still stays empty, says so in
the page's note, and no request leaves (a 127.0.0.1 server counts them)."""

from __future__ import annotations

from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.annotator.agent.site_browser import SiteBrowser
from recordlens.annotator.qt.event_loop import spin
from recordlens.annotator.qt.page_loader import APPLICATION_WORLD
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import write_mhtml
from recordlens.core.page.snapshot import Resource, read_snapshot
from tests import loopback

pytestmark = pytest.mark.app

BASE = "https://shop.example.org"
PAGE = f"{BASE}/"
FRAME = f"{BASE}/frame.html"
FRAME_ID = "frame-5A7E@mhtml.blink"  # as Chromium names a frame's part
FRAME_TEXT = "Größe frame words"  # not ASCII: the part's own charset decides, as in a capture
SRCDOC_TEXT = "Words of the page's own frame"
DATA_TEXT = "Words of a data frame"
FRAME_HTML = (f'<!DOCTYPE html><html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">'
              f"</head><body><p>{FRAME_TEXT}</p></body></html>")


@pytest.fixture
def live() -> Iterator[ThreadingHTTPServer]:
    with loopback.serve(loopback.CountedHandler) as server:
        yield server


def _site(root: Path, live_url: str) -> Path:
    """One captured page: a frame saved as a part of its MHTML, a frame of the live web that was not saved, and two
    frames whose content is in the page (`srcdoc`, a `data:` URL)."""
    html = ("<!DOCTYPE html><html><head><title>Shop</title></head><body><h1>Main words</h1>"
            f'<iframe src="cid:{FRAME_ID}" width="400" height="120"></iframe>'
            f'<iframe src="{live_url}/live-frame.html" width="400" height="120"></iframe>'
            f'<iframe srcdoc="<p>{SRCDOC_TEXT}</p>" width="400" height="120"></iframe>'
            f'<iframe src="data:text/html,<p>{DATA_TEXT}</p>" width="400" height="120"></iframe></body></html>')
    root.mkdir(parents=True)
    frame = Resource(FRAME, FRAME_ID, "text/html", FRAME_HTML.encode("utf-8"))
    write_mhtml(root / "shop.mhtml", html, url=PAGE, resources=[frame])
    build_site(root)
    return root


def _frame_texts(browser: SiteBrowser) -> list[str]:
    """What each frame of the page on show holds, asked of the frame itself (not through the page)."""
    texts: list[str] = []
    frames = browser.page.mainFrame().children()
    for frame in frames:
        frame.runJavaScript("document.body ? document.body.innerText.trim() : ''", APPLICATION_WORLD, texts.append)
    for _ in range(500):
        if len(texts) == len(frames):
            break
        spin(20)
    return texts


def _open(browser: SiteBrowser, url: str) -> None:
    browser.open(url)
    browser.wait_until_loaded()
    browser.settle()


def test_a_saved_frame_shows_and_a_live_one_stays_empty_with_no_request(qapp, tmp_path, live):
    browser = SiteBrowser(_site(tmp_path / "site", loopback.base_url(live)))
    browser.resize(900, 600)
    browser.show()
    try:
        _open(browser, PAGE)
        assert _frame_texts(browser) == [FRAME_TEXT, "", SRCDOC_TEXT, DATA_TEXT]
        assert "1 frame(s) not in this snapshot left empty" in browser.page_note()
        spin(300)
        assert live.requests == []  # type: ignore[attr-defined]
    finally:
        browser.dispose()


def test_the_agent_browser_sees_the_frame_text(qapp, tmp_path, live):
    with QtSiteBrowser(_site(tmp_path / "site", loopback.base_url(live))) as browser:
        browser.open(PAGE)
        text = browser.observe().text
    assert text.splitlines() == ["Main words", FRAME_TEXT, SRCDOC_TEXT, DATA_TEXT]
    assert live.requests == []  # type: ignore[attr-defined]


def test_saving_the_page_keeps_the_frame_content(qapp, tmp_path, live):
    root = _site(tmp_path / "site", loopback.base_url(live))
    browser = SiteBrowser(root)
    browser.resize(900, 600)
    browser.show()
    try:
        _open(browser, PAGE)
        saved = read_snapshot(browser.save_page())
        frame = next(r for r in saved.resources.values() if r.location == FRAME)
        assert FRAME_TEXT in frame.data.decode("utf-8")
        assert f'src="cid:{frame.content_id}"' in saved.html  # the page still names the part as its frame
        _open(browser, PAGE)  # the file written, shown again
        assert _frame_texts(browser)[0] == FRAME_TEXT
    finally:
        browser.dispose()
    assert live.requests == []  # type: ignore[attr-defined]
