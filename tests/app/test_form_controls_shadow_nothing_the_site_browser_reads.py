"""A form's named controls shadow none of what the agent's site browser reads of a page.

HTML lets `<input name="X">` inside a <form> stand for the form's own property X in every script world, the app's
too, under plain markup: a captured page from the web holds such forms. The site browser's scripts read page nodes
directly: set-of-mark went round for ever walking up from a form named `parentElement` (and `offsetParent`), and
threw or read wrong on one named `tagName`, `firstChild`, `closest`, `getAttribute`, `style`...; so did the
recording of clicks and typing, and the marking of hidden elements before a save.

Every name a form control can shadow that the scripts name (the words of their source that are properties of a form,
or of the fields, labels and links the scripts read, which a form taken for one would answer) is tried, each in a
form of its own, positioned (so that an offset-parent walk goes through it): the observation (numbered elements, the
page's and its frame's text, what lies beyond the view) is the one the same page gives with harmless names; a click
on each form's button, and on the form itself, and text typed into each form's field, are recorded on the right
element. Forms shadowing all of them at once: one numbered itself (role=button) is clicked as itself, one that
scrolls is scrolled, and hidden ones, in the page and in its frame, are saved still hidden.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html import escape

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from recordlens.annotator.agent.site_browser import SCRIPTS, SiteBrowser
from recordlens.annotator.agent.site_saver import KEEP_HIDDEN
from recordlens.annotator.qt.event_loop import spin
from recordlens.annotator.qt.page_scripts import BRIDGE, DOM_RULES, SHADOW_HOST, read_script
from recordlens.core.agent.sites import build_site
from recordlens.core.agent.targets import Target
from recordlens.core.page.mhtml_writer import write_mhtml
from recordlens.core.page.snapshot import read_snapshot
from tests.app.agent_helpers import click, shown_browser, type_text, wait_for

pytestmark = pytest.mark.app

INJECTED = (DOM_RULES, BRIDGE, SHADOW_HOST, *SCRIPTS, KEEP_HIDDEN)  # what the site browser runs in a page
WORD = re.compile(r"[A-Za-z_$][\w$]*")
# The elements whose properties the scripts read: a form's (any element may be one), and the fields'.
READ_KINDS = ("HTMLFormElement", "HTMLInputElement", "HTMLSelectElement", "HTMLTextAreaElement",
              "HTMLButtonElement", "HTMLLabelElement", "HTMLAnchorElement")
BASE = "https://forms.example.org"
HOSTILE = f"{BASE}/hostile"
TWIN = f"{BASE}/twin"  # the same page, its controls named so that they shadow nothing
STYLE = ("<style>form { position: relative; margin: 6px 0; padding: 4px 4px 28px; border: 1px solid #999 }"
         " .scrolls { max-height: 120px; overflow: auto } .tall { height: 600px }</style>")
HIDDEN_WORDS = "Kept out of sight"


def words_of_the_scripts() -> list[str]:
    return sorted({word for name in INJECTED for word in WORD.findall(read_script(name))})


def controls(names: list[str], harmless: bool) -> str:
    return "".join(f"<input name='{escape('x-' + n if harmless else n)}' value='v' size='3'>" for n in names)


def form(k: int, names: list[str], harmless: bool, attrs: str = "") -> str:
    """Form k: its words (named by id), a field they name, a button, and the controls named `names`."""
    return (f"<form {attrs}><p id='words-{k}'>Form {k}</p><input aria-labelledby='words-{k}'>"
            f"<button type='button'>Button {k}</button>{controls(names, harmless)}</form>")


def frame(names: list[str], harmless: bool) -> str:
    """A frame of the page's own (srcdoc) with a form shadowing `names`, and a hidden one."""
    inner = (f"<!DOCTYPE html><html><body><form><p>Framed words</p>{controls(names, harmless)}</form>"
             f"<form hidden><p>{HIDDEN_WORDS} in a frame</p>{controls(names, harmless)}</form></body></html>")
    return f"<iframe srcdoc=\"{escape(inner, quote=True)}\" width='600' height='160'></iframe>"


