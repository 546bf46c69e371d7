"""Core's text browser reads a page line by line as the Qt browser does (som.js pageText; core/agent/page_text.py):
a block a line, a table row's cells and a form's fields joined by a space, inline elements by nothing but the text's
own spaces. It used to give one line a text node, so `<tr><td>Chair</td><td>40</td></tr>` read "Chair" and "40" on
two lines where the Qt browser reads "Chair 40". Each expectation here is what the Qt browser gave for the same
markup (tests/app/test_browsers_agree_on_lines.py compares the two on one page)."""

from __future__ import annotations

import pytest

from recordlens.core.agent.forms import FormControls
from recordlens.core.agent.page_text import page_text
from recordlens.core.agent.sites import build_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.page.dom import parse_html
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.core.forms_page import steps


def lines(body: str) -> list[str]:
    return page_text(parse_html(f"<!DOCTYPE html><html><body>{body}</body></html>")).split("\n")


@pytest.mark.parametrize(("body", "expected"), [
    ("<table><tr><td>Chair</td><td>40</td></tr><tr><th>Desk</th><td> 120 </td></tr></table>",
     ["Chair 40", "Desk 120"]),
    ("<table><caption>Cap</caption><thead><tr><th>A</th><th>B</th></tr></thead><tr><td>1</td><td>2</td></tr></table>",
     ["Cap", "A B", "1 2"]),
    ("<table><tr><td><p>para</p>more</td><td>b<div>c</div></td></tr></table>", ["para", "more b", "c"]),
    ("<dl><dt>Colour</dt><dd>Oak</dd><dt>Weight</dt><dd>4 kg</dd></dl>", ["Colour", "Oak", "Weight", "4 kg"]),
    ("<p>Hel<b>lo</b> <i>world</i><span>!</span> <a href='/x'>link</a><em>emph</em></p>", ["Hello world! linkemph"]),
    ("<ul><li>One<ul><li>One.a</li><li>One.b</li></ul></li><li>Two <b>bold</b></li></ul>",
     ["One", "One.a", "One.b", "Two bold"]),
    ("<div>\n  <span>a</span>\n  <span>b</span>\n</div><div>  c  </div>", ["a b", "c"]),
    ("foo<div></div>bar<span></span>baz", ["foo", "barbaz"]),
    ("<p>line one<br>line two<br><br>three</p>", ["line one", "line two", "three"]),
    ("<pre>\n  a  b\n\tc <b>d</b>\n\nend</pre>", ["  a  b", "\tc d", "end"]),
    ("<p>a<img src='x.png' alt='pic'>b</p><p>c <img alt=q> d</p>", ["ab", "c d"]),
    ("<p><ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby>字</p>", ["漢 kan 字"]),
    ("<p>a\tb\u3000c\u00a0 d</p>", ["a b\u3000c\u00a0 d"]),
    ("<p>Price:&nbsp;<b>40</b></p>", ["Price:40"]),  # as the Qt browser reads it: its trim takes the no-break space
])
def test_blocks_cells_and_inline_elements_read_as_in_the_qt_browser(body: str, expected: list[str]) -> None:
    assert lines(body) == expected


@pytest.mark.parametrize(("body", "expected"), [
    ("<p>a<input>b<input type=hidden>c<button>Go</button>d</p>", ["a bc Go d"]),
    ("<form><label>Name <input></label><label><input type=checkbox> Gift</label><button>Send</button></form>",
     ["Name Gift Send"]),
    ("<p>Size <select><option>S</option><option selected>M  large</option></select> ok</p>", ["Size M large ok"]),
    ("<select multiple><option>a</option></select>x<select><option disabled>d</option><option>e</option></select>",
     ["x e"]),
    ("<p>Note<textarea>  one\ntwo  </textarea>end</p>", ["Note one two end"]),
    ("a<textarea></textarea>b", ["a b"]),
])
def test_fields_show_their_value_beside_the_text_around(body: str, expected: list[str]) -> None:
    assert lines(body) == expected


@pytest.mark.parametrize(("body", "expected"), [
    ("<p>a<span hidden>h</span>b</p><div hidden=until-found>u</div>", ["ab", "u"]),
    ("<p>a</p><dialog>closed</dialog><dialog open>open</dialog><div popover>pop</div><p>b</p>", ["a", "open", "b"]),
    ("<p>a</p><title>t</title><noscript><p>no js</p></noscript><p>b</p>", ["a", "b"]),
    ("<input list=l><datalist id=l><option value=a>Alpha</option></datalist>after", ["after"]),
    ("<p>a<svg><text>svg</text></svg><math><mi>x</mi></math><object>fallback</object>b</p><video>v</video>", ["ab"]),
    ("<p>a<span style='display: none !important'>h</span>b<span style='display:block'>c</span>d</p>",
     ["ab", "c", "d"]),
    ("<div style='color: red; display: inline'>a</div><div style='display:inline-block'>b</div>", ["a b"]),
])
def test_what_is_not_displayed_adds_nothing(body: str, expected: list[str]) -> None:
    assert lines(body) == expected


def test_a_text_area_reads_as_typed_into() -> None:
    page = parse_html("<body><p>Note<textarea>old</textarea></p></body>")
    controls = FormControls(page)
    controls.type_into(next(e for e in page.elements if e.tag == "textarea"), "new\nwords")
    assert page_text(page, controls) == "Note new words"


def test_the_text_browser_observes_the_lines_of_its_page(tmp_path) -> None:
    url = "https://shop.example.org/"
    write_mhtml(tmp_path / "shop.mhtml", "<html><head><title>Shop</title></head><body><h1>Shop</h1>"
                "<table><tr><td>Chair</td><td>40</td></tr></table><textarea aria-label=Note></textarea></body></html>",
                url=url)
    browser = HtmlSiteBrowser(build_site(tmp_path))
    browser.open(url)
    assert browser.observe().text.split("\n") == ["Shop", "Chair 40"]
    for step in steps([("type", "Note", "gift")], browser.observe().elements):
        browser.perform(step)
    assert browser.observe().text.split("\n") == ["Shop", "Chair 40", "gift"]


@pytest.mark.parametrize(("body", "expected"), [
    ("<header><a href='/'>Home</a><a href='/about'>About</a></header>", ["Home About"]),
    ("<p><a href='/care'>care guide</a>, <a href='/a'>a</a><em>b</em></p>", ["care guide, ab"]),
])
def test_links_side_by_side_are_set_apart(body: str, expected: list[str]) -> None:
    """Chromium's defaults run side-by-side links together; a page's style always sets them apart (the demo
    site's header by a margin), so the text browser does (module notes of page_text.py)."""
    assert lines(body) == expected
