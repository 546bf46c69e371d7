"""`recordlens-annotator --screenshot` on pages that used to end in exit 2 ("overlays were not drawn"): a page
with no records, an XHTML page saved as MHTML, and HTML with <meta http-equiv=refresh> (a snapshot must never
navigate itself away)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from recordlens.annotator.app import main
from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.store.db import Provenance
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project
from tests.app.window_helpers import keep_app_state_private

pytestmark = pytest.mark.app

LIST = "<ul><li>Camera <b>$399</b></li><li>Lens <b>$129</b></li></ul>"
XHTML = ('<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head>'
         f"<title>XHTML shop</title></head><body>{LIST}</body></html>")
# Not well-formed XML (&nbsp;, an unclosed <br>), as XHTML pages often are, and one without the namespace:
# Chromium's XML parser would show a parser error or its XML viewer instead of the page.
XHTML_BROKEN = XHTML.replace("<b>$399</b>", "&nbsp;<b>$399</b><br>")
XHTML_NO_NAMESPACE = XHTML.replace(' xmlns="http://www.w3.org/1999/xhtml"', "")
REFRESH = ('<html><head><meta http-equiv="refresh" content="0; url=https://elsewhere.example/"><title>Moved'
           f"</title></head><body>{LIST}</body></html>")
RECORDS = [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]"]]


@pytest.fixture(autouse=True)
def private_app_state(monkeypatch, tmp_path: Path) -> None:
    keep_app_state_private(monkeypatch, tmp_path)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "empty.html").write_text(f"<html><head><title>No records</title></head><body>{LIST}</body></html>")
    for name, text in (("xhtml", XHTML), ("xhtml-broken", XHTML_BROKEN), ("xhtml-no-ns", XHTML_NO_NAMESPACE)):
        xhtml = mhtml_bytes(text, url="https://shop.example/x.xhtml")
        (pages / f"{name}.mhtml").write_bytes(xhtml.replace(b"Content-Type: text/html", b"Content-Type: "
                                                            b"application/xhtml+xml", 1))
    (pages / "refresh.html").write_text(REFRESH)
    (pages / "reload.html").write_text(REFRESH.replace("0; url=https://elsewhere.example/", "0"))
    with init_project(tmp_path / "p") as opened:
        report = import_paths(opened, [pages])
        names = ["empty", "refresh", "reload", "xhtml", "xhtml-broken", "xhtml-no-ns"]
        assert sorted(report.imported) == names, report.problems
        for name in names[1:]:
            opened.add_records(name, RECORDS, Provenance.person("test"))
    return tmp_path / "p"


@pytest.mark.timeout(180)
@pytest.mark.parametrize("page", ["empty", "xhtml", "xhtml-broken", "xhtml-no-ns", "refresh", "reload"])
def test_a_screenshot_is_taken(qapp, project: Path, tmp_path: Path, capsys, page: str) -> None:
    shot = tmp_path / f"{page}.png"
    code = main([str(project), "--screenshot", str(shot), "--page", page, "--size", "900x600"])
    assert code == 0, capsys.readouterr().err
    image = QImage(str(shot))
    assert (image.width(), image.height()) == (900, 600)


@pytest.mark.timeout(120)
def test_a_meta_refresh_never_takes_the_page_away(qapp) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    from recordlens.annotator.qt.page_loader import OfflinePage

    with OfflinePage(with_view=True) as page:
        url = page.load_html(REFRESH, "refresh.html")
        assert page.wait_until_loaded()
        loop = QEventLoop()
        QTimer.singleShot(1500, loop.quit)  # time for the refresh to fire
        loop.exec()
        assert page.page.url() == url
        assert page.run_js("document.title") == "Moved"
        assert any("elsewhere.example" in u for u in page.refused_navigations)
