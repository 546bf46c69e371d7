"""Core's text browser shows the agent what the Qt browser shows: a field wrapped in its <label> is named by it
(`[13] textbox: tea` had no name, the Qt browser and the captured tree say "Search"), and so are fields named by
aria-labelledby, aria-label, title or placeholder, in som.js's order. `Type [n]; text` on an element that is no text
field (a link) was a silent successful no-op here and an Enter that followed the link in the Qt browser: both now
refuse it, a failed step with one message."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.agent.actions import Step
from recordlens.core.agent.loop import AgentSettings, run_episode
from recordlens.core.agent.model import Task
from recordlens.core.agent.targets import NotATextFieldError, Target
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from tests.core.names_page import HOME, LINK_REFUSED, NAMES, TypesIntoTheLink, names_site


def test_fields_and_links_are_named_as_the_qt_browser_names_them(tmp_path: Path) -> None:
    browser = HtmlSiteBrowser(names_site(tmp_path))
    browser.open(HOME)
    assert [(e.role, e.name) for e in browser.observe().elements] == NAMES


def test_typing_into_a_link_or_a_list_is_refused_and_nothing_moves(tmp_path: Path) -> None:
    browser = HtmlSiteBrowser(names_site(tmp_path))
    browser.open(HOME)
    with pytest.raises(NotATextFieldError) as refused:
        browser.perform(Step("type", Target(label=1), "kettle"))
    assert str(refused.value) == LINK_REFUSED
    with pytest.raises(NotATextFieldError, match=r"element \[10\] is a combobox, not a text field"):
        browser.perform(Step("type", Target(label=10), "Name"))
    assert browser.url == HOME and browser.visited == [HOME]
    browser.perform(Step("type", Target(label=3), "kettle"))  # a field wrapped in its label takes the text
    assert browser.url.startswith(HOME + "search?q=kettle&")


def test_the_agent_is_told_its_type_into_a_link_failed(tmp_path: Path) -> None:
    browser = HtmlSiteBrowser(names_site(tmp_path))
    task = Task(id="t", instruction="Find a kettle.", answer="x", start_url=HOME)
    trajectory = run_episode(task, browser, TypesIntoTheLink(), AgentSettings(step_budget=3, max_failures=3))
    assert [s.error for s in trajectory.steps] == [LINK_REFUSED] * 3 and trajectory.stop == "failures"
