"""A start that reopens in Review (the app was quit with Review on show) keeps the promise of "where you left it"
too: the records selected at the last quit are selected again and the page is scrolled as it was, also after
going back to labelling (F6); and what is selected and scrolled in that session is what its own quit keeps (a
verifier's finding: such a session restored nothing, and its quit wrote back the older session's place). Real
restarts of the window on the same project and settings file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.settings import Settings
from recordlens.core.store.project import open_project
from tests.app.window_helpers import imported_project, key, open_window

pytestmark = pytest.mark.app

ITEMS = 60
PAGE = ("<!doctype html><html><head><meta charset='utf-8'><title>tall</title>"
        "<style>li{height:90px;font-size:20px}</style></head><body><ul>"
        + "".join(f"<li>Item number {n}</li>" for n in range(1, ITEMS + 1)) + "</ul></body></html>")
TRUTH = [[f"/body[1]/ul[1]/li[{n}]"] for n in range(1, ITEMS + 1)]


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """One tall page of 60 records, labelled, and a run that misses the 50th and the 55th."""
    folder = imported_project(tmp_path, {"html/1.html": PAGE, "html/2.html": PAGE.replace("tall", "other"),
                                         "gt/1.json": json.dumps(TRUTH)})
    with open_project(folder) as project:
        run = project.runs.add("handmade")
        project.runs.add_predictions(run, {"1": [r for n, r in enumerate(TRUTH, 1) if n not in (50, 55)]})
        project.runs.finish(run)
    return folder


def restarted(qtbot, folder: Path, settings_file: Path) -> MainWindow:
    """The window on `folder` as the next start opens it: with the settings the last quit wrote."""
    return open_window(folder, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)


def kept(settings_file: Path, folder: Path) -> tuple[list[int], int | None]:
    """The records selected and the scroll the last quit kept for page 1."""
    settings = Settings.load(settings_file)
    key_ = str(folder.resolve())
    return settings.last_selection(key_, "1"), settings.last_scroll(key_, "1")


def scrolled_to(qtbot, window: MainWindow, y: int) -> None:
    window.page_view.scroll_to_y(y)
    qtbot.waitUntil(lambda: window.page_view.scroll_y == y, timeout=10_000)


def test_a_start_in_review_restores_the_last_quits_place_and_its_own_quit_keeps_its_own(qtbot, tmp_path,
                                                                                         project_dir):
    settings_file = tmp_path / "settings.json"
    # Session 1, labelling: record 40 selected, the page scrolled; then Review, and quit there.
    first = open_window(project_dir, settings_file, qtbot=qtbot)
    try:
        first.wait_until_drawn()
        chosen = first.labels[39].id
        first.select_records([chosen])
        qtbot.waitUntil(lambda: first.page_view.scroll_y > 0, timeout=10_000)
        key(first, "F6")
        assert first.reviewing.active()
        # Review places the page at the run's first error once its records are drawn: the person's scroll after it
        first.wait_until_drawn()
        scrolled_to(qtbot, first, 2345)
    finally:
        first.close()
    assert kept(settings_file, project_dir) == ([chosen], 2345)

    # Session 2 opens in Review, the page scrolled as it was and record 40 selected; so too back in labelling.
    second = restarted(qtbot, project_dir, settings_file)
    try:
        qtbot.waitUntil(second.reviewing.active, timeout=10_000)
        qtbot.waitUntil(lambda: second.page_view.scroll_y == 2345, timeout=10_000)
        assert second.record_panel.selected_ids() == [chosen]
        key(second, "F6")
        assert not second.reviewing.active()
        second.wait_until_drawn()
        assert second.record_panel.selected_ids() == [chosen]
        assert second.page_view.scroll_y == 2345
        assert [r["selected"] for r in second.page_view._records].count(True) == 1
        # Another record and another place, then Review again and a scroll there: what its quit keeps.
        other = second.labels[9].id
        second.select_records([other])
        key(second, "F6")
        assert second.reviewing.active()
        second.wait_until_drawn()
        scrolled_to(qtbot, second, 777)
    finally:
        second.close()
    assert kept(settings_file, project_dir) == ([other], 777)

    # Session 3 (in Review again) comes back to session 2's place, and its quit from labelling keeps its own.
    third = restarted(qtbot, project_dir, settings_file)
    try:
        qtbot.waitUntil(third.reviewing.active, timeout=10_000)
        qtbot.waitUntil(lambda: third.page_view.scroll_y == 777, timeout=10_000)
        assert third.record_panel.selected_ids() == [other]
        key(third, "F6")
        third.select_records([])
        scrolled_to(qtbot, third, 1500)
    finally:
        third.close()
    assert kept(settings_file, project_dir) == ([], 1500)
