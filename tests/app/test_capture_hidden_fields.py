"""Hidden form fields and `hidden` elements survive `recordlens site capture` and the saver: Chromium's MHTML
writer leaves them out, so the capture followed a form with its hidden fields and saved the result, while offline
the same form went without them to a URL "not in this snapshot" (both browsers). Now a real capture of a page on
127.0.0.1 keeps them (resources/js/keep_hidden.js), still unshown, and submitting the captured form offline, in
core's text browser and in the Qt browser, reaches the page the capture saved for it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.core.agent.sites import Site, load_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.page.snapshot import read_snapshot
from tests.capture_site import captured_with_depth_1
from tests.core.forms_page import steps
from tests.loopback import LoopbackHandler, base_url, serve

pytestmark = pytest.mark.app

PAGE = b"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Oak chair</title></head><body>
<h1>Oak chair</h1>
<p hidden id="voucher">Voucher code: OAK4711</p>
<form action="/cart" method="get">
<input type="hidden" name="add" value="3">
<input type="HIDDEN" name="note" value="one&#10;two">
<input type="hidden" name="token" required>
<input type="hidden" name="_charset_">
<input type="hidden" name="off" value="no" disabled>
<input type="text" name="via" value="page" hidden>
<input type="hidden" name="scripted" id="scripted" value="served">
<label>Quantity <input name="qty" value="1"></label>
<button>Add to cart</button>
</form>
<script>document.getElementById("scripted").value = "by script";</script>
</body></html>"""
# What the live form sends (and so what the capture followed): every named control but the disabled one, a line
# break as CRLF, the charset for `_charset_`, a value a script set as it was set.
CART = "/cart?add=3&note=one%0D%0Atwo&token=&_charset_=UTF-8&via=page&scripted=by+script&qty=1"


class _Handler(LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        parts = urlsplit(self.path)
        if parts.path == "/":
            self.send(200, PAGE)
        elif parts.path == "/cart":
            self.send(200, f"<!DOCTYPE html><html><head><title>Cart</title></head><body><p>In your cart: "
                           f"{parts.query}</p></body></html>".encode())
        else:
            self.send(404, b"<html><body>No such page.</body></html>")


@pytest.fixture(scope="module")
def server() -> Iterator[ThreadingHTTPServer]:
    with serve(_Handler) as httpd:
        yield httpd


@pytest.fixture(scope="module")
def captured(server: ThreadingHTTPServer, tmp_path_factory: pytest.TempPathFactory) -> Site:
    return captured_with_depth_1(base_url(server) + "/", tmp_path_factory.mktemp("capture") / "shop")


def _html_of(site: Site, url: str) -> str:
    path = site.resolve(url)
    assert path is not None, f"{url} is not in the site"
    return read_snapshot(path).html


def test_the_capture_keeps_hidden_fields_and_elements(server: ThreadingHTTPServer, captured: Site) -> None:
    home = base_url(server) + "/"
    html = _html_of(captured, home)
    assert "Voucher code: OAK4711" in html
    assert 'data-recordlens-hidden=""' in html
    for name in ("add", "note", "token", "_charset_", "off", "via", "scripted"):
        assert f'name="{name}"' in html, name
    assert html.count('data-recordlens-type="hidden"') == 6
    assert 'value="by script"' in html
    assert "Cart" in _html_of(captured, base_url(server) + CART)  # the page the capture's submission reached


@pytest.mark.parametrize("which", ["text", "qt"])
def test_the_captured_form_reaches_its_captured_result_offline(qapp, server: ThreadingHTTPServer, captured: Site,
                                                               which: str) -> None:
    home = base_url(server) + "/"
    text = HtmlSiteBrowser(captured)
    text.open(home)
    seen = text.observe()
    assert "Voucher" not in seen.text
    assert [(e.role, e.name) for e in seen.elements] == [("textbox", "Quantity"), ("button", "Add to cart")]
    if which == "text":
        text.perform(steps([("click", "Add to cart", None)], seen)[0])
        assert text.url == base_url(server) + CART
        assert text.observe().title == "Cart"
        return
    with QtSiteBrowser(captured) as browser:
        browser.open(home)
        shown = browser.observe()
        assert "Voucher" not in shown.text
        assert [(e.role, e.name, e.text, e.xpath) for e in shown.elements] == [
            (e.role, e.name, e.text, e.xpath) for e in seen.elements]
        browser.perform(steps([("click", "Add to cart", None)], shown)[0])
        assert browser.url == base_url(server) + CART
        assert browser.browser.in_site
        assert browser.observe().title == "Cart"


def test_the_saver_keeps_hidden_fields_and_elements(server: ThreadingHTTPServer, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "recordlens.annotator.agent.site_saver", base_url(server) + "/",
                           "--site", str(tmp_path / "saved"), "--json", "--timeout", "20"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    html = _html_of(load_site(tmp_path / "saved"), base_url(server) + "/")
    assert "Voucher code: OAK4711" in html
    assert html.count('data-recordlens-type="hidden"') == 6
    assert 'name="via"' in html
