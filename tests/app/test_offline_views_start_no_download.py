"""An Alt+click on a page's `file:` link (the labelling view lets Alt+click through to the page) made Chromium
download the link: the app opened the local file (a folder: its listing), staged a download in ~/Downloads or
/tmp and dropped it, and the blocked count stayed 0. A link marked `download`, a form sent by Alt+click, and a
frame whose address is a file to download started downloads too. A download is fetched past the request
blocker, so none may start in an offline view: each attempt is refused before anything is asked for, and counted
as blocked where its address leaves the snapshot. The folder the links name is watched with inotify: nothing in
it is opened."""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtTest import QTest

from recordlens.annotator.agent.site_browser import SiteBrowser
from recordlens.annotator.labelling.page_view import PageView
from recordlens.annotator.qt.page_loader import OfflinePage
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import write_mhtml
from recordlens.core.page.snapshot import Resource
from tests.app.agent_helpers import shown_browser

pytestmark = [pytest.mark.app, pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify")]

IN_ACCESS, IN_OPEN = 0x01, 0x20
SETTLE_MS = 1_500  # after the click was handled: time for a download Chromium would start anyway to show


@contextmanager
def watching(folder: Path) -> Iterator[Callable[[], bool]]:
    """Whether anything in `folder` (or the folder itself) was opened or read since the block began, by inotify."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    fd = libc.inotify_init1(os.O_NONBLOCK)
    assert fd >= 0 and libc.inotify_add_watch(fd, str(folder).encode(), IN_OPEN | IN_ACCESS) >= 0

    def touched() -> bool:
        try:
            return bool(os.read(fd, 65536))
        except BlockingIOError:  # no event waiting
            return False

    try:
        yield touched
    finally:
        os.close(fd)


@pytest.fixture
def secrets(tmp_path: Path) -> Path:
    folder = tmp_path / "secrets"
    folder.mkdir()
    (folder / "secret.txt").write_text("not for the page", encoding="utf-8")
    return folder


@contextmanager
def downloads_of(offline: OfflinePage) -> Iterator[list[str]]:
    """The addresses of the downloads Chromium starts in the block."""
    started: list[str] = []
    record = lambda request: started.append(request.url().toString())  # noqa: E731
    offline.profile.downloadRequested.connect(record)
    try:
        yield started
    finally:
        offline.profile.downloadRequested.disconnect(record)


def point_of(offline: OfflinePage, selector: str) -> QPoint:
    x, y = json.loads(offline.run_js(f"""JSON.stringify((() => {{
        const r = document.querySelector({json.dumps(selector)}).getClientRects()[0];
        return [r.left + 8, r.top + r.height / 2]; }})())"""))
    return QPoint(round(x), round(y))


def click(qtbot, view, offline: OfflinePage, selector: str, modifier: Qt.KeyboardModifier, *, counted: bool) -> None:
    """A real click on the element, and time for what it starts: a download (and a read), else a blocked address
    when one is `counted`, else nothing."""
    before = len(offline.blocked_urls)
    with downloads_of(offline) as started:
        QTest.mouseClick(view.focusProxy(), Qt.MouseButton.LeftButton, modifier, point_of(offline, selector))
        if counted:
            with suppress(qtbot.TimeoutError):  # the assertions below say what went wrong
                qtbot.waitUntil(lambda: bool(started) or len(offline.blocked_urls) > before, timeout=15_000)
        qtbot.wait(SETTLE_MS)
    assert started == [], f"{selector}: Chromium started a download of {started}"


def file_page(folder: Path) -> str:
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>links</title></head><body>
<p style="font-size:28px"><a id="file" href="{folder.as_uri()}/secret.txt">a local file</a></p>
<p style="font-size:28px"><a id="folder" href="{folder.as_uri()}/">a local folder</a></p>
<form action="{folder.as_uri()}/secret.txt"><input name="q" value="1">
  <button id="send" style="font-size:28px">send</button></form>
<p style="font-size:28px"><a id="named" href="report.bin" download>a file of the page's own</a>
  <a id="inline" href="data:application/octet-stream,inline" download="inline.bin">bytes in the page</a></p>
</body></html>"""


def opened_page(qtbot, page_view: PageView, tmp_path: Path, html: str) -> None:
    page = tmp_path / "page.html"
    page.write_text(html, encoding="utf-8")
    page_view.open(page)
    assert page_view.wait_until_loaded()
    qtbot.wait(300)


def test_alt_click_on_a_file_link_reads_nothing_and_is_counted(qtbot, page_view: PageView, tmp_path: Path,
                                                                 secrets: Path) -> None:
    opened_page(qtbot, page_view, tmp_path, file_page(secrets))
    page_view.set_annotating(True)  # Alt+click goes through to the page while annotating
    counts: list[int] = []
    page_view.blocked_count_changed.connect(counts.append)
    try:
        with watching(secrets) as touched:
            for selector in ("#file", "#folder", "#send"):
                click(qtbot, page_view.view, page_view.offline, selector, Qt.KeyboardModifier.AltModifier,
                      counted=True)
            assert not touched(), "a file of the folder the page links to was opened"
    finally:
        page_view.blocked_count_changed.disconnect(counts.append)
    blocked = page_view.offline.blocked_urls
    assert f"{secrets.as_uri()}/secret.txt" in blocked and f"{secrets.as_uri()}/" in blocked, blocked
    assert page_view.blocked_count == 2  # the form's target is the file's address: one address, counted once
    assert counts[-1] == 2  # as the status bar hears it


def test_a_download_link_starts_no_download_when_clicks_reach_the_page(qtbot, page_view: PageView,
                                                                       tmp_path: Path, secrets: Path) -> None:
    opened_page(qtbot, page_view, tmp_path, file_page(secrets))
    page_view.set_annotating(False)  # every click reaches the page
    try:
        for selector, counted in (("#named", True), ("#inline", False)):
            click(qtbot, page_view.view, page_view.offline, selector, Qt.KeyboardModifier.NoModifier, counted=counted)
    finally:
        page_view.set_annotating(True)
    # The page's own file is not in the snapshot; the data: address is the page's own bytes, which reach nothing.
    assert page_view.offline.blocked_urls == [page_view.offline.page.url().resolved(QUrl("report.bin")).toString()]


def test_a_frame_that_is_a_file_to_download_starts_no_download(qtbot, page_view: PageView,
                                                                 tmp_path: Path) -> None:
    with downloads_of(page_view.offline) as started:
        opened_page(qtbot, page_view, tmp_path, '<h1>frame</h1><iframe src="data:application/zip,PK"></iframe>')
        qtbot.wait(SETTLE_MS)
    assert started == []


SITE_URL = "https://files.example.org/"


@pytest.fixture
def browser(qapp, tmp_path: Path, secrets: Path) -> Iterator[SiteBrowser]:
    """A site of one page: a `file:` link, an archived file to download, and a frame showing another."""
    report = Resource(f"{SITE_URL}report.bin", None, "application/octet-stream", b"\x00report")
    archive = Resource(f"{SITE_URL}frame.zip", None, "application/zip", b"PK\x05\x06" + bytes(18))
    html = f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>files</title></head><body>
<p style="font-size:28px"><a id="file" href="{secrets.as_uri()}/secret.txt">a local file</a></p>
<p style="font-size:28px"><a id="report" href="{SITE_URL}report.bin" download>the report</a></p>
<iframe src="{SITE_URL}frame.zip"></iframe></body></html>"""
    root = tmp_path / "site"
    root.mkdir()
    write_mhtml(root / "files.mhtml", html, url=SITE_URL, resources=[report, archive])
    build_site(root)
    yield from shown_browser(root, (1000, 700))


def test_the_site_browser_starts_no_download(qtbot, browser: SiteBrowser, secrets: Path) -> None:
    with downloads_of(browser.offline) as started, watching(secrets) as touched:
        browser.open(SITE_URL, fresh=True)
        assert browser.wait_until_loaded() and browser.in_site
        qtbot.wait(SETTLE_MS)
        assert started == [], "the archived file in the frame was downloaded"
        click(qtbot, browser.view, browser.offline, "#file", Qt.KeyboardModifier.AltModifier, counted=True)
        click(qtbot, browser.view, browser.offline, "#report", Qt.KeyboardModifier.NoModifier, counted=False)
        assert not touched(), "a file of the folder the page links to was opened"
    # The local file is outside the snapshot; the archived report is the snapshot's own, and stays uncounted.
    assert f"{secrets.as_uri()}/secret.txt" in browser.blocked_urls
    assert not any("report" in url for url in browser.blocked_urls), browser.blocked_urls
    assert browser.url == SITE_URL and browser.in_site


def test_an_archive_counts_no_refused_download_and_a_shadowed_action_is_read_as_the_form_says(
        qtbot, page_view: PageView, tmp_path: Path, secrets: Path) -> None:
    # An MHTML page: Chromium drops its requests before the blocker sees them, so it counts none (README), an
    # Alt+click on a link of its own included; the click is still refused.
    archive = tmp_path / "page.mhtml"
    write_mhtml(archive, """<!DOCTYPE html><html><head><meta charset="utf-8"><title>top</title></head><body>
<p style="font-size:28px"><a id="top" href="#top">to the top</a></p></body></html>""", url=SITE_URL)
    page_view.open(archive)
    assert page_view.wait_until_loaded()
    page_view.set_annotating(True)
    click(qtbot, page_view.view, page_view.offline, "#top", Qt.KeyboardModifier.AltModifier, counted=False)
    assert page_view.offline.blocked_urls == []
    # A form whose control is named "action" shadows the form's property: the address counted is the form's own.
    opened_page(qtbot, page_view, tmp_path, f"""<!DOCTYPE html><html><body>
<form action="{secrets.as_uri()}/secret.txt"><input name="action" value="1">
  <button id="send" style="font-size:28px">send</button></form></body></html>""")
    click(qtbot, page_view.view, page_view.offline, "#send", Qt.KeyboardModifier.AltModifier, counted=True)
    assert page_view.offline.blocked_urls == [f"{secrets.as_uri()}/secret.txt"]
