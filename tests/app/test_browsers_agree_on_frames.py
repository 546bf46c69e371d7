"""The two agent browsers read a captured page's frames alike: core's text browser (HtmlSiteBrowser) and the Qt
browser give the same observation text on one page whose frames are a `cid:` part of its MHTML (holding a frame of
its own, and one naming itself), a `srcdoc`, `data:` URLs, a hidden frame and a frame of the live web. The text
browser used to read no frame, so an agent run with `--browser text` saw only the main page's words. Neither
browser asks the live web for anything (a 127.0.0.1 server counts the requests).

A frame of several blocks (a heading, paragraphs, a list, a table) reads with the main page's line rules in both:
the Qt browser once read a frame by innerText, which puts a blank line between paragraphs."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote

import pytest

from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import write_mhtml
from recordlens.core.page.snapshot import Resource
from tests import loopback
from tests.app.agent_helpers import texts_of_both_browsers

pytestmark = pytest.mark.app

BASE = "https://shop.example.org"
PAGE = f"{BASE}/"
FRAME_ID = "frame-5A7E@mhtml.blink"  # as Chromium names a frame's part
INNER_ID = "frame-1B2C@mhtml.blink"
TEXTS = ["Main words", "After the frames", "Größe der Stühle", "A frame in the frame", "Words of the page's own frame",
         "Words of a data frame", "Wörter eines base64-Rahmens"]


@pytest.fixture
def live() -> Iterator[ThreadingHTTPServer]:
    with loopback.serve(loopback.CountedHandler) as server:
        yield server


def _site(root: Path, live_url: str) -> Path:
    main, after, framed, inner, srcdoc, data, encoded = TEXTS
    encoded = base64.b64encode(f"<p>{encoded}</p>".encode()).decode("ascii")
    html = (f"<!DOCTYPE html><html><head><title>Shop</title></head><body><h1>{main}</h1>"
            f'<iframe src="cid:{FRAME_ID}"></iframe>'
            f'<iframe src="{live_url}/live-frame.html"></iframe>'
            f'<iframe srcdoc="<p>{srcdoc}</p>"></iframe>'
            f'<iframe src="data:text/html,{quote(f"<p>{data}</p>")}"></iframe>'
            f'<iframe src="data:text/html;charset=utf-8;base64,{encoded}"></iframe>'
            f'<div hidden><iframe src="cid:{INNER_ID}"></iframe></div>'
            f"<p>{after}</p></body></html>")
    frame_html = (f'<html><body><p>{framed}</p><iframe src="cid:{INNER_ID}"></iframe>'
                  f'<iframe src="cid:{FRAME_ID}"></iframe></body></html>')
    root.mkdir(parents=True)
    resources = [
        Resource(f"{BASE}/frame.html", FRAME_ID, "text/html; charset=windows-1252", frame_html.encode("cp1252")),
        Resource(f"{BASE}/inner.html", INNER_ID, "text/html", f"<p>{inner}</p>".encode()),
    ]
    write_mhtml(root / "shop.mhtml", html, url=PAGE, resources=resources)
    build_site(root)
    return root


def test_both_browsers_give_the_same_text_with_the_frames(qapp, tmp_path, live):
    rendered, read = texts_of_both_browsers(_site(tmp_path / "site", loopback.base_url(live)), PAGE)
    assert read == rendered
    main, after, framed, inner, *in_the_page = TEXTS  # the frame naming itself shows once more, in both
    assert rendered.splitlines() == [main, after, framed, inner, framed, inner, *in_the_page]
    assert live.requests == []  # type: ignore[attr-defined]


BLOCKS = ["Delivery", "Orders ship within two days.", "Returns are free.", "Chairs", "Tables",
          "Opening hours", "Monday to Friday", "Saturday"]
BLOCKS_HTML = ("<h2>{}</h2><p>{}</p><p>{}</p><ul><li>{}</li><li>{}</li></ul>"
               "<table><caption>{}</caption><tr><td>{}</td></tr><tr><td>{}</td></tr></table>").format(*BLOCKS)


def _site_with_blocks(root: Path) -> Path:
    html = (f"<!DOCTYPE html><html><head><title>Shop</title></head><body><h1>{TEXTS[0]}</h1>"
            f'<iframe src="cid:{FRAME_ID}"></iframe><iframe srcdoc="{BLOCKS_HTML}"></iframe>'
            f"<p>{TEXTS[1]}</p></body></html>")
    root.mkdir(parents=True)
    frame_html = f"<html><body>{BLOCKS_HTML}</body></html>"
    write_mhtml(root / "shop.mhtml", html, url=PAGE,
                resources=[Resource(f"{BASE}/frame.html", FRAME_ID, "text/html", frame_html.encode())])
    build_site(root)
    return root


def test_a_frame_of_several_blocks_reads_one_line_a_text_in_both(qapp, tmp_path):
    rendered, read = texts_of_both_browsers(_site_with_blocks(tmp_path / "site"), PAGE)
    assert read == rendered
    assert rendered.splitlines() == [*TEXTS[:2], *BLOCKS, *BLOCKS]  # the part's frame, then the srcdoc's
