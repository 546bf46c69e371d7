"""Past 512 open elements Chromium stops nesting; core flattens its tree the same way, so XPaths still agree."""

from __future__ import annotations

import pytest

from recordlens.annotator.qt.page_scripts import browser_dom
from recordlens.core.page.dom import MAX_TREE_DEPTH, parse_html

pytestmark = pytest.mark.app


@pytest.mark.parametrize("html", [
    "<div>" * 700 + "deep<span>x</span>" + "</div>" * 700,
    "<ul><li>" * 300 + "<b>" * 300 + "bold" + "</b>" * 300 + "</li></ul>" * 300,
])
def test_core_and_browser_agree_on_pages_deeper_than_the_parser_limit(offline_page, html: str) -> None:
    offline_page.load_html(html, "deep.html")
    assert offline_page.wait_until_loaded(60_000)
    browser = browser_dom(offline_page)
    core = parse_html(html)
    assert max(x.count("/") for x in core.element_xpaths()) == MAX_TREE_DEPTH
    assert browser.xpaths == core.element_xpaths()
    assert list(browser.text_map.items()) == list(core.text_map.items())
