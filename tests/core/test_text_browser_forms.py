"""Core's text browser submits forms as the Qt browser (Chromium) does (tests/core/forms_page.py holds the cases, read
from the Qt browser; tests/app/test_qt_browser_forms.py runs them there). It used to send a select as "" instead of
its chosen option, every button but the one used only when it was no button, a text area's markup as "", nothing
for a checkbox clicked, and to submit on Enter whatever the form held (two text fields, a disabled default button,
a required field left empty, a text area); an empty field showed no placeholder where the Qt browser shows one."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.agent.actions import Step
from recordlens.core.agent.targets import Target
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from tests.core.forms_page import BASE, CASES, HOME, forms_site, steps


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - a Site
    return forms_site(tmp_path_factory.mktemp("forms"))


@pytest.mark.parametrize(("why", "actions", "reached"), CASES, ids=[c[0] for c in CASES])
def test_a_form_sends_what_chromium_sends(site, why: str, actions: list, reached: str) -> None:  # noqa: ANN001
    browser = HtmlSiteBrowser(site)
    browser.open(HOME)
    for step in steps(actions, browser.observe()):
        browser.perform(step)
    assert browser.url == reached


def test_fields_show_their_value_else_their_placeholder_and_a_select_its_option(site) -> None:  # noqa: ANN001
    browser = HtmlSiteBrowser(site)
    browser.open(HOME)
    shown = {e.name: (e.role, e.text) for e in browser.observe().elements}
    assert shown["Say something"] == ("textbox", "Say something")  # an empty text area: its placeholder
    assert shown["e.g. 1000"] == ("textbox", "e.g. 1000")
    assert shown["Note"] == ("textbox", "line1 line2")  # a text area's text, not ""
    assert (shown["Sort"], shown["Size"], shown["Colours"], shown["Brand"], shown["Region"]) == (
        ("combobox", "One"), ("combobox", "S2c"), ("listbox", "M1"), ("listbox", ""), ("combobox", "K1"))
    assert (shown["Quantity"], shown["Price"], shown["Colour"], shown["E-mail"]) == (
        ("spinbutton", ""), ("slider", "50"), ("textbox", "#000000"), ("textbox", "a@b.c"))
    assert shown["New"] == ("checkbox", "on") and shown["Used"] == ("checkbox", "v2")
    assert "Gift code" not in shown and "Off" not in shown and "Shop" not in shown  # disabled: not numbered
    assert "Legend field" in shown  # in the disabled fieldset's first legend: enabled
    browser.perform(Step("type", Target(xpath=next(e.xpath for e in browser.observe().elements
                                                   if e.name == "Say something")), "typed"))
    assert {e.name: e.text for e in browser.observe().elements}["Say something"] == "typed"


def test_a_get_form_sends_its_bytes_as_chromium_encodes_them(site) -> None:  # noqa: ANN001
    """`~` and letters outside ASCII are sent %-encoded (the Qt browser shows them decoded: QUrl's pretty form)."""
    browser = HtmlSiteBrowser(site)
    browser.open(HOME)
    browser.perform(steps([("type", "Two A", "x")], browser.observe())[0])  # nothing: two fields, no button
    browser.perform(steps([("type", "Search", "tea ~ café")], browser.observe())[0])
    assert browser.url.startswith(BASE + "results?q=tea+%7E+caf%C3%A9&h=x+y&")


def test_a_form_without_an_action_goes_to_the_page_itself(tmp_path: Path) -> None:
    """HTML's rule, as the Qt browser follows it too (tests/app/test_qt_browser_own_url.py)."""
    from recordlens.core.agent.sites import build_site
    from recordlens.core.page.mhtml_writer import write_mhtml

    write_mhtml(tmp_path / "p.mhtml", '<form><input name="a" aria-label="A"></form><form action="">'
                '<input name="b" aria-label="B"></form>', url="https://x.example.org/p?old=1")
    browser = HtmlSiteBrowser(build_site(tmp_path))
    for name, reached in (("A", "https://x.example.org/p?a=x"), ("B", "https://x.example.org/p?b=x")):
        browser.open("https://x.example.org/p?old=1")
        browser.perform(steps([("type", name, "x")], browser.observe())[0])
        assert browser.url == reached
