"""The text browser's history is the episode's own: GoBack on an episode's first page does nothing, as in the app's
browser, however many episodes the same browser ran before."""

from __future__ import annotations

from recordlens.core.agent.actions import Step
from recordlens.core.agent.sites import load_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.resource_files import resource_path

SITE = load_site(resource_path("agent", "demo-site"))
HOME = "https://papers.example.org/"


def test_go_back_on_an_episodes_first_page_stays_there() -> None:
    browser = HtmlSiteBrowser(SITE)
    browser.open(HOME)
    about = next(e for e in browser.observe().elements if e.text == "About")
    browser.perform(Step("click", about))
    assert browser.url != HOME
    second_start = browser.url
    browser.open(second_start)  # the next episode starts where the last one ended
    browser.perform(Step("go_back"))
    assert browser.url == second_start  # not the last episode's page
    browser.open(HOME)  # nor the page the next episode's open left
    browser.go_back()
    assert browser.url == HOME
