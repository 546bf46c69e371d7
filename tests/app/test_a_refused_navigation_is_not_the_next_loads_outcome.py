"""A navigation the offline page refused is not the outcome of the load that starts right after it. Qt reports a
refused navigation to a link the system would handle (mailto:, tel:) as a failed load, and it may do so after the
next page's load began: the site browser follows such a link at once, to the "not in this snapshot" page for it.
That late "failed load" used to be taken as the new page's outcome: `loaded(False)` came for a page that loaded,
and `loading` ended (`wait_until_loaded` said False) while the page was still on its way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from recordlens.annotator.agent.site_browser import SiteBrowser
from recordlens.core.agent.sites import NOT_IN_SNAPSHOT_TITLE, build_site
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.app.agent_helpers import shown_browser

pytestmark = pytest.mark.app

HOME = "https://mail-links.example.org/"
ADDRESSES = ["mailto:someone@mail-links.example.org", "tel:+15550123", "mailto:other@mail-links.example.org"]


def _site(root: Path) -> Path:
    links = "".join(f"<p><a href='{address}' style='display:block;height:40px'>{address}</a></p>"
                    for address in ADDRESSES)
    html = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Contact</title></head>"
            f"<body style='margin:0;font:18px sans-serif'>{links}</body></html>")
    root.mkdir(parents=True)
    write_mhtml(root / "home.mhtml", html, url=HOME)
    build_site(root)
    return root


@pytest.fixture(scope="module")
def browser(qapp, tmp_path_factory):
    yield from shown_browser(_site(tmp_path_factory.mktemp("mail-links") / "site"), (900, 600))


@pytest.mark.timeout(180)
@pytest.mark.parametrize("address", ADDRESSES)
def test_the_page_a_refused_link_leads_to_loads_as_one_successful_load(qtbot, browser: SiteBrowser,
                                                                       address: str) -> None:
    browser.open(HOME, fresh=True)
    assert browser.wait_until_loaded()
    browser.settle()
    outcomes: list[bool] = []
    browser.loaded.connect(outcomes.append)
    # While the page it leads to loads, `loading` says so, and a wait for it gives its own outcome.
    waited: list[bool] = []

    def wait_for_it(_url: str) -> None:
        waited.append(browser.wait_until_loaded())

    browser.navigated.connect(wait_for_it)
    try:
        where = browser.js_json(f"JSON.stringify((() => {{ const r = [...document.links].find(a => a.href === "
                                f"{json.dumps(address)}).getBoundingClientRect(); return [r.x + 10, r.y + 10]; }})())")
        QTest.mouseClick(browser.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         QPoint(round(where[0]), round(where[1])))
        qtbot.waitUntil(lambda: browser.url == address and not browser.loading and bool(outcomes),
                        timeout=30_000)
        browser.settle()
    finally:
        browser.loaded.disconnect(outcomes.append)
        browser.navigated.disconnect(wait_for_it)
    assert address in browser.offline.refused_navigations
    assert waited == [True]
    assert outcomes == [True], "the refused link's failed load was taken as the next page's outcome"
    assert not browser.in_site and browser.run_js("document.title") == NOT_IN_SNAPSHOT_TITLE
