"""A snapshot site answers its search form (a GET form) only for the queries saved with it: the demo site holds the
results of its tasks' searches (graph, lattice, ostrava, speech, with their filter pages), and any other query,
"Graph" or an empty box too, showed a "not in this snapshot" page that said only that the URL was not saved, so
that a person (or an agent) replaying the snapshot could not tell a search it never holds from one typed wrong.
That page now names the pages saved at the same address under other queries (as text: the page keeps no element
to act on), so whoever searched knows which searches the snapshot holds."""

from __future__ import annotations

from recordlens.core.agent.actions import Step
from recordlens.core.agent.demo import search_url
from recordlens.core.agent.sites import NOT_IN_SNAPSHOT_TITLE, load_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.resource_files import resource_path

HOME = "https://papers.example.org/"
SAVED = [search_url(query) for query in ("graph", "lattice", "ostrava", "speech")]


def searched(query: str) -> HtmlSiteBrowser:
    """The demo site's browser, `query` typed into its search box on the home page (Enter sends the form)."""
    browser = HtmlSiteBrowser(load_site(resource_path("agent", "demo-site")))
    browser.open(HOME)
    box = next(e for e in browser.observe().elements if e.role == "searchbox")
    browser.perform(Step("type", box, query))
    return browser


def test_a_query_saved_shows_its_results() -> None:
    browser = searched("lattice")
    assert browser.url == search_url("lattice") and browser.observe().title == "Search: lattice — Paperfield"


def test_a_query_not_saved_names_the_searches_the_snapshot_holds() -> None:
    for query in ("quantum gravity", "Graph", ""):
        browser = searched(query)
        shown = browser.observe()
        assert shown.title == NOT_IN_SNAPSHOT_TITLE, query
        assert shown.elements == ()  # named as text: nothing on the page to click
        _, held = shown.text.split("The site holds this address only with the queries saved with it:", 1)
        named = [line for line in held.splitlines() if line.startswith(f"{HOME}search?")]
        assert [url for url in named if url in SAVED] == sorted(SAVED), shown.text
        assert len(named) == 18 and browser.url not in named  # the 4 searches with their filter pages


def test_a_page_not_saved_at_an_address_without_saved_queries_names_none() -> None:
    browser = HtmlSiteBrowser(load_site(resource_path("agent", "demo-site")))
    browser.open(f"{HOME}pdf/2401.00012")
    shown = browser.observe()
    assert shown.title == NOT_IN_SNAPSHOT_TITLE and "queries saved" not in shown.text
