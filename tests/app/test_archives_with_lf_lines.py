"""Archives whose lines end in LF alone (written by hand, by a script, by savers other than a browser): the core
reads them, and Chromium, which splits an archive on CRLF only, showed them as an empty page. The window shows them
as the core read them: the same elements at the same XPaths, clicked into records as any page's."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from recordlens.annotator.qt.page_scripts import browser_dom
from recordlens.core.page import Resource, mhtml_bytes
from tests.app.window_helpers import click, imported_project, open_window, wait_for_labels

pytestmark = pytest.mark.app

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9aw"
                       "AAAABJRU5ErkJggg==")
IMAGE = "http://shop.example.com/dot.png"
SHOP = (
    '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Shop</title>\n'
    "<style>.item { padding: 4px }</style></head><body>\n<h1>Products – café</h1>\n<div class=list>\n"
    + "".join(f'<div class=item><span class=name>Widget {n}</span> <span class=price>${n}0</span></div>\n'
              for n in range(1, 4))
    + f'<img src="{IMAGE}" width=20 height=20>\n'
    + "<p>" + "a long line that quoted-printable breaks softly " * 5 + "</p>\n</body></html>"
)
# As a simple saver writes one: LF lines, a preamble, the page in 8bit.
HAND = (
    'From: <Saved by a script>\nSubject: Notes\nMIME-Version: 1.0\nContent-Type: multipart/related; boundary="XYZ"; '
    'type="text/html"\n\nThis is a multi-part message in MIME format.\n\n--XYZ\n'
    "Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: 8bit\nContent-Location: http://notes.example/\n\n"
    '<html><head><title>Notes</title></head><body><ul><li class="x">One café</li><li class="x">Two</li></ul>'
    '<p id="p">Para</p></body></html>\n--XYZ--\n'
).encode()
WIDGET_2 = "/body[1]/div[1]/div[2]/span[1]"
NOTE_2 = "/body[1]/ul[1]/li[2]"


def shop_archive() -> bytes:
    """The shop as RecordLens writes it (CRLF lines), its image in the archive."""
    return mhtml_bytes(SHOP, url="http://shop.example.com/", date="Mon, 01 Jan 2024 00:00:00 +0000",
                       resources=[Resource(IMAGE, None, "image/png", PNG)])


def shown_xpaths(window) -> list[str]:
    """The rendered page's XPaths, the overlay the window draws over the page left out."""
    return [x for x in browser_dom(window.page_view.offline).xpaths if not x.startswith("/recordlens-overlay")]


def shown_file(window) -> Path:
    return Path(window.page_view.offline.page.url().toLocalFile())


@pytest.mark.parametrize(
    ("archive", "element", "text"),
    [(shop_archive().replace(b"\r\n", b"\n"), WIDGET_2, "Widget 2"), (HAND, NOTE_2, "Two")],
    ids=["written-then-lf", "hand-written"],
)
def test_an_archive_with_lf_lines_shows_the_page_the_core_reads(qtbot, tmp_path: Path, archive: bytes, element: str,
                                                                text: str):
    folder = imported_project(tmp_path, {"html/1.mhtml": archive})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        core = window.page_view.core_page
        assert core is not None and core.resolve(element) is not None
        assert shown_xpaths(window) == core.element_xpaths()
        assert list(browser_dom(window.page_view.offline).text_map.items()) == list(core.text_map.items())
        assert window.page_view.offline.run_js(f"__recordlens.resolve({json.dumps(element)}).textContent") == text
        # A real click on the element the core's XPath names makes a record of that very XPath.
        click(window, element)
        wait_for_labels(qtbot, window, lambda labels: [label.xpaths for label in labels] == [(element,)])
        if element == WIDGET_2:  # the archive's image is shown from the archive, as a CRLF archive's is
            widths = window.page_view.offline.run_js("JSON.stringify(Array.from(document.images, i => i.naturalWidth))")
            assert json.loads(widths) == [1]
        shown = shown_file(window)
    finally:
        window.close()
    assert not shown.exists()  # the copy made for Chromium goes with the window's page


def test_an_archive_with_crlf_lines_is_shown_from_its_own_file(qtbot, tmp_path: Path):
    folder = imported_project(tmp_path, {"html/1.mhtml": shop_archive()})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        assert shown_file(window) == window.page_view.loaded_page.path.resolve()
        assert shown_xpaths(window) == window.page_view.core_page.element_xpaths()
    finally:
        window.close()
