"""Removing a page cleared the page list's filter and search without saying so, the filter kept across restarts
(settings page_filters) gone with them. They stay as the user left them: the page opened next is the next the list
shows, else the project's next, listed while on show (`PageList.list_on_show`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.store import Provenance
from recordlens.core.store.project import open_project
from tests.app.demo_project import ITEM, LIST_PAGE
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

PAGES = ("1", "2", "3", "4")
LABELLED = ("1", "3")


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Four list pages, 1 and 3 marked labelled; the list filtered to the labelled ones, page 1 on show; removing
    a page asks nothing."""
    folder = imported_project(tmp_path, {f"html/{name}.html": LIST_PAGE.replace("Products", f"Products {name}")
                                          for name in PAGES})
    with open_project(folder) as project:
        person = Provenance.person("tester")
        for name in LABELLED:
            project.add_records(name, [[ITEM.format(1)]], person, status="accepted")
            project.set_status(name, "labelled", person)
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    monkeypatch.setattr(win, "ask", lambda question, details: True)
    pages = win.page_list
    pages.status_filter.setCurrentIndex(pages.status_filter.findData("labelled"))
    win.open_page("1")
    assert pages.names() == ["1", "3"] and win.page_name == "1"
    yield win
    win.close()


def shown_status(window) -> str | None:
    return window.page_list.narrowing()[0]


def test_removing_a_page_keeps_the_filter_and_opens_the_next_page_it_lists(window) -> None:
    window.actions_by_name["remove_page"].trigger()
    assert not window.project.has_page("1")
    assert window.page_name == "3"  # the next labelled page, not the project's next (2, new)
    assert shown_status(window) == "labelled" and window.page_list.names() == ["3"]
    assert window.settings.page_filter(window.project_key()) == ("labelled", "")  # for the next start too


def test_the_last_page_the_filter_lists_removed_opens_the_projects_next_listed_while_on_show(window) -> None:
    window.open_page("3")
    window.actions_by_name["remove_page"].trigger()  # page 3
    window.actions_by_name["remove_page"].trigger()  # page 1: the filter lists no other page
    assert window.page_name == "2" and shown_status(window) == "labelled"
    assert window.page_list.names() == ["2"]  # listed while on show
    window.open_page("4")  # opened from elsewhere: listed while on show in its turn, and page 2 no longer
    assert window.page_list.names() == ["4"]