def page_of(names: list[str], harmless: bool) -> str:
    """One form per name, then forms shadowing all of them: one numbered itself, one that scrolls, a
    hidden one; and a frame. Forms 1..n are the names' (in order), n+1 the numbered one, n+2 the scrolling one."""
    n = len(names)
    single = "".join(form(k, [name], harmless) for k, name in enumerate(names, 1))
    numbered = form(n + 1, names, harmless, "role='button' tabindex='0'")
    scrolling = f"<form class='scrolls'><p>Scrolls</p>{controls(names, harmless)}<div class='tall'></div></form>"
    hidden = f"<form hidden><p>{HIDDEN_WORDS}</p>{controls(names, harmless)}</form>"
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Forms</title>{STYLE}</head><body>"
            f"<h1>Forms</h1>{single}{numbered}{scrolling}{hidden}{frame(names, harmless)}</body></html>")


def form_path(k: int) -> str:
    return f"/body[1]/form[{k}]"


@pytest.fixture(scope="module")
def shadowable(qapp, tmp_path_factory) -> list[str]:
    """The words of the injected scripts that name a property of an element the scripts read (its own or
    inherited): each a name a form control shadows."""
    root = tmp_path_factory.mktemp("blank")
    write_mhtml(root / "blank.mhtml", "<!DOCTYPE html><html><body></body></html>", url=f"{BASE}/blank")
    browser = SiteBrowser(build_site(root))
    try:
        browser.open(f"{BASE}/blank")
        assert browser.wait_until_loaded()
        names = browser.js_json(f"""JSON.stringify((() => {{
            const own = new Set();
            for (const kind of {json.dumps(READ_KINDS)}) {{
                for (let p = globalThis[kind].prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {{
                    Object.getOwnPropertyNames(p).forEach((name) => own.add(name));
                }}
            }}
            return {json.dumps(words_of_the_scripts())}.filter((word) => own.has(word));
        }})())""")
    finally:
        browser.dispose()
    assert {"parentElement", "offsetParent", "tagName", "firstChild", "nextSibling", "closest", "getAttribute",
            "style", "innerText", "value"} <= set(names), names
    return names


@pytest.fixture(scope="module")
def browser(shadowable, tmp_path_factory) -> Iterator[SiteBrowser]:
    """The site of the page and its twin, shown; on the page, each form's control shadows its form's property."""
    root = tmp_path_factory.mktemp("site")
    write_mhtml(root / "hostile.mhtml", page_of(shadowable, harmless=False), url=HOSTILE)
    write_mhtml(root / "twin.mhtml", page_of(shadowable, harmless=True), url=TWIN)
    for view in shown_browser(root, (1000, 700)):
        view.open(HOSTILE, fresh=True)
        assert view.wait_until_loaded()
        shadowed = view.js_json(f"""JSON.stringify({json.dumps(shadowable)}.filter((name, k) => {{
            const form = document.forms[k];
            return form[name] === Element.prototype.querySelector.call(form, "input[name]");
        }}))""")
        assert shadowed == shadowable
        yield view


def show(browser: SiteBrowser, url: str) -> None:
    browser.open(url, fresh=True)
    assert browser.wait_until_loaded()
    browser.settle()


def observed(browser: SiteBrowser, url: str) -> tuple:
    """What the agent is given of `url`: the numbered elements in view and on the whole page, the text, and how
    many elements lie beyond the view; and the screenshot's size."""
    show(browser, url)
    seen = browser.observe()
    assert seen.screenshot and seen.screenshot.startswith(b"\x89PNG")
    whole = browser.mark(whole_page=True, draw=False)
    return seen.elements, seen.text, seen.elements_out_of_view, whole.elements


def test_set_of_mark_sees_the_page_as_with_harmless_names(browser, shadowable):
    hostile = observed(browser, HOSTILE)
    twin = observed(browser, TWIN)
    elements, text, beyond, whole = hostile
    assert (elements, text, beyond, whole) == twin
    assert "Framed words" in text and HIDDEN_WORDS not in text
    numbered = {e.xpath: e for e in whole}
    n = len(shadowable)
    for k in range(1, n + 1):
        assert numbered[f"{form_path(k)}/button[1]"].name == f"Button {k}"
        assert numbered[f"{form_path(k)}/input[1]"].name == f"Form {k}"  # named by the words in the form
    assert numbered[form_path(n + 1)].role == "button"  # the form numbered itself holds its button


