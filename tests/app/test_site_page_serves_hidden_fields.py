"""A captured page's hidden form fields are served to the Qt site browser as they were on the live page: the
capture keeps each as an unshown checked checkbox (Chromium's MHTML writer drops hidden fields), which Chromium
took for the control a `<label>` around it names, so the field after it lost its label, and a click on the label's
text unchecked the kept field, whose value the form then no longer sent. Saved again, the page keeps them."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.core.agent.sites import build_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.page.mhtml_writer import write_mhtml
from recordlens.core.page.snapshot import read_snapshot
from tests.core.forms_page import steps

pytestmark = pytest.mark.app

URL = "https://shop.example.org/chair"
KEPT = 'type="checkbox" data-recordlens-type="hidden" checked="" style="display: none !important;"'
# As keep_hidden.js leaves a live page's `<label><input type=hidden ...><input type=checkbox ...> Gift wrap</label>`
PAGE = f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>Chair</title></head><body>
<p data-recordlens-hidden="" style="display: none !important;">Voucher code: OAK4711</p>
<form action="/cart"><label><input name="gift" value="0" {KEPT}><input type="checkbox" name="gift" value="1">
Gift wrap</label><button>Add to cart</button></form>
</body></html>"""
CART = "https://shop.example.org/cart?gift=0&gift=1"


def test_kept_hidden_fields_are_served_as_they_were_live(qapp, tmp_path: Path) -> None:
    write_mhtml(tmp_path / "chair.mhtml", PAGE, url=URL)
    write_mhtml(tmp_path / "cart.mhtml", "<html><head><title>Cart</title></head><body>ok</body></html>", url=CART)
    site = build_site(tmp_path)
    text = HtmlSiteBrowser(site)
    text.open(URL)
    seen = text.observe().elements
    with QtSiteBrowser(site) as browser:
        browser.open(URL)
        shown = browser.observe().elements
        assert [(e.role, e.name, e.xpath) for e in shown] == [(e.role, e.name, e.xpath) for e in seen]
        assert [e.name for e in shown] == ["Gift wrap", "Add to cart"]
        for step in steps([("click", "Gift wrap", None), ("click", "Add to cart", None)], shown):
            browser.perform(step)
            text.perform(step)
        assert browser.url == text.url == CART
        browser.open(URL)
        saved = browser.browser.save_page()
    html = read_snapshot(saved).html
    assert html.count('data-recordlens-type="hidden"') == 1 and "Voucher code: OAK4711" in html
