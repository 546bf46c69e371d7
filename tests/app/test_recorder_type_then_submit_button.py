"""Typing into a search field and clicking the form's button (no Enter) recorded the click on the next page:
`Click [?]`, the results page's URL and screenshot, a box on empty space, and a replay that failed at that step.
The blur-committed Type and the click were handled together, and handling the Type waited for the page, which
the click had already sent on. The click is now a step on the page it was made on, with its number."""

from __future__ import annotations

import pytest

from recordlens.annotator.agent.recorder import Recorder
from recordlens.core.agent.actions import format_action
from recordlens.core.agent.model import Task
from tests.app.agent_helpers import click, element, shown_browser, type_text
from tests.app.agent_site import HOME, SEARCH_LAMP, make_site

pytestmark = pytest.mark.app


@pytest.fixture
def browser(qapp, tmp_path):
    make_site(tmp_path / "site")
    yield from shown_browser(tmp_path / "site", (1000, 700))


@pytest.mark.timeout(180)
def test_typing_then_clicking_the_forms_button_records_the_click_where_it_was_made(qtbot, browser) -> None:
    recorder = Recorder(browser, actor="person:test")
    recorder.start(Task(id="shop-1", instruction="Find the desk lamp", answer="x", start_url=HOME))
    search = element(recorder.observation, "Search products")
    go = element(recorder.observation, "Go")
    type_text(browser, search, "desk lamp", enter=False)
    click(browser, go)
    qtbot.waitUntil(lambda: len(recorder.steps) >= 2, timeout=10_000)
    qtbot.waitUntil(lambda: browser.url == SEARCH_LAMP, timeout=10_000)
    typed, clicked = recorder.steps
    assert format_action(typed) == f"Type [{search.label}]; desk lamp"
    assert format_action(clicked) == f"Click [{go.label}]"
    assert clicked.url == HOME and clicked.target.xpath == go.xpath and clicked.target.name == "Go"
    assert clicked.screenshot_before == typed.screenshot_after
    assert clicked.screenshot_after and clicked.screenshot_after != clicked.screenshot_before
    recorder.stop()
