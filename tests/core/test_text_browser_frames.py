"""Core's text browser reads a captured page's frames as the Qt browser does (annotator/agent/site_browser.py,
`frame_texts`): each frame on show whose document the snapshot holds (a `cid:` part of the page's MHTML, a
`srcdoc`, a `data:` URL) adds its text after the page's, frames inside frames after their own. It used to read no
frame: on such a page the agent saw only the main page's words. A frame of the live web gives no text and is never
fetched (a 127.0.0.1 server counts the requests)."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote

import pytest

from recordlens.core.agent.sites import build_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.page.dataset import parse_snapshot
from recordlens.core.page.dom import parse_html
from recordlens.core.page.frames import frame_document
from recordlens.core.page.mhtml_writer import write_mhtml
from recordlens.core.page.snapshot import Resource, read_snapshot
from tests import loopback

BASE = "https://shop.example.org"
PAGE = f"{BASE}/"
FRAME = f"{BASE}/frame.html"
INNER = f"{BASE}/inner.html"
FRAME_ID = "frame-5A7E@mhtml.blink"  # as Chromium names a frame's part
INNER_ID = "frame-1B2C@mhtml.blink"
FRAME_TEXT = "Größe der Stühle"  # not ASCII, and in windows-1252: only the part's Content-Type says so
INNER_TEXT = "A frame in the frame"
SRCDOC_TEXT = "Words of the page's own frame"
DATA_TEXT = "Words of a data frame"
BASE64_TEXT = "Wörter eines base64-Rahmens"


@pytest.fixture
def live() -> Iterator[ThreadingHTTPServer]:
    with loopback.serve(loopback.CountedHandler) as server:
        yield server


def _site(root: Path, live_url: str) -> Path:
    """One captured page with a frame saved as a part of its MHTML (holding a frame of its own, and one of itself),
    a frame of the live web, a hidden frame, and frames whose content is in the page (`srcdoc`, `data:` URLs)."""
    encoded = base64.b64encode(f"<p>{BASE64_TEXT}</p>".encode()).decode("ascii")
    html = ("<!DOCTYPE html><html><head><title>Shop</title></head><body><h1>Main words</h1>"
            f'<iframe src="cid:{FRAME_ID}"></iframe>'
            f'<iframe src="{live_url}/live-frame.html"></iframe>'
            f'<iframe srcdoc="<p>{SRCDOC_TEXT}</p>" src="{live_url}/ignored.html"></iframe>'
            f'<iframe src="data:text/html,{quote(f"<p>{DATA_TEXT}</p>")}"></iframe>'
            f'<iframe src="data:text/html;charset=utf-8;base64,{encoded}"></iframe>'
            f'<div hidden><iframe src="cid:{INNER_ID}"></iframe></div>'
            "<p>After the frames</p></body></html>")
    frame_html = (f'<html><body><p>{FRAME_TEXT}</p><iframe src="cid:{INNER_ID}"></iframe>'
                  f'<iframe src="cid:{FRAME_ID}"></iframe></body></html>')
    root.mkdir(parents=True)
    resources = [
        Resource(FRAME, FRAME_ID, "text/html; charset=windows-1252", frame_html.encode("cp1252")),
        Resource(INNER, INNER_ID, "text/html", f"<p>{INNER_TEXT}</p>".encode()),
    ]
    write_mhtml(root / "shop.mhtml", html, url=PAGE, resources=resources)
    build_site(root)
    return root


def test_the_page_text_ends_with_each_frame_the_snapshot_holds(tmp_path, live):
    browser = HtmlSiteBrowser(build_site(_site(tmp_path / "site", loopback.base_url(live))))
    browser.open(PAGE)
    seen = browser.observe()
    # The frame that names itself shows itself once more, as in Chromium (one level of self-reference), not forever.
    assert seen.text.splitlines() == ["Main words", "After the frames", FRAME_TEXT, INNER_TEXT, FRAME_TEXT,
                                      INNER_TEXT, SRCDOC_TEXT, DATA_TEXT, BASE64_TEXT]
    assert [e.name for e in seen.elements] == []  # nothing inside a frame is numbered, as in the Qt browser
    assert live.requests == []  # type: ignore[attr-defined]


def test_only_a_frame_of_the_snapshot_has_a_document(tmp_path, live):
    snapshot = read_snapshot(_site(tmp_path / "site", loopback.base_url(live)) / "shop.mhtml")
    frames = [e for e in parse_snapshot(snapshot).elements if e.tag == "iframe"]
    sources = [document.source if (document := frame_document(snapshot, frame, PAGE)) else None for frame in frames]
    assert sources[:3] == [FRAME, None, ""]  # the part, the live web, the srcdoc (which wins over a src)
    page = parse_html('<iframe src="/frame.html"></iframe><iframe src="data:text/plain,words"></iframe>'
                      '<iframe src="data:,words"></iframe><iframe></iframe>')
    found = [frame_document(snapshot, frame, PAGE) for frame in page.elements if frame.tag == "iframe"]
    assert found[0] is not None and FRAME_TEXT in found[0].html  # the part by its location too, as Chromium finds it
    assert found[1:] == [None, None, None]  # no HTML (plain text is no page to read), and about:blank
    frameset = parse_html(f'<html><frameset><frame src="cid:{INNER_ID}"></frameset></html>')
    frame = next(e for e in frameset.elements if e.tag == "frame")
    assert (document := frame_document(snapshot, frame, PAGE)) is not None and INNER_TEXT in document.html
    assert live.requests == []  # type: ignore[attr-defined]
