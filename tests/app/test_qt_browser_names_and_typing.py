"""The Qt browser and core's text browser show the agent the same names, and refuse alike a Type into an element
that is no text field: the Qt browser used to press Enter on a link given `Type [2]; kettle` and follow it, recorded
as a step that worked, where the text browser did nothing; now both fail the step with one message."""

from __future__ import annotations

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.core.agent.actions import Step
from recordlens.core.agent.loop import AgentSettings, run_episode
from recordlens.core.agent.model import Task
from recordlens.core.agent.targets import NotATextFieldError
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from tests.core.names_page import HOME, LINK_REFUSED, NAMES, TypesIntoTheLink, names_site

pytestmark = pytest.mark.app


def test_the_qt_browser_names_fields_as_the_text_browser_and_refuses_typing_into_a_link(qapp, tmp_path):
    site = names_site(tmp_path)
    with QtSiteBrowser(site) as browser:
        browser.open(HOME)
        seen = browser.observe()
        assert [(e.role, e.name) for e in seen.elements] == NAMES
        text = HtmlSiteBrowser(site)
        text.open(HOME)
        assert [(e.role, e.name) for e in seen.elements] == [(e.role, e.name) for e in text.observe().elements]

        with pytest.raises(NotATextFieldError) as refused:
            browser.perform(Step("type", seen.elements[0], "kettle"))
        assert str(refused.value) == LINK_REFUSED
        assert browser.url == HOME  # Enter was not pressed on the link: not followed

        task = Task(id="t", instruction="Find a kettle.", answer="x", start_url=HOME)
        trajectory = run_episode(task, browser, TypesIntoTheLink(), AgentSettings(step_budget=2, send_screenshot=False))
        assert [(s.error, s.url) for s in trajectory.steps] == [(LINK_REFUSED, HOME)] * 2
