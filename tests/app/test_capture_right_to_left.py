"""`recordlens site capture`'s screenshot of a page written right to left, served on 127.0.0.1 and captured with the
real command. A page whose root is RTL (`<html dir="rtl">`, or `dir="rtl"` on its body) lost its right-hand 155 px,
where its lines start, in a screenshot of the view's size (Chromium's captureBeyondViewport draws it shifted
there), while its meta.json said the screenshot was whole; a page wider than the view kept its left-hand side, where
its lines end. Each page holds a box as wide as the view with a blue left and a red right border: both must be in
the screenshot, at its edges. Pages written left to right keep the screenshot they had (no scrollbar in it either)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from PySide6.QtGui import QColor, QImage

from recordlens.core.agent.sites import load_site
from tests import loopback
from tests.capture_site import capture_argv
from tests.loopback import base_url

pytestmark = pytest.mark.app

VIEW = (1920, 1080)  # the capture's default viewport: the size at which the RTL screenshot was cut
BORDER = 20
ROW = 50  # a row of the screenshot that crosses the box
BOX = (f'<div style="border-left:{BORDER}px solid #00f;border-right:{BORDER}px solid #f00;height:100px;'
       'font-size:40px">START 12345 END</div><p>שלום עולם, זוהי שורה בעברית</p>')
WIDE = '<div style="width:2500px;height:50px;background:#0a0">wide</div>'  # wider than the view
TALL = '<div style="height:3000px">tall</div>'  # taller than the view


def _page(html_attributes: str, body: str, body_attributes: str = "") -> bytes:
    return (f'<!DOCTYPE html><html{html_attributes}><head><meta charset="utf-8"><title>t</title></head>'
            f'<body style="margin:0"{body_attributes}>{body}</body></html>').encode()


PAGES = {
    "/rtl": _page(' dir="rtl"', BOX),
    "/rtl-body": _page("", BOX, ' dir="rtl"'),
    "/rtl-tall": _page(' dir="rtl"', BOX + TALL),
    "/rtl-wide": _page(' dir="rtl"', BOX + WIDE),
    "/rtl-tall-wide": _page(' dir="rtl"', BOX + WIDE + TALL),
    "/rtl-inside": _page("", f'<div dir="rtl">{BOX}</div>'),
    "/ltr": _page("", BOX),
    "/ltr-wide": _page("", BOX + WIDE),
    "/ltr-tall-wide": _page("", BOX + WIDE + TALL),
}


class _Site(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        if path in PAGES:
            self.send(200, PAGES[path])
        else:
            self.send(404, b"<p>no such page</p>")


@pytest.fixture(scope="module")
def captured(tmp_path_factory) -> Iterator[tuple[Path, str]]:
    """Every page captured in one run of the command: (the site's folder, the server's base URL)."""
    folder = tmp_path_factory.mktemp("rtl") / "site"
    with loopback.serve(_Site) as server:
        base = base_url(server)
        done = subprocess.run(capture_argv(*[base + path for path in PAGES], "--site", str(folder), "--json",
                                           "--depth", "0", "--ignore-robots", "--delay", "0", "--timeout", "30",
                                           "--viewport", f"{VIEW[0]}x{VIEW[1]}", SETTLE_MS=50),
                              capture_output=True, text=True, timeout=600)
    assert done.stdout.strip(), done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert not summary["failed"], done.stderr[-3000:]
    yield folder, base


def _screenshot(captured: tuple[Path, str], path: str) -> tuple[QImage, dict]:
    folder, base = captured
    page = load_site(folder).page(base + path)
    image = QImage(str(folder / page.side_file("screenshot")))
    assert not image.isNull(), path
    return image, json.loads((folder / page.side_file("meta")).read_text("utf-8"))


def _columns(image: QImage, colour: QColor) -> list[int]:
    """The columns of `ROW` whose pixel is `colour`."""
    return [x for x in range(image.width()) if QColor(image.pixel(x, ROW)).rgb() == colour.rgb()]


def _assert_both_borders_at_the_edges(image: QImage, path: str) -> None:
    width = image.width()
    assert width == VIEW[0], (path, width)
    assert _columns(image, QColor("#00f")) == list(range(BORDER)), f"{path}: the left border is not at the left edge"
    assert _columns(image, QColor("#f00")) == list(range(width - BORDER, width)), (
        f"{path}: the right border (where a right-to-left line starts) is not at the right edge")


@pytest.mark.parametrize("path", ["/rtl", "/rtl-body", "/rtl-inside"])
def test_a_right_to_left_page_as_tall_as_the_view_is_whole_in_its_screenshot(captured, path: str) -> None:
    image, meta = _screenshot(captured, path)
    assert (image.width(), image.height()) == VIEW
    _assert_both_borders_at_the_edges(image, path)
    assert meta["screenshot_cut"] is False


def test_a_tall_right_to_left_page_is_whole_in_its_screenshot(captured) -> None:
    image, meta = _screenshot(captured, "/rtl-tall")
    assert image.height() == meta["page_height"] > VIEW[1]
    _assert_both_borders_at_the_edges(image, "/rtl-tall")


@pytest.mark.parametrize("path", ["/rtl-wide", "/rtl-tall-wide"])
def test_a_right_to_left_page_wider_than_the_view_is_shown_from_where_its_lines_start(captured, path: str) -> None:
    """Its box fills the view as the view first shows it, at the page's right-hand side; what overflows the view
    lies to its left, where the page's lines end."""
    image, _ = _screenshot(captured, path)
    _assert_both_borders_at_the_edges(image, path)


@pytest.mark.parametrize("path", ["/ltr", "/ltr-wide", "/ltr-tall-wide"])
def test_a_left_to_right_page_is_shown_from_its_left_without_a_scrollbar(captured, path: str) -> None:
    image, _ = _screenshot(captured, path)
    _assert_both_borders_at_the_edges(image, path)
    bottom = image.height() - 1  # where a horizontal scrollbar would be drawn: the page's own white
    assert {QColor(image.pixel(x, bottom)).rgb() for x in range(0, image.width(), 7)} == {QColor("white").rgb()}
