"""The app's browser of a snapshot site (QtSiteBrowser, as `agent run` and the agent window use it) shows the same
"not in this snapshot" page as core's text browser for a search the site did not save: it names the searches the
snapshot holds (core: test_a_search_not_saved_says_the_searches_the_snapshot_holds.py)."""

from __future__ import annotations

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.core.agent.actions import Step
from recordlens.core.agent.sites import NOT_IN_SNAPSHOT_TITLE
from tests.app.agent_helpers import DEMO_SITE, HOME

pytestmark = pytest.mark.app


def test_a_query_typed_that_the_site_did_not_save_names_those_it_did(qapp) -> None:  # noqa: ANN001
    with QtSiteBrowser(DEMO_SITE) as browser:
        browser.open(HOME)
        box = next(e for e in browser.observe().elements if e.role == "searchbox")
        browser.perform(Step("type", box, "Graph"))
        shown = browser.observe()
    assert browser.url == "https://papers.example.org/search?q=Graph"
    assert shown.title == NOT_IN_SNAPSHOT_TITLE
    assert "The site holds this address only with the queries saved with it:" in shown.text
    assert "https://papers.example.org/search?q=graph\n" in shown.text
