"""A 7bit, 8bit or quoted-printable archive part written as raw bytes, as Chromium (QtWebEngine) reads it and as
the app shows it.

Chromium reads such a part line by line (lines end in CRLF): each line that is not UTF-8 it takes as Latin-1 and
re-encodes in UTF-8, then decodes the page in its declared charset (a Shift_JIS page shows as mojibake, a
windows-1252 "Café" as "CafÃ©"), and a 7bit or 8bit part's lines it joins without their breaks ("one\\r\\ntwo"
reads "onetwo", `<p\\r\\nclass=k>` is a <pclass=k> element). The core reads the bytes as written, which is the
text its records hold and the text the user means to label; so the app shows such an archive as the core read it,
and the page on screen, its XPaths and texts are the core's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.annotator.qt.page_scripts import browser_dom
from recordlens.core.page import read_snapshot
from recordlens.core.page.dataset import parse_snapshot
from tests.app.window_helpers import click, imported_project, open_window, wait_for_labels
from tests.core.line_read_archives import CAMERA, CREME, FORECAST, PRIVET, SPLIT_LINES, archive, list_page

pytestmark = pytest.mark.app

JAPANESE = list_page((FORECAST, CAMERA), "shift_jis", "cp932")
RUSSIAN = list_page((PRIVET, "Ёлка"), "windows-1251", "cp1251")
FRENCH = list_page((CREME, "Œuvre"), "windows-1252", "cp1252")
UNDECLARED = list_page((FORECAST + "です。今日は晴れ", CAMERA), None, "cp932")
ONE_LINE = f'<meta charset="utf-8"><ul><li>{FORECAST}</li><li>{CREME}</li></ul>'.encode()
FRAME = list_page((CREME,), "windows-1252", "cp1252").replace(b"\r\n", b"")
WITH_FRAME = b'<html><body><p>x</p><iframe src="http://shop.example/frame.html"></iframe></body></html>'

# Archives Chromium reads otherwise than their bytes say, and archives it reads as written.
OTHERWISE = {
    "shift_jis-8bit": archive(JAPANESE, "8bit"),
    "shift_jis-7bit": archive(JAPANESE, "7bit"),
    "windows-1251-8bit": archive(RUSSIAN, "8bit"),
    "windows-1252-8bit": archive(FRENCH, "8bit"),
    "undeclared-shift_jis-8bit": archive(UNDECLARED, "8bit"),
    "utf-8-8bit-lines-joined": archive(SPLIT_LINES, "8bit"),
    "shift_jis-raw-in-quoted-printable": archive(JAPANESE.replace(b"\r\n", b""), "quoted-printable"),
    "frame-8bit": archive(WITH_FRAME, "binary", frame=FRAME),
}
AS_WRITTEN = {
    "shift_jis-binary": archive(JAPANESE, "binary"),
    "shift_jis-no-header": archive(JAPANESE, None),
    "utf-8-8bit-one-line": archive(ONE_LINE, "8bit"),
    "utf-8-7bit-one-line": archive(ONE_LINE, "7bit"),
}
# A frame's page is not in the main document's XPaths or texts: Chromium's reading of it is not compared here.
MAIN_PAGE_READ_OTHERWISE = {name: data for name, data in OTHERWISE.items() if name != "frame-8bit"}

def written(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "page.mhtml"
    path.write_bytes(data)
    return path


def core_reading(path: Path) -> tuple[list[str], list[tuple[str, str]]]:
    page = parse_snapshot(read_snapshot(path))
    return page.element_xpaths(), list(page.text_map.items())


def browser_reading(page) -> tuple[list[str], list[tuple[str, str]]]:  # noqa: ANN001 - an OfflinePage
    dom = browser_dom(page)
    return [x for x in dom.xpaths if not x.startswith("/recordlens-overlay")], list(dom.text_map.items())


@pytest.mark.parametrize(
    ("data", "otherwise"),
    [*(pytest.param(data, True, id=name) for name, data in MAIN_PAGE_READ_OTHERWISE.items()),
     *(pytest.param(data, False, id=name) for name, data in AS_WRITTEN.items())],
)
def test_chromium_reads_otherwise_exactly_the_archives_the_core_says(offline_page, tmp_path: Path, data: bytes,
                                                                      otherwise: bool):
    """The file opened by Chromium itself: its page differs from the core's exactly when the snapshot says so."""
    path = written(tmp_path, data)
    offline_page.load_mhtml(path)
    assert offline_page.wait_until_loaded(60_000)
    assert (browser_reading(offline_page) != core_reading(path)) is otherwise
    assert read_snapshot(path).chromium_reads_otherwise is otherwise


def test_chromium_shows_an_8bit_shift_jis_page_as_mojibake(offline_page, tmp_path: Path):
    offline_page.load_mhtml(written(tmp_path, archive(JAPANESE, "8bit")))
    assert offline_page.wait_until_loaded(60_000)
    shown = offline_page.run_js("document.querySelector('li').textContent")
    # its bytes as Latin-1, in UTF-8, read as Shift_JIS
    assert shown == FORECAST.encode("cp932").decode("latin-1").encode().decode("cp932", "replace")
    assert shown != FORECAST


@pytest.mark.parametrize("data", [pytest.param(data, id=name) for name, data in {**OTHERWISE, **AS_WRITTEN}.items()])
def test_the_page_view_shows_the_page_the_core_reads(page_view, tmp_path: Path, data: bytes):
    path = written(tmp_path, data)
    page_view.open(path)
    assert page_view.wait_until_loaded(60_000)
    assert browser_reading(page_view.offline) == core_reading(path)


def frame_text(qtbot, offline) -> str:  # noqa: ANN001 - an OfflinePage
    """The text of the page's first frame, read in it (a frame of an archive is sandboxed from its page)."""
    frame = offline.page.mainFrame().children()[0]
    answer: list[str] = []
    frame.runJavaScript("document.body.textContent", 1, answer.append)  # 1: the ApplicationWorld
    qtbot.waitUntil(lambda: bool(answer), timeout=30_000)
    return answer[0]


def test_a_frame_s_8bit_part_is_shown_as_the_core_reads_it(qtbot, offline_page, page_view, tmp_path: Path):
    path = written(tmp_path, OTHERWISE["frame-8bit"])
    offline_page.load_mhtml(path)
    page_view.open(path)
    assert offline_page.wait_until_loaded(60_000) and page_view.wait_until_loaded(60_000)
    assert frame_text(qtbot, offline_page) == CREME.encode("cp1252").decode("latin-1").encode().decode("cp1252")
    assert frame_text(qtbot, page_view.offline) == CREME


def test_an_8bit_shift_jis_archive_is_labelled_as_shown(qtbot, tmp_path: Path):
    folder = imported_project(tmp_path, {"html/1.mhtml": archive(JAPANESE, "8bit")})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        element = "/body[1]/ul[1]/li[2]"
        shown = window.page_view.offline.run_js(f"__recordlens.resolve({json.dumps(element)}).textContent")
        assert shown == CAMERA == window.page_view.core_page.text_map[element]
        click(window, element)
        wait_for_labels(qtbot, window, lambda labels: [label.xpaths for label in labels] == [(element,)])
    finally:
        window.close()
