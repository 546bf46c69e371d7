"""A page whose navigation links to itself, as nearly every site's does, is still one page under each of its
addresses: /about (whose link to /about is to itself) and /About (whose same link is to another address of it)
are the same HTML reaching the same pages, so /About is kept as an alias, not saved a second time. Chromium's
MHTML writes every link absolute (a "#main" on /About as /About#main): the pages below are written so too, and
as a hand-made page writes them (relative)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest

from recordlens.core.agent.capture import CaptureRules, RedirectCheck, RenderedPage, capture_site
from recordlens.core.agent.page_twins import PageCopy, page_shape, same_page
from recordlens.core.agent.sites import load_site
from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.page.snapshot import read_snapshot
from tests.core.canned_web import NO_ROBOTS, SAVED_ON, Web

ROOT = "https://site.example/"
SPELLINGS = ["about", "About", "about/", "about/index.html", "about?session=7"]
NAV = ["/", "/about", "#main", ""]  # home, about (itself on /about), a skip link, a link to itself


SITE = {ROOT: ("Home", [*NAV, *SPELLINGS, "team"]), ROOT + "team": ("Team", NAV)} | {
    ROOT + s: ("About us", NAV) for s in SPELLINGS}


class AsChromiumWrites(Web):
    """The canned pages as Chromium's MHTML holds them: every link target absolute, resolved against the page's
    URL (the links' text as written)."""

    def render(self, requested: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
        page = super().render(requested, refuse_redirect)
        html = re.sub(r'href="([^"]*)"', lambda found: f'href="{urljoin(page.final_url, found[1])}"',
                      read_snapshot(page.mhtml).html)
        return dataclasses.replace(page, mhtml=mhtml_bytes(html, url=page.final_url, title=page.title,
                                                           date=SAVED_ON))


@pytest.mark.parametrize("web", [AsChromiumWrites, Web])
def test_the_pages_of_one_page_that_links_to_itself_are_aliases_of_it(tmp_path: Path, web: type[Web]) -> None:
    summary = capture_site([ROOT], tmp_path, web(SITE), CaptureRules(depth=1), robots=NO_ROBOTS)
    about = ROOT + "about"
    assert summary.saved == [ROOT, about, ROOT + "team"]
    assert sorted(summary.same_content) == sorted((ROOT + s, about) for s in SPELLINGS[1:])
    site = load_site(tmp_path)
    assert len(site.pages) == 3 and all(site.page(ROOT + s, exact=True).url == about for s in SPELLINGS)


def test_two_roots_one_page_with_a_query_are_one_page(tmp_path: Path) -> None:
    summary = capture_site([ROOT + "about", ROOT + "about?x=1"], tmp_path,
                           AsChromiumWrites({ROOT + s: ("About us", NAV) for s in ("about", "about?x=1")}),
                           CaptureRules(depth=0), robots=NO_ROBOTS)
    assert summary.saved == [ROOT + "about"] and summary.same_content == [(ROOT + "about?x=1", ROOT + "about")]


def _chromium_copy(url: str, body: str) -> PageCopy:
    """A page as Chromium's MHTML writes it: every link target absolute, resolved against `url`."""
    absolute = body.format(here=url, about=ROOT + "about", home=ROOT)
    return PageCopy(f"<html><body>{absolute}</body></html>", url, ())


NAV_HTML = '<a href="{home}">Home</a><a href="{about}">About</a><a href="{here}#main">Skip</a><a href="{here}">Me</a>'


def test_same_page_reads_every_address_of_either_copy_as_the_page_itself() -> None:
    about, caps = _chromium_copy(ROOT + "about", NAV_HTML), _chromium_copy(ROOT + "About", NAV_HTML)
    assert about.html != caps.html and page_shape(about.html) == page_shape(caps.html)
    assert same_page(about, caps) and same_page(caps, about)


def test_same_html_whose_relative_links_lead_elsewhere_is_two_pages() -> None:
    body = '<a href="intro">Intro</a><a href="#top">Top</a>'
    v1, v2 = (PageCopy(f"<p>Manual</p>{body}", ROOT + v, ()) for v in ("v1/", "v2/"))
    assert page_shape(v1.html) == page_shape(v2.html) and not same_page(v1, v2)
    linked = [_chromium_copy(ROOT + v, '<a href="{here}intro">Intro</a>') for v in ("v1/", "v2/")]
    assert not same_page(*linked)


def test_a_link_to_another_page_in_the_place_of_a_link_to_itself_is_another_page() -> None:
    one = PageCopy('<a href="/a">x</a>', ROOT + "a", ())
    other = PageCopy('<a href="/c">x</a>', ROOT + "b", ())
    assert not same_page(one, other)  # /c is no address of either
    assert same_page(one, PageCopy('<a href="/a">x</a>', ROOT + "b", (ROOT + "a",)))  # /a is b's alias
    assert not same_page(PageCopy("<p>a</p>", ROOT, ()), PageCopy("<p>b</p>", ROOT + "b", ()))


def test_link_targets_are_read_however_the_attribute_is_written() -> None:
    def copy(path: str) -> PageCopy:
        url = ROOT + path
        return PageCopy(f"<a HREF='{url}'>me</a><form action={url}></form><a href='/s?q=1&amp;r=2'>s</a>"
                        f'<button formaction="{url}">Go</button>', url, ())

    assert same_page(copy("about"), copy("About"))
    assert not same_page(copy("about"), PageCopy(copy("About").html.replace("r=2", "r=3"), ROOT + "About", ()))
