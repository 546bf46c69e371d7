"""Core's text browser on what a form's markup or a typed value can hold beyond the common: a number too long for
28 digits, or too large for a double; an `accept-charset` Python knows but no browser does; a `dir=auto` field's
typed right-to-left text. It used to stop the agent's run with a traceback on the first two (decimal's
InvalidOperation, LookupError or UnicodeError), to encode in Python-only codecs (utf-7, utf-32, unicode_escape),
and to send `ltr` for typed Arabic or Hebrew. The URLs follow HTML's rules, as Chromium does."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote_plus

import pytest

from recordlens.core.agent.sites import Site, build_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.core.forms_page import steps

URL = "https://edges.example.org/p"
ODD_CHARSETS = ("base64", "hex", "rot13", "idna", "utf-7", "utf-32", "unicode_escape", "punycode", "bogus")
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Edges</title></head><body>
<form action="num"><input type="number" name="n" aria-label="Number">
  <input type="number" name="big" value="1e999999" aria-label="Too big"><input type="submit" value="Number go"></form>
""" + "".join(f"""<form action="cs" accept-charset="{label}"><input name="a" value="&#233;&#8364;" aria-label="{label}">
  <input type="hidden" name="_charset_"></form>
""" for label in (*ODD_CHARSETS, "utf-7 iso-8859-2")) + """
<form action="dir"><input name="t" dir="auto" dirname="t.dir" aria-label="Auto dir">
  <textarea name="ta" dir="auto" dirname="ta.dir" aria-label="Auto area"></textarea>
  <input type="submit" value="Dir go"></form>
</body></html>"""
ARABIC, HEBREW = "\u0645\u0631\u062d\u0628\u0627", "\u05e9\u05dc\u05d5\u05dd"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    folder: Path = tmp_path_factory.mktemp("edges")
    write_mhtml(folder / "p.mhtml", PAGE, url=URL)
    return build_site(folder)


def _reached(site: Site, actions: list[tuple[str, str, str | None]]) -> str:
    browser = HtmlSiteBrowser(site)
    browser.open(URL)
    for step in steps(actions, browser.observe()):
        browser.perform(step)
    return browser.url


@pytest.mark.parametrize("number", ["12345678901234567890123456789", "1e40", "-1.5e+300"])
def test_a_number_beyond_28_digits_is_sent_and_one_too_large_for_a_double_is_no_number(site: Site,
                                                                                       number: str) -> None:
    """A number a double holds is valid, on its steps (step 1) and sent as typed; the markup's `1e999999` is no
    number to Chromium, so the field is empty (and, not typed, does not stop the form)."""
    reached = _reached(site, [("type", "Number", number)])
    assert reached == f"https://edges.example.org/num?n={quote_plus(number)}&big="


def test_a_typed_number_too_large_for_a_double_stops_the_form(site: Site) -> None:
    assert _reached(site, [("type", "Number", "1e999999")]) == URL


@pytest.mark.parametrize("label", ODD_CHARSETS)
def test_an_accept_charset_no_browser_knows_sends_utf_8(site: Site, label: str) -> None:
    assert _reached(site, [("type", label, "\u00e9\u20ac")]) == \
        "https://edges.example.org/cs?a=%C3%A9%E2%82%AC&_charset_=UTF-8"


def test_an_unknown_accept_charset_label_is_passed_over_for_the_next(site: Site) -> None:
    """ISO-8859-2 has é but no €, which goes as a character reference; `_charset_` is the standard's name."""
    assert _reached(site, [("type", "utf-7 iso-8859-2", "\u00e9\u20ac")]) == \
        "https://edges.example.org/cs?a=%E9%26%238364%3B&_charset_=ISO-8859-2"


def test_dir_auto_sends_the_direction_of_what_was_typed(site: Site) -> None:
    assert _reached(site, [("type", "Auto dir", ARABIC)]) == \
        f"https://edges.example.org/dir?t={quote_plus(ARABIC)}&t.dir=rtl&ta=&ta.dir=ltr"
    assert _reached(site, [("type", "Auto area", HEBREW), ("click", "Dir go", None)]) == \
        f"https://edges.example.org/dir?t=&t.dir=ltr&ta={quote_plus(HEBREW)}%0D%0A&ta.dir=rtl"
