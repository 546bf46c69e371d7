"""The site browser: links and form GETs stay inside the snapshot, other URLs show the "not in this snapshot"
page, Back follows the site's history, archived resources load, and no request reaches a real HTTP server on
127.0.0.1; "save this page to the site" writes the rendered page as MHTML under its saved URL, offline."""

from __future__ import annotations

import time
from http.server import BaseHTTPRequestHandler

import pytest

from recordlens.annotator.agent.site_browser import SiteBrowser, SiteBrowserError
from recordlens.annotator.qt.event_loop import spin
from recordlens.core.agent.sites import NOT_IN_SNAPSHOT_TITLE, load_site
from recordlens.core.page.snapshot import read_snapshot
from tests.app.agent_helpers import alt_left, click, element, shown_browser, type_text
from tests.app.agent_site import CHAIR, HOME, LAMP, MISSING, SEARCH_LAMP, make_site
from tests.loopback import base_url, serve

pytestmark = pytest.mark.app


class _Counting(BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        type(self).hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(b"<h1>live</h1>")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server():
    with serve(_Counting) as httpd:
        yield f"{base_url(httpd)}/", _Counting.hits


@pytest.fixture(scope="module")
def site(tmp_path_factory, server):
    return make_site(tmp_path_factory.mktemp("site"), server_url=server[0])


@pytest.fixture(scope="module")
def browser(qapp, site):
    yield from shown_browser(site, (1100, 760))


def settled_on(browser: SiteBrowser, url: str, timeout_s: float = 60) -> None:
    """Until the browser shows `url`, then until it settles: on a busy machine the navigation a click asks for may
    start later than `settle`'s quiet time."""
    deadline = time.monotonic() + timeout_s
    while browser.url != url and time.monotonic() < deadline:
        spin(20)
    browser.settle()


def go(browser: SiteBrowser, url: str) -> None:
    browser.open(url, fresh=True)
    assert browser.wait_until_loaded()


def test_links_forms_missing_pages_and_back_stay_offline(browser, server):
    url, hits = server
    go(browser, HOME)
    assert browser.run_js("document.title") == "Shop" and browser.in_site
    # The archived stylesheet and image load from the snapshot (the page's margin, the logo's pixels).
    assert browser.run_js("getComputedStyle(document.body).marginLeft") == "24px"
    assert browser.run_js("document.getElementById('logo').naturalWidth") == 1
    seen = browser.mark()
    assert [e.label for e in seen.elements] == list(range(1, len(seen.elements) + 1))

    click(browser, element(seen, "Desk lamp"))  # a relative link to a saved page
    settled_on(browser, LAMP)
    assert browser.url == LAMP and browser.run_js("document.title") == "Desk lamp"

    alt_left(browser)  # the keyboard's Back: the site's history, not Chromium's
    settled_on(browser, HOME)
    assert browser.url == HOME

    click(browser, element(browser.mark(), "About us"))  # a link the snapshot does not hold
    settled_on(browser, MISSING)
    assert browser.url == MISSING and not browser.in_site
    assert browser.run_js("document.title") == NOT_IN_SNAPSHOT_TITLE
    assert MISSING in browser.run_js("document.body.innerText")

    assert browser.back() and browser.url == HOME
    browser.settle()
    click(browser, element(browser.mark(), "Partner"))  # a link to the live server: shown as missing
    settled_on(browser, f"{url}probe")
    assert browser.url == f"{url}probe" and not browser.in_site

    go(browser, HOME)
    # The home page's tracker image on the live server was asked for (and refused) on this visit too; the list is
    # the page's on show, started again with each page.
    assert browser.blocked_urls == [f"{url}tracker.png"]
    type_text(browser, element(browser.mark(), "Search"), "desk lamp")  # the form's GET, inside the site
    settled_on(browser, SEARCH_LAMP)
    assert browser.url == SEARCH_LAMP and browser.run_js("document.title") == "Search: desk lamp"
    assert browser.history == [HOME, SEARCH_LAMP]

    browser.open(CHAIR)
    browser.settle()
    assert browser.url == CHAIR and browser.blocked_urls == []  # the chair's page asks for nothing outside
    assert hits == []  # the server never heard of any of it


def test_save_this_page_rewrites_it_into_the_site_offline(browser, site):
    go(browser, HOME)
    browser.run_js("document.querySelector('h1').append(' (re-saved)')")  # what is saved is the page as shown
    path = browser.save_page()
    assert path == site.root / "home.mhtml"
    saved = read_snapshot(path)
    assert saved.url == HOME
    assert "(re-saved)" in saved.html and "data-recordlens-base" not in saved.html
    assert "recordlens-page:" not in saved.html
    assert {"https://shop.example.com/static/site.css", "https://shop.example.com/static/logo.png"} <= set(
        saved.resources)
    assert load_site(site.root).resolve(HOME) == path  # re-indexed
    go(browser, HOME)  # and it opens again, resources and all
    assert "(re-saved)" in browser.run_js("document.querySelector('h1').textContent")
    assert browser.run_js("getComputedStyle(document.body).marginLeft") == "24px"

    browser.open(MISSING)
    browser.wait_until_loaded()
    with pytest.raises(SiteBrowserError, match="not in the snapshot"):
        browser.save_page()


def test_a_link_to_a_place_on_the_page_on_show_scrolls_but_dir_slash_is_another_page(tmp_path) -> None:
    from types import SimpleNamespace

    from recordlens.core.agent.sites import Site, SitePage

    both = Site(tmp_path, "s", [SitePage("https://x.org/dir", "a.mhtml"), SitePage("https://x.org/dir/", "b.mhtml")])
    on_dir = SimpleNamespace(site=both, _url="https://x.org/dir")
    assert SiteBrowser._same_page(on_dir, "https://x.org/dir#part")
    assert not SiteBrowser._same_page(on_dir, "https://x.org/dir/#part")  # the other saved page: opened
    one = Site(tmp_path, "s", [SitePage("https://x.org/dir/", "b.mhtml")])  # /dir is /dir/ to a link here
    assert SiteBrowser._same_page(SimpleNamespace(site=one, _url="https://x.org/dir/"), "https://x.org/dir#part")


def test_a_site_opened_without_a_task_starts_where_its_capture_began(tmp_path) -> None:
    from types import SimpleNamespace

    from recordlens.core.agent.sites import Site, SitePage

    pages = [SitePage("https://x.org/about.html", "a.mhtml"), SitePage("https://x.org/index.html", "i.mhtml",
                                                                       aliases=("https://x.org/",))]
    captured = Site(tmp_path, "s", pages, start="https://x.org/")  # the root redirected to /index.html
    assert SiteBrowser.start_page(SimpleNamespace(site=captured)) == "https://x.org/index.html"
    by_hand = Site(tmp_path, "s", pages)
    assert SiteBrowser.start_page(SimpleNamespace(site=by_hand)) == "https://x.org/about.html"
    assert SiteBrowser.start_page(SimpleNamespace(site=None)) is None
