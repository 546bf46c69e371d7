"""A field inside its <label> is named by the label's own text, as Chromium names it: a list was named with all its
options ("Colour Red Blue" here, "Colour RedBlue" in the Qt browser) where Chromium's accessibility tree says
"Colour", and a text area with its text. The Qt browser's names are checked against the same list
(tests/app/test_qt_browser_label_names.py). Runs record the rule (`omits_labelled_field_from_label`), so that runs
made before it can be told apart."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.loop import LOOP_RULES, AgentSettings, describe_elements, run_episode
from recordlens.core.agent.model import Task
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from tests.core.labels_page import HOME, NAMES, PASSWORD_TEXTS, PASSWORDS, labels_site
from tests.demo_agent import PromptsKept


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


def test_a_password_s_value_is_in_no_name_text_or_prompt(tmp_path: Path) -> None:
    """A password field's value inside another field's label became that field's name ("Word secret99"), and the
    field's own text was its value: both went into the prompt sent to the model. Chromium reads a bullet for each
    character, and so do both browsers now."""
    browser = HtmlSiteBrowser(labels_site(tmp_path))
    browser.open(HOME)
    elements = browser.observe().elements
    assert [e.text for e in elements if e.text.startswith("\u2022")] == list(PASSWORD_TEXTS)
    model = PromptsKept()
    run_episode(Task(id="t", instruction="Sign in.", answer="done", start_url=HOME), browser, model,
                AgentSettings(step_budget=1, send_screenshot=False))
    assert "Word \u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022" in model.prompts[0]
    assert not [secret for secret in PASSWORDS if secret in model.prompts[0] or any(
        secret in e.name or secret in e.text for e in elements)]


def test_hidden_text_in_a_label_adds_nothing(tmp_path: Path) -> None:
    """As the markup tells it: `hidden`, an own style's visibility: hidden, aria-hidden; a hidden label names
    nothing (Chromium: "First name", "Amount", "")."""
    browser = HtmlSiteBrowser(labels_site(tmp_path))
    browser.open(HOME)
    names = [e.name for e in browser.observe().elements]
    assert names[14:17] == ["First name", "Amount", ""]


def test_aria_labelledby_leaves_out_the_hidden_parts_of_an_element_on_show(tmp_path: Path) -> None:
    """Its text was the element's every word ("Full x * y name"); Chromium says "Full name". An element that is
    hidden itself is read whole, hidden parts too, as Chromium reads it ("Secret bold z")."""
    browser = HtmlSiteBrowser(labels_site(tmp_path))
    browser.open(HOME)
    names = [e.name for e in browser.observe().elements]
    assert names[17:19] == ["Full name", "Secret bold z"]


def test_what_the_markup_keeps_from_view_is_not_numbered(tmp_path: Path) -> None:
    """Links and fields hidden by their own style (visibility: hidden or collapse, opacity 0) or inside an element
    the markup hides (display: none, visibility: hidden, a closed dialog) were numbered here, where the Qt browser
    numbers none of them; a link visible again inside an invisible element is numbered by both."""
    browser = HtmlSiteBrowser(labels_site(tmp_path))
    browser.open(HOME)
    links = [e.name for e in browser.observe().elements if e.role == "link"]
    assert links == ["Shown"]
