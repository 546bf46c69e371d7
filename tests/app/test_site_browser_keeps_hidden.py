""""Save this page to the site" keeps the page's hidden form fields and `hidden` elements: Chromium's MHTML
writer leaves them out, so a page of the site re-saved in the site browser lost them, and its form then sent
without them (resources/js/keep_hidden.js, core/agent/hidden_fields.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.agent import site_browser
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



BASKET = "https://shop.example.org/basket"
# A frame of the page's own origin (a srcdoc one: the site browser loads no frame from an address) with a form.
FRAMED = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Basket</title></head><body><h1>Basket</h1>
<iframe srcdoc='<form action="/order"><input type="hidden" name="basket" value="B-9021"><button>Order</button></form>'
 width="400" height="200"></iframe></body></html>"""
HOST_TAG = "recordlens-som"  # the set-of-mark layer's element


def layers_on_page(browser: SiteBrowser) -> int:
    return browser.js_json(f"JSON.stringify(document.getElementsByTagName('{HOST_TAG}').length)")


def test_a_re_saved_page_keeps_the_hidden_fields_of_its_frames(qtbot, tmp_path: Path) -> None:
    """The site browser marked the main frame only: a same-origin frame's form lost its hidden field."""
    write_mhtml(tmp_path / "basket.mhtml", FRAMED, url=BASKET)
    browser = SiteBrowser(build_site(tmp_path))
    qtbot.addWidget(browser)
    try:
        browser.open(BASKET)
        assert browser.wait_until_loaded()
        browser.mark()  # the numbers drawn, as while recording
        saved = browser.save_page()
        assert layers_on_page(browser) == 1  # back after the save
    finally:
        browser.dispose()
    frames = [r.data.decode("latin-1") for r in read_snapshot(saved).resources.values() if b"Order" in r.data]
    assert len(frames) == 1
    assert 'data-recordlens-type="hidden"' in frames[0] and "B-9021" in frames[0]


def test_the_numbers_come_back_when_marking_the_hidden_fields_fails(qtbot, tmp_path: Path, monkeypatch) -> None:
    write_mhtml(tmp_path / "basket.mhtml", FRAMED, url=BASKET)
    browser = SiteBrowser(build_site(tmp_path))
    qtbot.addWidget(browser)

    def no_answer(*_: object) -> None:
        raise TimeoutError("JavaScript did not answer within 10000 ms")

    monkeypatch.setattr(site_browser, "keep_hidden", no_answer)
    try:
        browser.open(BASKET)
        assert browser.wait_until_loaded()
        browser.mark()
        assert layers_on_page(browser) == 1
        with pytest.raises(TimeoutError):
            browser.save_page()
        assert layers_on_page(browser) == 1  # the recording's numbers are not left off the page
    finally:
        browser.dispose()
