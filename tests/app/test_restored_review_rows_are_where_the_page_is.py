"""The rows chosen in the Review list at quit, chosen again at the next start, are where the page is: it is
brought to them, as the reviewer left them, not to the run's first mistake (`show_first_error` scrolled there while
the rows came back elsewhere, the choice and the page at odds). So at a start that reopens Review and places the
page itself, and at the first F6 of a start in labelling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.settings import Settings
from recordlens.core.records import MATCHED
from recordlens.core.store.project import open_project
from tests.app.test_review_rows_after_restart import chosen, rows_of
from tests.app.test_review_start_keeps_where_it_was_left import PAGE, TRUTH, restarted
from tests.app.window_helpers import imported_project, key, open_window

pytestmark = pytest.mark.app

TENTH = "/body[1]/ul[1]/li[10]"  # a matched record, far above the run's first mistake (the 50th record missed)
FIFTIETH = "/body[1]/ul[1]/li[50]"


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """One tall page of 60 records, labelled, and a run that misses the 50th and the 55th."""
    folder = imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps(TRUTH)})
    with open_project(folder) as project:
        run = project.runs.add("handmade")
        project.runs.add_predictions(run, {"1": [r for n, r in enumerate(TRUTH, 1) if n not in (50, 55)]})
        project.runs.finish(run)
    return folder


def left_on_the_tenth_row(qtbot, folder: Path, settings_file: Path, *, back_to_labelling: bool) -> None:
    """A session that reviews run 1, chooses the 10th record's row (a click: the page comes to it) and quits, in
    Review or back in labelling."""
    window = open_window(folder, settings_file, qtbot=qtbot)
    try:
        window.start_review(1)
        qtbot.waitUntil(lambda: window.reviewing.active() and window.review is not None, timeout=20_000)
        window.page_view.wait_until_drawn()
        records = window.review_panel.records
        records.setCurrentRow(rows_of(window, MATCHED)[9])
        window.reviewing.on_review_record(window.review_panel.current_index())
        qtbot.waitUntil(lambda: window.page_view.top_in_view(TENTH) is not None, timeout=10_000)
        if back_to_labelling:
            key(window, "F6")
    finally:
        window.close()


def in_view_at_rest(qtbot, window: MainWindow) -> tuple[bool, bool]:
    """Once the page has stopped moving: whether the 10th record shows in the view, and whether the 50th does."""
    window.page_view.wait_until_drawn()
    last: list[int] = []

    def still() -> bool:
        last.append(window.page_view.scroll_y)
        return len(last) > 3 and len(set(last[-4:])) == 1

    qtbot.waitUntil(still, timeout=10_000)
    view = window.page_view
    return view.top_in_view(TENTH) is not None, view.top_in_view(FIFTIETH) is not None


def test_the_first_f6_after_a_start_brings_the_page_to_the_rows_it_chooses_again(qtbot, tmp_path, project_dir):
    settings_file = tmp_path / "settings.json"
    left_on_the_tenth_row(qtbot, project_dir, settings_file, back_to_labelling=True)
    window = restarted(qtbot, project_dir, settings_file)
    try:
        window.wait_until_drawn()
        key(window, "F6")
        qtbot.waitUntil(lambda: window.reviewing.active() and window.review is not None, timeout=20_000)
        assert chosen(window)[1] == (MATCHED, (TENTH,))
        assert in_view_at_rest(qtbot, window) == (True, False)
    finally:
        window.close()


def test_a_start_that_reopens_review_without_a_place_kept_brings_the_page_to_the_rows(qtbot, tmp_path,
                                                                                      project_dir):
    """The quit kept the rows but no scroll of the page (a settings file of an earlier RecordLens, the page not yet
    loaded at the quit): the page is placed by the review, at the rows chosen again."""
    settings_file = tmp_path / "settings.json"
    left_on_the_tenth_row(qtbot, project_dir, settings_file, back_to_labelling=False)
    settings = Settings.load(settings_file)
    settings.remember_selection(str(project_dir.resolve()), "1", [])  # no scroll kept
    settings.save(settings_file)
    window = restarted(qtbot, project_dir, settings_file)
    try:
        qtbot.waitUntil(lambda: window.reviewing.active() and window.review is not None, timeout=20_000)
        assert chosen(window)[1] == (MATCHED, (TENTH,))
        assert in_view_at_rest(qtbot, window) == (True, False)
    finally:
        window.close()

