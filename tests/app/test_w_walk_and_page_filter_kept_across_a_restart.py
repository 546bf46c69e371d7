"""A reviewer who quits half way through W's walk, the page list narrowed ("show pages", its search), finds both as
left at the next start: the list filtered and searched as it was, and W going on from the page after the last one
it opened, not from the run's worst page again. And W never clears the list's filter to reach its page: the page
is listed while on show, as a page whose status leaves the filter is, the filter as the user set it (a verifier
found it reset to "all pages", unsaid). Real restarts: the window closed, a new one opened on the same project and
settings file."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.labelling.page_list import ALL
from recordlens.annotator.settings import Settings
from recordlens.core.store import score_stored_run
from recordlens.core.store.db import Provenance
from recordlens.core.store.project import open_project
from tests.app.demo_project import ITEM, LIST_PAGE
from tests.app.window_helpers import imported_project, key, open_window

pytestmark = pytest.mark.app

SCORED = ("1", "2", "3", "4")  # labelled, the run finding 4, 3, 2 and 1 of their 4 items: W walks 4, 3, 2, 1
NEW = ("5", "6")  # not labelled yet


@pytest.fixture
def run_project(tmp_path: Path) -> tuple[Path, int]:
    """Pages 1 to 4 labelled (1 and 2 reviewed since) and scored by a run, 5 and 6 new; and the run's id."""
    folder = imported_project(tmp_path, {f"html/{name}.html": LIST_PAGE.replace("Products", f"Products {name}")
                                         for name in (*SCORED, *NEW)})
    items = [[ITEM.format(k)] for k in range(1, 5)]
    with open_project(folder) as project:
        person = Provenance.person("tester")
        for name in SCORED:
            project.add_records(name, items, person, status="accepted")
            project.set_status(name, "reviewed" if name in ("1", "2") else "labelled", person)
        run = project.runs.add("handmade")
        project.runs.add_predictions(run, {name: items[:5 - int(name)] for name in SCORED})
        project.runs.finish(run)
        score_stored_run(project, run)
    return folder, run


def first_start(qtbot, folder: Path, settings_file: Path) -> MainWindow:
    return open_window(folder, settings_file, qtbot=qtbot)


def restarted(qtbot, folder: Path, settings_file: Path) -> MainWindow:
    """The window as the next start opens it: with the settings the last quit wrote, in Review if it was quit
    there."""
    window = open_window(folder, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    qtbot.waitUntil(window.reviewing.active, timeout=20_000)
    return window


def show_pages(window: MainWindow, status: str) -> None:
    """The user chooses a status in the page list's "show pages"."""
    pages = window.page_list
    pages.status_filter.setCurrentIndex(pages.status_filter.findData(status))


def page_after(window: MainWindow, sequence: str) -> str | None:
    key(window, sequence)
    return window.page_name


def filter_shown(window: MainWindow) -> object:
    return window.page_list.status_filter.currentData()


def test_w_goes_on_after_a_restart_from_the_page_after_the_last_it_opened(qtbot, tmp_path, run_project):
    folder, run = run_project
    settings_file = tmp_path / "settings.json"
    first = first_start(qtbot, folder, settings_file)
    try:
        first.start_review(run)
        assert page_after(first, "W") == "4"
        assert page_after(first, "W") == "3"
    finally:
        first.close()

    second = restarted(qtbot, folder, settings_file)
    try:
        assert second.page_name == "3"  # back on the page it was left on
        assert page_after(second, "W") == "2"  # the walk goes on: not back to the worst page
        assert page_after(second, "W") == "1"
    finally:
        second.close()

    third = restarted(qtbot, folder, settings_file)
    try:
        assert page_after(third, "W") == "4"  # round again from the worst, as within one session
    finally:
        third.close()


def test_the_page_list_comes_back_filtered_and_searched_as_it_was_left(qtbot, tmp_path, run_project):
    folder, _ = run_project
    settings_file = tmp_path / "settings.json"
    first = first_start(qtbot, folder, settings_file)
    try:
        show_pages(first, "labelled")
        first.page_list.search.setFocus()
        QTest.keyClicks(first.page_list.search, "4")
        QTest.keyClick(first.page_list.search, Qt.Key.Key_Return)  # opens the page found
        assert first.page_name == "4" and first.page_list.names() == ["4"]
    finally:
        first.close()

    second = open_window(folder, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    try:
        assert filter_shown(second) == "labelled" and second.page_list.search.text() == "4"
        assert second.page_list.names() == ["4"] and second.page_name == "4"
        assert second.page_list.current_name() == "4"
        show_pages(second, ALL)
        second.page_list.search.clear()
    finally:
        second.close()

    third = open_window(folder, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    try:
        assert filter_shown(third) == ALL and third.page_list.search.text() == ""
        assert third.page_list.names() == [*SCORED, *NEW]
    finally:
        third.close()


def test_w_reaches_its_page_under_the_filter_and_leaves_the_filter_as_set(qtbot, tmp_path, run_project):
    folder, run = run_project
    first = first_start(qtbot, folder, tmp_path / "settings.json")
    try:
        first.start_review(run)
        show_pages(first, "new")
        assert first.page_list.names() == list(NEW)
        assert page_after(first, "W") == "4"  # labelled: not among the pages the filter shows
        assert filter_shown(first) == "new"  # the user's filter stays
        assert first.page_list.names() == ["4", *NEW] and first.page_list.current_name() == "4"  # listed while on show
        assert page_after(first, "W") == "3"
        assert filter_shown(first) == "new" and first.page_list.names() == ["3", *NEW]
        assert page_after(first, "PgDown") == "5"  # the page keys go through the pages the filter shows
    finally:
        first.close()


def test_a_walk_quit_under_a_filter_goes_on_under_it(qtbot, tmp_path, run_project):
    """The whole of it: quit mid-walk with the list showing new pages only; the next start shows W's page among them
    (it was on show), the filter as it was, and W goes on from there under it."""
    folder, run = run_project
    settings_file = tmp_path / "settings.json"
    first = first_start(qtbot, folder, settings_file)
    try:
        first.start_review(run)
        show_pages(first, "new")
        assert page_after(first, "W") == "4"
    finally:
        first.close()

    second = restarted(qtbot, folder, settings_file)
    try:
        assert second.page_name == "4" and filter_shown(second) == "new"
        assert second.page_list.names() == ["4", *NEW] and second.page_list.current_name() == "4"
        assert page_after(second, "W") == "3"
        assert filter_shown(second) == "new" and second.page_list.names() == ["3", *NEW]
    finally:
        second.close()