@pytest.fixture
def events(browser) -> Iterator[list[dict]]:
    """What the page reports while recording, on the page shown again."""
    show(browser, HOSTILE)
    heard: list[dict] = []
    browser.page_event.connect(heard.append)
    browser.set_recording(True)
    try:
        yield heard
    finally:
        browser.set_recording(False)
        browser.page_event.disconnect(heard.append)


def next_event(heard: list[dict]) -> dict:
    wait_for(lambda: bool(heard))
    spin(100)  # nothing more comes of one action
    assert len(heard) == 1, heard
    return heard.pop()


def on_the_form_itself(browser: SiteBrowser, k: int) -> QPoint:
    """A point on form k's own box (its bottom padding), scrolled into view, read by the DOM's own getters."""
    x, y = browser.js_json(f"""(() => {{
        const form = document.forms[{k - 1}];
        Element.prototype.scrollIntoView.call(form, {{ block: "center" }});
        const r = Element.prototype.getBoundingClientRect.call(form);
        const point = [Math.round(r.left + 10), Math.round(r.bottom - 10)];
        return JSON.stringify(document.elementFromPoint(...point) === form ? point : null);
    }})()""")
    return QPoint(x, y)


def test_clicks_and_typing_inside_each_form_are_recorded_on_their_element(browser, events, shadowable):
    for k, name in enumerate(shadowable, 1):
        click(browser, Target(xpath=f"{form_path(k)}/button[1]"))
        event = next_event(events)
        assert (event["kind"], event["target"]["xpath"], event["target"]["name"]) == (
            "click", f"{form_path(k)}/button[1]", f"Button {k}"), name

        QTest.mouseClick(browser.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         on_the_form_itself(browser, k))
        event = next_event(events)
        assert (event["kind"], event["target"], event["missed"]["xpath"]) == ("click", None, form_path(k)), name

        type_text(browser, Target(xpath=f"{form_path(k)}/input[1]"), f"typed {k}", enter=False)
        wait_for(lambda k=k: browser.run_js("document.activeElement.value") == f"typed {k}")  # the keys are in
        browser.commit_typing()
        event = next_event(events)
        assert (event["kind"], event["target"]["xpath"], event["target"]["name"], event["value"]) == (
            "type", f"{form_path(k)}/input[1]", f"Form {k}", f"typed {k}"), name


def test_a_form_numbered_itself_is_clicked_as_itself(browser, events, shadowable):
    numbered = len(shadowable) + 1
    click(browser, Target(xpath=f"{form_path(numbered)}/button[1]"))  # inside it: the form is the step
    event = next_event(events)
    assert (event["kind"], event["target"]["xpath"], event["target"]["role"]) == (
        "click", form_path(numbered), "button")


def test_a_form_that_scrolls_is_scrolled(browser, shadowable):
    show(browser, HOSTILE)
    scrolling = json.dumps(form_path(len(shadowable) + 2))
    assert browser.run_js(f"__recordlens.som.scroll({scrolling}, 'down')") is True
    assert browser.run_js(f"__recordlens.som.scroll({scrolling}, 'up')") is True


def hidden_forms(html: str) -> list[str]:
    return re.findall(r"<form[^>]*data-recordlens-hidden[^>]*>", html)


def test_hidden_forms_are_saved_still_hidden(browser, tmp_path):
    show(browser, HOSTILE)
    saved = read_snapshot(browser.save_page(tmp_path / "saved.mhtml"))  # beside the site: it stays as it is
    framed = [r.data.decode("utf-8") for r in saved.resources.values() if b"Framed words" in r.data]
    assert len(framed) == 1
    for html in (saved.html, framed[0]):
        assert HIDDEN_WORDS in html
        [kept] = hidden_forms(html)
        assert re.search(r'style="[^"]*display: none !important', kept), kept
