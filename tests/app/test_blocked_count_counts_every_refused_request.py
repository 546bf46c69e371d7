"""The status bar's "N requests blocked" counted only the page's remote requests: a page saved without its files
that names `file:///...`, a protocol-relative `//host/x` (which resolves to the app's own page scheme, since
a page opened from a file has no host) or a relative `b.png` showed "1 request blocked" for five references.
Chromium refused the local ones itself, before the request blocker could count them; now every one reaches
the blocker, which refuses it and counts it, and nothing is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.labelling.page_view import PageView
from recordlens.annotator.qt.page_loader import OfflinePage

pytestmark = pytest.mark.app

PAGE = """<html><head><meta charset="utf-8"><title>R</title><link rel="stylesheet" href="style.css"></head>
<body><h1>Req</h1><img src="https://example.com/x.png"><img src="b.png"><img src="file:///etc/hostname">
<img src="//cdn.example.org/y.png"></body></html>"""
EXPECTED = ("https://example.com/x.png", "file:///etc/hostname", "//cdn.example.org/y.png", "/b.png", "/style.css")


def counted_after_load(qtbot, view: PageView, page: Path) -> int:
    view.open(page)
    assert view.wait_until_loaded(30_000), f"{page} did not load"
    qtbot.waitUntil(lambda: view.blocked_count >= len(EXPECTED), timeout=10_000)
    qtbot.wait(500)  # nothing more arrives late and is counted twice
    return view.blocked_count


def test_every_reference_the_offline_page_refuses_is_counted(qtbot, page_view: PageView, tmp_path: Path) -> None:
    page = tmp_path / "refs.html"
    page.write_text(PAGE, encoding="utf-8")
    counts: list[int] = []
    page_view.blocked_count_changed.connect(counts.append)
    try:
        assert counted_after_load(qtbot, page_view, page) == len(EXPECTED)
    finally:
        page_view.blocked_count_changed.disconnect(counts.append)
    blocked = page_view.offline.blocked_urls
    for reference in EXPECTED:
        assert any(url.endswith(reference) for url in blocked), (reference, blocked)
    assert counts[-1] == len(EXPECTED)  # the status bar's number, as the window hears it


def test_local_references_are_refused_not_read(qtbot, offline_page: OfflinePage) -> None:
    """Letting local URLs reach the blocker must not let them load: a file outside the page stays unread, by an
    element and by injected code alike."""
    offline_page.reset_blocked()
    offline_page.load_html('<iframe src="file:///etc/hostname"></iframe><p>x</p>')
    assert offline_page.wait_until_loaded()
    qtbot.waitUntil(lambda: "file:///etc/hostname" in offline_page.blocked_urls, timeout=10_000)
    assert offline_page.run_js("document.querySelector('iframe').contentDocument === null")
    read = offline_page.run_js("""(() => { try { const request = new XMLHttpRequest();
        request.open('GET', 'file:///etc/hostname', false); request.send(); return request.responseText; }
        catch (error) { return 'refused'; } })()""")
    assert read == "refused"
