"""`recordlens site capture` follows a GET form as clicked on its default button: a named submit button's name and
value are sent, as a browser sends them. The crawler used to submit the form without its button, so offline a click
on "Search" (`<button name="go" value="1">`) went to a URL the capture never saved ("Not in this snapshot"), in
core's text browser and in the Qt browser alike. Now a real capture of a page on 127.0.0.1 saves the page the click
reaches, and clicking the button offline, in both browsers, shows it."""

from __future__ import annotations

from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.core.agent.sites import Site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from tests.capture_site import captured_with_depth_1
from tests.core.forms_page import steps
from tests.loopback import LoopbackHandler, base_url, serve

pytestmark = pytest.mark.app

PAGE = b"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
<h1>Shop</h1>
<form action="/search" method="get">
<label>Query <input type="search" name="q" value="oak"></label>
<button name="go" value="1">Search</button>
<button name="go" value="lucky">Lucky</button>
</form>
<form action="/find" method="get">
<label>Colour <input name="colour" value="red"></label>
<input type="submit" name="action" value="Find">
</form>
<form action="/plain" method="get">
<label>Size <input name="size" value="9"></label>
</form>
</body></html>"""
# Where each click goes: the default (first) button's name and value after the fields, as Chromium sends them.
SEARCH = "/search?q=oak&go=1"
FIND = "/find?colour=red&action=Find"
PLAIN = "/plain?size=9"  # no submit button: Enter sends the form alone, and so does the capture


class _Handler(LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        parts = urlsplit(self.path)
        if parts.path == "/":
            self.send(200, PAGE)
        elif parts.path in ("/search", "/find", "/plain"):
            self.send(200, f"<!DOCTYPE html><html><head><title>Results</title></head><body><p>You asked: "
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


def test_the_capture_saves_what_the_default_button_sends(server: ThreadingHTTPServer, captured: Site) -> None:
    home = base_url(server)
    for path in (SEARCH, FIND, PLAIN):
        assert captured.resolve(home + path) is not None, f"{path} was not captured"
    # The form alone (without its button) and a second button are not what a click on the default button sends.
    for path in ("/search?q=oak", "/search?q=oak&go=lucky", "/find?colour=red"):
        assert captured.resolve(home + path) is None, f"{path} was captured"


@pytest.mark.parametrize("which", ["text", "qt"])
@pytest.mark.parametrize(("button", "path"), [("Search", SEARCH), ("Find", FIND)])
def test_clicking_the_named_button_offline_reaches_the_captured_page(qapp, server: ThreadingHTTPServer,
                                                                    captured: Site, which: str, button: str,
                                                                    path: str) -> None:
    home = base_url(server) + "/"
    text = HtmlSiteBrowser(captured)
    text.open(home)
    seen = text.observe()
    if which == "text":
        text.perform(steps([("click", button, None)], seen)[0])
        assert text.url == base_url(server) + path
        assert text.observe().title == "Results"
        return
    with QtSiteBrowser(captured) as browser:
        browser.open(home)
        browser.perform(steps([("click", button, None)], browser.observe())[0])
        assert browser.url == base_url(server) + path
        assert browser.browser.in_site
        assert browser.observe().title == "Results"
