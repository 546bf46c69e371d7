"""A form's named controls shadow none of what the overlay reads of the page.

HTML lets `<input name="X">` inside a <form> stand for the form's own property X in every script world
([LegacyOverrideBuiltIns]), the overlay's too, under plain markup: no page script needed. A verifier's finding: with
name="parentElement" the overlay's walk up the tree went round for ever (the renderer's CPU and gigabytes, no box
ever drawn); with name="tagName" no record was drawn on the page and a click inside the form did nothing.

Every property a form control can shadow that the labelling view's scripts name (the words of their source that are
properties of a form element) is tried, each in a form of its own, placed after the records it holds the first of
and before the other, among other forms: records in every form are drawn where they are, the browser's DOM rules
still agree with the core's, and a real click inside each form reports the clicked element's XPath; in the window,
a click inside a form shadowing all of them at once makes a record of what was clicked.
"""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.labelling.page_view import FIELDS_TAKE_NO_KEYS, OVERLAY, PageView
from recordlens.annotator.qt.page_scripts import BRIDGE, DOM_RULES, SHADOW_HOST, browser_dom, read_script
from recordlens.core.page.dom import parse_html
from tests.app.page_helpers import click_element, js
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

INJECTED = (DOM_RULES, BRIDGE, SHADOW_HOST, OVERLAY, FIELDS_TAKE_NO_KEYS)  # what the labelling view runs in its world
WORD = re.compile(r"[A-Za-z_$][\w$]*")
HEAD = "<!doctype html><html><head><meta charset='utf-8'><title>forms</title></head><body><h1>Forms</h1>"


def words_of_the_scripts() -> list[str]:
    return sorted({word for name in INJECTED for word in WORD.findall(read_script(name))})


def form(k: int, names: list[str]) -> str:
    """Form k: a record, the controls named `names`, another record (`/body[1]/form[k]/div[1]` and `div[2]`)."""
    controls = "".join(f"<input name='{escape(n)}' value='v'>" for n in names)
    return (f"<form><p>Form {k}</p><div class='rec'><h3>First of form {k}</h3><p>One {k}</p></div>{controls}"
            f"<div class='rec'><h3>Second of form {k}</h3><p>Two {k}</p></div></form>")


def page_of(forms: list[list[str]]) -> str:
    return HEAD + "".join(form(k, names) for k, names in enumerate(forms, 1)) + "</body></html>"


def second_record(k: int) -> str:
    return f"/body[1]/form[{k}]/div[2]/h3[1]"


@pytest.fixture(scope="module")
def shadowable(page_view, tmp_path_factory) -> list[str]:
    """The words of the injected scripts that name a property of a form element (its own or inherited from
    HTMLElement, Element, Node, EventTarget): each a name a form control shadows."""
    blank = tmp_path_factory.mktemp("blank") / "blank.html"
    blank.write_text(HEAD + "</body></html>", encoding="utf-8")
    page_view.open(blank)
    assert page_view.wait_until_loaded(30_000)
    names = js(page_view, f"""(() => {{
        const own = new Set();
        for (let p = HTMLFormElement.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {{
            Object.getOwnPropertyNames(p).forEach((name) => own.add(name));
        }}
        return {json.dumps(words_of_the_scripts())}.filter((word) => own.has(word));
    }})()""")
    assert {"parentElement", "tagName", "parentNode", "childNodes", "localName"} <= set(names), names
    return names


@pytest.fixture(scope="module")
def forms_page(page_view: PageView, shadowable, tmp_path_factory) -> Path:
    """The page of one form per name, open in the view; each form's control does shadow its form's property."""
    path = tmp_path_factory.mktemp("forms") / "forms.html"
    path.write_text(page_of([[name] for name in shadowable]), encoding="utf-8")
    page_view.open(path)
    assert page_view.wait_until_loaded(30_000)
    shadowed = js(page_view, f"""{json.dumps(shadowable)}.filter((name, k) => {{
        const form = document.forms[k];
        return form[name] === Element.prototype.querySelector.call(form, "input");
    }})""")
    assert shadowed == shadowable
    return path


def test_records_inside_every_form_are_drawn_where_they_are(page_view, shadowable, forms_page):
    xpaths = [f"/body[1]/form[{k}]/div[{j}]" for k in range(1, len(shadowable) + 1) for j in (1, 2)]
    page_view.show_records([{"xpaths": [x]} for x in xpaths])
    assert page_view.wait_until_drawn(60_000).boxes == len(xpaths)
    located = [box for record in page_view.boxes(60_000) for box in record]
    assert [(b.xpath, b.resolved, b.visible, b.path) for b in located] == [(x, True, True, x) for x in xpaths]


def test_the_browsers_dom_rules_still_agree_with_the_cores(page_view, forms_page):
    core = parse_html(forms_page.read_text(encoding="utf-8"))
    browser = browser_dom(page_view.offline)
    page_own = [x for x in browser.xpaths if not x.startswith("/recordlens-overlay[")]  # the overlay's own host
    assert page_own == core.element_xpaths()
    assert browser.text_map == core.text_map


def test_a_click_inside_each_form_reports_the_clicked_element(qtbot, page_view, shadowable, forms_page):
    reported: list[str] = []
    page_view.element_clicked.connect(reported.append)
    try:
        for k, name in enumerate(shadowable, 1):
            reported.clear()
            click_element(page_view, second_record(k))
            qtbot.waitUntil(lambda: bool(reported), timeout=5_000)
            assert reported == [second_record(k)], name
    finally:
        page_view.element_clicked.disconnect(reported.append)


def test_in_the_window_a_click_inside_a_form_shadowing_all_of_them_makes_its_record(qtbot, tmp_path, shadowable):
    folder = imported_project(tmp_path, {"html/1.html": page_of([["q"], shadowable])})
    window: MainWindow = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.wait_until_drawn()
        click_element(window.page_view, second_record(2))
        qtbot.waitUntil(lambda: [label.xpaths for label in window.project.labels("1")] == [(second_record(2),)],
                        timeout=10_000)
    finally:
        window.close()
