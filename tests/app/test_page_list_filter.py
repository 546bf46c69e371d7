"""The page list under a status filter or a search: it keeps the page on show while its own status leaves the filter
(labelling it under "new") and lets it go once another page is on show; a search or a filter the user changes is
obeyed; and its footer says how many pages are shown ("1000 / 1000 labelled" over a list of 7 read as if those 7
were all)."""

from __future__ import annotations

import dataclasses

import pytest

from recordlens.annotator.labelling.page_list import PageList
from recordlens.core.store import PageInfo

pytestmark = pytest.mark.app


def page(name: str, status: str) -> PageInfo:
    return PageInfo(name=name, status=status, url=None, title=f"title {name}", charset=None, snapshot="0" * 64,
                    suffix=".html", source=None, warnings=(), imported_at="", updated_at="")


@pytest.fixture
def page_list(qtbot) -> PageList:
    widget = PageList()
    qtbot.addWidget(widget)
    return widget


def test_the_page_on_show_stays_listed_when_its_status_leaves_the_filter(page_list):
    pages = [page("a", "new"), page("b", "new"), page("c", "labelled")]
    page_list.set_pages(pages, "a")
    page_list.status_filter.setCurrentIndex(page_list.status_filter.findData("new"))
    assert page_list.names() == ["a", "b"]
    labelled = [dataclasses.replace(pages[0], status="proposed"), *pages[1:]]
    page_list.set_pages(labelled, "a")  # records proposed on the page on show: it is no longer new
    assert page_list.names() == ["a", "b"] and page_list.current_name() == "a"
    assert page_list.neighbour("a", 1) == "b"  # PgDn goes on to the next new page
    page_list.set_pages(labelled, "b")  # the user moved on: the list refreshes without it
    assert page_list.names() == ["b"]


def test_a_filter_or_a_search_the_user_changes_is_obeyed(page_list):
    pages = [page("a", "proposed"), page("b", "new")]
    page_list.set_pages(pages, "a")
    page_list.status_filter.setCurrentIndex(page_list.status_filter.findData("new"))
    assert page_list.names() == ["b"]  # chosen by the user: the page on show is not kept
    page_list.set_pages(pages, "a")  # a refresh (an edit saved on the page on show) does not bring it back
    assert page_list.names() == ["b"]
    page_list.status_filter.setCurrentIndex(0)
    page_list.search.setText("title b")
    page_list.set_pages(pages, "a")  # a refresh keeps the page on show only where the search finds it
    assert page_list.names() == ["b"]


def test_a_narrowed_list_says_how_many_of_the_pages_it_shows(page_list):
    pages = [page(str(n), "labelled" if n < 3 else "new") for n in range(1, 11)]
    page_list.set_pages(pages, "1")
    assert page_list.progress_label.text() == "2 / 10 labelled"  # every page shown: nothing more to say
    page_list.search.setText("title 1")  # "title 1" and "title 10"
    assert page_list.names() == ["1", "10"]
    assert page_list.progress_label.text() == "2 / 10 labelled · 2 of 10 shown"
    page_list.search.clear()
    page_list.status_filter.setCurrentIndex(page_list.status_filter.findData("new"))
    assert page_list.progress_label.text() == "2 / 10 labelled · 8 of 10 shown"
    page_list.set_pages(pages, "3")  # a refresh (a save) keeps saying it
    assert page_list.progress_label.text() == "2 / 10 labelled · 8 of 10 shown"
    page_list.show_all()
    assert page_list.progress_label.text() == "2 / 10 labelled"
