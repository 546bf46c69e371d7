"""A field inside its <label> is named by the label's own text, as Chromium names it: a list was named with all its
options ("Colour Red Blue" here, "Colour RedBlue" in the Qt browser) where Chromium's accessibility tree says
"Colour", and a text area with its text. The Qt browser's names are checked against the same list
(tests/app/test_qt_browser_label_names.py). Runs record the rule (`omits_labelled_field_from_label`), so that runs
made before it can be told apart."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.loop import LOOP_RULES, describe_elements
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from tests.core.labels_page import HOME, NAMES, labels_site


def test_a_label_names_the_field_it_wraps_without_the_fields_content(tmp_path: Path) -> None:
    browser = HtmlSiteBrowser(labels_site(tmp_path))
    browser.open(HOME)
    elements = browser.observe().elements
    assert [(e.role, e.name) for e in elements] == NAMES
    assert describe_elements(elements).splitlines()[:3] == [
        '[1] combobox: Blue (named "Colour")', '[2] textbox: Ann (named "Name")',
        '[3] textbox: hello notes (named "Notes")']


def test_runs_record_the_rule() -> None:
    assert LOOP_RULES["omits_labelled_field_from_label"] is True
