"""Core's text browser on a page saved with its hidden fields and `hidden` elements kept (resources/js/
keep_hidden.js: Chromium's MHTML writer drops them, so the capture turns each hidden field into a checked, unshown
checkbox marked `data-recordlens-type="hidden"`, and moves an element's `hidden` into `data-recordlens-hidden`).
The marked fields used to be numbered as checkboxes the agent could click away, and the hidden texts and links were
shown; a plain `hidden` element was shown too. Now they are what they were on the live page: not on show, and the
fields sent with their form as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.agent.hidden_fields import as_served_live, is_hidden, shown_text
from recordlens.core.agent.sites import Site, build_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.page.dom import parse_html
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.core.forms_page import steps

HOME = "https://shop.example.org/chair"
HIDE = 'style="display: none !important;"'
FIELD = f'type="checkbox" data-recordlens-type="hidden" checked="" {HIDE}'
# The page as Chromium writes it after keep_hidden.js (tests/app/test_capture_hidden_fields.py captures a real one).
PAGE = f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>Oak chair</title></head><body>
<h1>Oak chair</h1>
<p id="voucher" data-recordlens-hidden="" {HIDE}>Voucher code: OAK4711 <a href="/secret">secret</a></p>
<div data-recordlens-hidden="until-found" style="content-visibility: hidden !important;">Care: oil yearly</div>
<p hidden>Plain hidden text <a href="/plain">plain</a></p>
<a href="/reviews">Reviews<span data-recordlens-hidden="" {HIDE}> (12 hidden)</span></a>
<form action="/cart" method="get">
<label><input name="add" value="3" {FIELD}><input type="checkbox" name="gift" value="1"> Gift wrap</label>
<input name="note" value="one
two" {FIELD}>
<input name="token" required="" value="" {FIELD}>
<input name="_charset_" value="UTF-8" {FIELD}>
<input type="text" name="via" value="page" data-recordlens-hidden="" {HIDE}>
<label>Quantity <input name="qty" value="1"></label>
<button>Add to cart</button>
</form>
</body></html>"""
CART = "https://shop.example.org/cart?add=3&note=one%0D%0Atwo&token=&_charset_=UTF-8&via=page&qty=2"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    folder: Path = tmp_path_factory.mktemp("hidden")
    write_mhtml(folder / "chair.mhtml", PAGE, url=HOME)
    write_mhtml(folder / "cart.mhtml", "<html><head><title>Cart</title></head><body>In your cart</body></html>",
                url=CART)
    return build_site(folder)


def test_the_kept_hidden_fields_and_elements_are_not_on_show(site: Site) -> None:
    browser = HtmlSiteBrowser(site)
    browser.open(HOME)
    seen = browser.observe()
    assert [(e.role, e.name, e.text) for e in seen.elements] == [
        ("link", "Reviews", "Reviews"), ("checkbox", "Gift wrap", "1"), ("textbox", "Quantity", "1"),
        ("button", "Add to cart", "Add to cart")]
    # The form's labels, fields and button are inline: one line, as the Qt browser lays them out (page_text.py).
    assert seen.text.split("\n") == ["Oak chair", "Care: oil yearly", "Reviews", "Gift wrap Quantity Add to cart"]


def test_a_form_sends_its_kept_hidden_fields_as_the_live_one_did(site: Site) -> None:
    browser = HtmlSiteBrowser(site)
    browser.open(HOME)
    elements = browser.observe().elements
    for step in steps([("type", "Quantity", "2")], elements):  # Enter: the form's submit button
        browser.perform(step)
    assert browser.url == CART
    assert browser.observe().title == "Cart"


def test_hidden_is_read_from_the_attribute_and_from_the_mark() -> None:
    page = parse_html('<div hidden><b>x</b></div><div data-recordlens-hidden="until-found">y<i>z</i></div>'
                      '<p>shown <span hidden>not</span> too</p>')
    bold, italic, paragraph = (next(e for e in page.elements if e.tag == tag) for tag in ("b", "i", "p"))
    assert is_hidden(bold) and is_hidden(italic) and not is_hidden(paragraph)
    assert shown_text(paragraph) == "shown too"
    assert shown_text(page.body) == "y z shown too"


def test_a_deeper_capture_follows_a_saved_page_s_forms_as_the_browsers_send_them(tmp_path: Path) -> None:
    """Run again with a larger --depth, the capture reads the links of the pages saved at the old depth from their
    files: it left their forms out, which the live crawl follows (hidden fields and all)."""
    from recordlens.core.agent.capture import _saved_links

    write_mhtml(tmp_path / "chair.mhtml", PAGE, url=HOME)
    assert _saved_links(tmp_path / "chair.mhtml", HOME) == [
        "https://shop.example.org/secret", "https://shop.example.org/plain", "https://shop.example.org/reviews",
        CART.replace("qty=2", "qty=1")]


def test_served_to_a_browser_the_kept_elements_are_as_they_were_live() -> None:
    """The Qt site browser gets the page as it was (a kept field that is a checkbox takes a label's clicks and name
    from the field after it); its XPaths are the saved page's, and the marks stay for the next save."""
    served = as_served_live(PAGE)
    assert served.count(' type="hidden"') == 4 and 'type="checkbox" data-recordlens' not in served
    assert '<div data-recordlens-hidden="until-found" style="content-visibility: hidden !important;" ' \
           'hidden="until-found">' in served
    assert '<input type="text" name="via" value="page" data-recordlens-hidden="" ' + HIDE + ' hidden="">' in served
    assert served.count("data-recordlens-") == PAGE.count("data-recordlens-")
    assert as_served_live('<a title="x>y" data-recordlens-hidden="a&quot;b"/>') == \
        '<a title="x>y" data-recordlens-hidden="a&quot;b" hidden="a&quot;b"/>'
    assert as_served_live("<p hidden>as it is</p>") == "<p hidden>as it is</p>"
    assert [e.xpath for e in parse_html(served).elements] == [e.xpath for e in parse_html(PAGE).elements]
