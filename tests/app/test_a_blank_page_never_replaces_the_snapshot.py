"""A saved page on show is never replaced by an empty one. Chromium goes to `about:blank` (a link to it clicked, a
form sent to it, a `<meta http-equiv=refresh>` or a script going there) without asking the navigation guard, so
the offline page used to show nothing from then on, and what followed (records drawn, an agent's observation)
acted on an empty page that passed for the snapshot. The snapshot is put back, and the navigation is counted as
refused as any other the guard refuses; a page that keeps going there by itself (its refresh) is put back once,
not reloaded in a loop."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QUrl

from recordlens.annotator.agent.site_browser import SiteBrowser
from recordlens.annotator.labelling.page_view import PageView
from recordlens.annotator.qt.event_loop import spin
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.app.agent_helpers import click, element, shown_browser
from tests.app.page_helpers import click_at

pytestmark = pytest.mark.app

TITLE = "Kitchen shop"
LINK = "/body[1]/p[1]/a[1]"
ITEM = "/body[1]/ul[1]/li[1]"
BODY = ("<p><a href='about:blank' style='display:inline-block;width:200px;height:40px'>Start afresh</a></p>"
        "<ul><li>Cast-iron pan</li><li>Chef's knife</li></ul>")
SETTLE_MS = 1500  # time for a click, a refresh and any load they bring about to happen, on a busy machine


def _page(head: str = "") -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'>{head}<title>{TITLE}</title></head>"
            f"<body style='margin:0;font:18px sans-serif'>{BODY}</body></html>")


def _on_show(view: PageView, url: QUrl) -> None:
    """The snapshot is what the view shows, its record drawn on it, and its emptying counted as refused."""
    spin(SETTLE_MS)
    assert view.wait_until_loaded()
    assert view.offline.page.url() == url
    assert view.offline.run_js("document.title") == TITLE
    assert "about:blank" in view.offline.refused_navigations
    assert view.wait_until_drawn().resolved == 1


@pytest.fixture
def saved(tmp_path: Path, request) -> Path:
    """The page as a file of the kind asked for (HTML, or MHTML as saved pages mostly are)."""
    if request.param == "html":
        path = tmp_path / "shop.html"
        path.write_text(_page(), encoding="utf-8")
        return path
    return write_mhtml(tmp_path / "shop.mhtml", _page(), url="https://kitchen-shop.example.com/")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("saved", ["html", "mhtml"], indirect=True)
def test_a_click_on_a_link_to_about_blank_leaves_the_snapshot_on_show(qtbot, page_view: PageView,
                                                                        saved: Path) -> None:
    page_view.open(saved)
    assert page_view.wait_until_loaded()
    url = page_view.offline.page.url()
    page_view.show_records([{"xpaths": [ITEM]}])
    page_view.wait_until_drawn()
    page_view.set_annotating(False)  # the page gets the click, as it does with annotating off
    try:
        assert click_at(page_view, LINK) == LINK
        _on_show(page_view, url)
    finally:
        page_view.set_annotating(True)


@pytest.mark.timeout(120)
def test_a_script_going_to_about_blank_leaves_the_snapshot_on_show(page_view: PageView, tmp_path: Path) -> None:
    (tmp_path / "shop.html").write_text(_page(), encoding="utf-8")
    page_view.open(tmp_path / "shop.html")
    assert page_view.wait_until_loaded()
    url = page_view.offline.page.url()
    page_view.show_records([{"xpaths": [ITEM]}])
    page_view.wait_until_drawn()
    page_view.offline.run_js("location = 'about:blank'; true")
    _on_show(page_view, url)


@pytest.mark.timeout(120)
def test_a_refresh_to_about_blank_is_refused_once_not_reloaded_in_a_loop(page_view: PageView, tmp_path: Path) -> None:
    # Not at once: a refresh due as the load ends may be dropped by Chromium (the page then stays as it is).
    (tmp_path / "shop.html").write_text(_page("<meta http-equiv='refresh' content='0.3; url=about:blank'>"),
                                        encoding="utf-8")
    refused_before = page_view.offline.refused_navigations.count("about:blank")
    loads: list[bool] = []
    page_view.loaded.connect(loads.append)
    try:
        page_view.open(tmp_path / "shop.html")
        assert page_view.wait_until_loaded()
        url = page_view.offline.page.url()
        page_view.show_records([{"xpaths": [ITEM]}])
        _on_show(page_view, url)
        spin(SETTLE_MS)
    finally:
        page_view.loaded.disconnect(loads.append)
    assert page_view.offline.page.url() == url and page_view.offline.run_js("document.title") == TITLE
    assert page_view.offline.refused_navigations.count("about:blank") == refused_before + 1
    assert loads == [True, True]  # the page, then the page put back: once


HOME = "https://kitchen-shop.example.com/"


@pytest.fixture(scope="module")
def browser(qapp, tmp_path_factory):
    root = tmp_path_factory.mktemp("blank-link") / "site"
    root.mkdir()
    write_mhtml(root / "home.mhtml", _page(), url=HOME)
    build_site(root)
    yield from shown_browser(root, (900, 600))


@pytest.mark.timeout(120)
def test_the_site_browser_keeps_its_page_after_a_click_on_a_link_to_about_blank(browser: SiteBrowser) -> None:
    browser.open(HOME, fresh=True)
    browser.settle()
    click(browser, element(browser.mark(), "Start afresh"))
    browser.settle()
    spin(SETTLE_MS)
    browser.settle()
    assert browser.url == HOME and browser.in_site
    assert browser.run_js("document.title") == TITLE
    assert "about:blank" in browser.offline.refused_navigations
    seen = browser.observe()  # what an agent is shown next: the page, not an empty one
    assert seen.title == TITLE and "Cast-iron pan" in seen.text
    assert [e.name or e.text for e in seen.elements] == ["Start afresh"]
