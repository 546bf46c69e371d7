"""An edit brings only its page's row of the page list up to date: accept, reject and undo change the row's counts,
mark and tooltip in place, without the list read from the project again nor rebuilt (at 2,000 pages every key
took 0.3 s when each edit rebuilt it). The rows then read as a rebuild would make them, the filter, the search and
the page on show included."""

from __future__ import annotations

import dataclasses
import random

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.labelling.page_list import ALL, PageList
from recordlens.core.store import PAGE_STATUSES, PageInfo
from recordlens.core.store.project import Project
from tests.app.demo_project import ITEM, MDR
from tests.app.window_helpers import key

pytestmark = pytest.mark.app


def rows(page_list: PageList) -> list[tuple[str, str, str]]:
    """Each listed row: the page's name, its text and its tooltip."""
    items = [page_list.list.item(k) for k in range(page_list.list.count())]
    return [(page_list.names()[k], item.text(), item.toolTip()) for k, item in enumerate(items)]


def row_of(page_list: PageList, name: str) -> str:
    return dict((row[0], row[1]) for row in rows(page_list))[name]


def test_accept_reject_and_undo_update_the_pages_row_in_place(qtbot, window: MainWindow, monkeypatch):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    ids = [window.project.add_record("2", [ITEM.format(k)], MDR).record.id for k in (1, 2)]
    window.refresh_pages()  # the proposals, stored by the test, listed as the window lists the project
    window.reload_labels([ids[0]])
    page_list = window.page_list
    assert row_of(page_list, "2").endswith("2 proposed")
    items = [page_list.list.item(k) for k in range(page_list.list.count())]
    page_one = row_of(page_list, "1")
    fills, reads = [], []
    fill, pages = PageList._fill, Project.pages
    monkeypatch.setattr(PageList, "_fill", lambda self, *a, **k: (fills.append(1), fill(self, *a, **k))[1])
    monkeypatch.setattr(Project, "pages", lambda self, *a, **k: (reads.append(1), pages(self, *a, **k))[1])

    key(window, "A")
    assert row_of(page_list, "2").endswith("1 accepted · 1 proposed")
    window.select_records([ids[1]])
    key(window, "R")
    assert row_of(page_list, "2").endswith("1 accepted · 1 rejected")
    key(window, "Ctrl+Z")
    assert row_of(page_list, "2").endswith("1 accepted · 1 proposed")
    key(window, "Ctrl+Z")
    assert row_of(page_list, "2").endswith("2 proposed")
    key(window, "Ctrl+Shift+Z")
    assert row_of(page_list, "2").endswith("1 accepted · 1 proposed")
    assert [label.status for label in window.project.labels("2")] == ["accepted", "proposed"]

    assert fills == [] and reads == []  # neither rebuilt nor read whole
    assert [page_list.list.item(k) for k in range(page_list.list.count())] == items  # the very same rows
    assert row_of(page_list, "1") == page_one and page_list.current_name() == "2"
    shown, progress = rows(page_list), page_list.progress_label.text()
    window.refresh_pages()  # what a rebuild makes of the project as it now is: the same
    assert rows(page_list) == shown and page_list.progress_label.text() == progress


def test_a_page_imported_elsewhere_with_labels_has_the_list_read_again(qtbot, window: MainWindow, monkeypatch):
    """The rows an edit refreshes are those of the pages with history since the list was read: one the list does
    not hold (imported elsewhere meanwhile, its labels with it) has the whole list read again, as before."""
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    proposal = window.project.add_record("2", [ITEM.format(1)], MDR).record.id
    window.refresh_pages()
    window.reload_labels([proposal])
    snapshot = window.project.page("2")
    window.project.add_page("3", snapshot.snapshot, snapshot.suffix, 1)  # as an import elsewhere would
    window.project.add_records("3", [[ITEM.format(1)]], MDR)
    key(window, "A")
    assert window.page_list.all_names() == ["1", "2", "3"]
    assert row_of(window.page_list, "2").endswith("1 accepted")


def page(name: str, status: str, proposed: int = 0) -> PageInfo:
    return PageInfo(name=name, status=status, url=None, title=f"title {name}", charset=None, snapshot="0" * 64,
                    suffix=".html", source=None, warnings=(), imported_at="", updated_at="", proposed=proposed)


@pytest.fixture
def two_lists(qtbot) -> tuple[PageList, PageList]:
    lists = PageList(), PageList()
    for widget in lists:
        qtbot.addWidget(widget)
    return lists


def test_rows_updated_in_place_read_as_a_rebuild_under_any_filter_search_and_page_on_show(two_lists):
    """One list brought up to date in place (`update_pages`), the other rebuilt from every page (`set_pages`) after
    each of a seeded series of edits, page changes, filters and searches: they list the same rows alike."""
    edited, rebuilt = two_lists
    chance = random.Random(7)
    pages = [page(str(n), chance.choice(PAGE_STATUSES)) for n in range(1, 13)]
    current = "1"
    for widget in two_lists:
        widget.set_pages(pages, current)
    for _ in range(300):
        roll = chance.random()
        if roll < 0.1:
            status = chance.choice([ALL, *PAGE_STATUSES])
            for widget in two_lists:
                widget.status_filter.setCurrentIndex(widget.status_filter.findData(status))
        elif roll < 0.15:
            search = chance.choice(["", "title 1", "2"])
            for widget in two_lists:
                widget.search.setText(search)
        elif roll < 0.35 and edited.names():
            current = chance.choice(edited.names())  # another page opened: the window selects it
            for widget in two_lists:
                widget.select(current)
        changed = sorted(chance.sample(range(len(pages)), chance.choice([1, 1, 2])))
        for k in changed:
            pages[k] = dataclasses.replace(pages[k], status=chance.choice(PAGE_STATUSES),
                                           proposed=chance.randrange(4))
        assert edited.update_pages([pages[k] for k in changed], current)
        rebuilt.set_pages(pages, current)
        assert rows(edited) == rows(rebuilt)
        assert edited.current_name() == rebuilt.current_name()
        assert edited.progress_label.text() == rebuilt.progress_label.text()
        assert edited.progress_bar.value() == rebuilt.progress_bar.value()


def test_a_page_the_list_does_not_hold_is_left_to_the_caller(two_lists):
    page_list, _ = two_lists
    page_list.set_pages([page("1", "new")], "1")
    assert not page_list.update_pages([page("1", "proposed"), page("2", "new")], "1")
    assert page_list.all_names() == ["1"] and row_of(page_list, "1").startswith("○")  # nothing changed
