""""Save this page to the site" keeps the page's hidden form fields and `hidden` elements: Chromium's MHTML
writer leaves them out, so a page of the site re-saved in the site browser lost them, and its form then sent
without them (resources/js/keep_hidden.js, core/agent/hidden_fields.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.agent.site_browser import SiteBrowser
from recordlens.core.agent.sites import build_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.page.mhtml_writer import write_mhtml
from recordlens.core.page.snapshot import read_snapshot

pytestmark = pytest.mark.app

URL = "https://shop.example.org/chair"
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Chair</title></head><body>
<p hidden>Voucher code: OAK4711</p>
<form action="/cart"><input type="hidden" name="add" value="3"><button>Add to cart</button></form>
</body></html>"""


def test_a_re_saved_page_keeps_its_hidden_fields(qtbot, tmp_path: Path) -> None:
    write_mhtml(tmp_path / "chair.mhtml", PAGE, url=URL)
    browser = SiteBrowser(build_site(tmp_path))
    qtbot.addWidget(browser)
    try:
        browser.open(URL)
        assert browser.wait_until_loaded()
        saved = browser.save_page()
    finally:
        browser.dispose()
    html = read_snapshot(saved).html
    assert "Voucher code: OAK4711" in html
    assert 'data-recordlens-type="hidden"' in html and 'name="add"' in html
    text = HtmlSiteBrowser(build_site(tmp_path))
    text.open(URL)
    assert [e.name for e in text.observe().elements] == ["Add to cart"]
    assert "Voucher" not in text.observe().text
