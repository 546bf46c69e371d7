"""A field inside its <label> is named as Chromium names it, and as the text browser names it: a list was "Colour
RedBlue" here and "Colour Red Blue" there, where Chromium's accessibility tree says "Colour" (tests/core/labels_page.py
has the names Chromium gave, captured). aria-labelledby's element gave all its text, hidden parts too ("Full x * y
name"), where Chromium leaves out the hidden parts of an element on show ("Full name"); and the text browser numbered
links the markup keeps from view that this browser does not number: both now name and number alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from tests.core.labels_page import HOME, NAMES, PASSWORD_TEXTS, PASSWORDS, labels_site

pytestmark = pytest.mark.app


def test_a_label_names_the_field_it_wraps_as_chromium_and_the_text_browser_do(qapp, tmp_path: Path) -> None:
    site = labels_site(tmp_path)
    with QtSiteBrowser(site) as browser:
        browser.open(HOME)
        seen = browser.observe()
    text = HtmlSiteBrowser(site)
    text.open(HOME)
    assert [(e.role, e.name) for e in seen.elements] == NAMES
    assert [(e.role, e.name, e.text) for e in seen.elements] == [(e.role, e.name, e.text)
                                                                for e in text.observe().elements]


def test_a_password_s_value_is_in_no_name_or_text(qapp, tmp_path: Path) -> None:
    """A password field's value inside another field's label was that field's name ("Word secret99"), and the
    field's own text was its value: Chromium reads a bullet for each character, and so does set-of-mark now.
    Hidden text in a label (visibility: hidden, aria-hidden) and a hidden label add nothing (NAMES)."""
    with QtSiteBrowser(labels_site(tmp_path)) as browser:
        browser.open(HOME)
        seen = browser.observe()
    assert [e.text for e in seen.elements if e.text.startswith("\u2022")] == list(PASSWORD_TEXTS)
    assert not [secret for secret in PASSWORDS if secret in seen.text or any(
        secret in e.name or secret in e.text for e in seen.elements)]
