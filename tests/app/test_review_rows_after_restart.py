"""The rows chosen in the Review list (a run against the labels: the pairs the reviewer was on) at quit are chosen
again at the next start, as the records selected in labelling are: real restarts of the window on the same project
and settings file. A row whose record is no longer in the page's review is not chosen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.labelling.review_panel import DATA_ROLE
from recordlens.annotator.settings import ReviewRows, Settings
from recordlens.core.records import MATCHED, MISSED
from recordlens.core.store.project import Provenance, open_project
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

ITEMS = 12
PAGE = ("<!doctype html><html><head><meta charset='utf-8'><title>list</title></head><body><ul>"
        + "".join(f"<li>Item number {n}</li>" for n in range(1, ITEMS + 1)) + "</ul></body></html>")
TRUTH = [[f"/body[1]/ul[1]/li[{n}]"] for n in range(1, ITEMS + 1)]
MISSES = (5, 9)  # the run's missed records: the rest are matched


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """One page of 12 records, labelled, and a run that misses the 5th and the 9th."""
    folder = imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps(TRUTH)})
    with open_project(folder) as project:
        run = project.runs.add("handmade")
        project.runs.add_predictions(run, {"1": [r for n, r in enumerate(TRUTH, 1) if n not in MISSES]})
        project.runs.finish(run)
    return folder


def restarted(qtbot, folder: Path, settings_file: Path) -> MainWindow:
    """The window as the next start opens it, in Review when the last quit was, its page's review drawn."""
    window = open_window(folder, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    qtbot.waitUntil(lambda: window.reviewing.active() and window.review is not None, timeout=20_000)
    window.page_view.wait_until_drawn()
    return window


def rows_of(window: MainWindow, kind: str) -> list[int]:
    """The Review list's rows of a class, in list order."""
    records = window.review_panel.records
    return [row for row in range(records.count())
            if window.review.records[records.item(row).data(DATA_ROLE)].kind == kind]


def chosen(window: MainWindow) -> tuple[list[tuple[str, tuple[str, ...]]], tuple[str, tuple[str, ...]] | None]:
    """The rows chosen in the Review list (kind and XPaths of each, in list order) and the current one's."""
    choice = window.reviewing.choice()
    assert choice is not None
    current = None if choice.current is None else (choice.current.kind, choice.current.xpaths)
    return [(r.kind, r.xpaths) for r in choice.chosen], current


def test_the_review_rows_chosen_at_quit_are_chosen_again_at_the_next_start(qtbot, tmp_path, project_dir):
    settings_file = tmp_path / "settings.json"
    first = open_window(project_dir, settings_file, qtbot=qtbot)
    try:
        first.start_review(1)
        qtbot.waitUntil(lambda: first.reviewing.active() and first.review is not None, timeout=20_000)
        first.page_view.wait_until_drawn()
        missed, matched = rows_of(first, MISSED), rows_of(first, MATCHED)
        assert len(missed) == 2 and len(matched) == ITEMS - 2
        records = first.review_panel.records
        records.setCurrentRow(matched[3])  # a matched pair, then both missed rows added to it (Ctrl+click)
        for row in missed:
            records.item(row).setSelected(True)
        records.setCurrentRow(missed[1], records.selectionModel().SelectionFlag.NoUpdate)
        left = chosen(first)
        assert len(left[0]) == 3 and left[1] is not None and left[1][0] == MISSED
    finally:
        first.close()

    second = restarted(qtbot, project_dir, settings_file)
    try:
        assert chosen(second) == left
        # Another row chosen: what this session's quit keeps.
        second.review_panel.records.setCurrentRow(rows_of(second, MATCHED)[0],
                                                  second.review_panel.records.selectionModel().SelectionFlag
                                                  .ClearAndSelect)
        now = chosen(second)
        assert now != left
    finally:
        second.close()

    third = restarted(qtbot, project_dir, settings_file)
    try:
        assert chosen(third) == now
    finally:
        third.close()

    # The true record of the pair kept is deleted meanwhile: no row is that pair any more, none is chosen.
    with open_project(project_dir) as project:
        gone = next(label for label in project.labels("1") if list(label.xpaths) == list(now[0][0][1]))
        project.delete(gone.id, Provenance.person("someone"))
    fourth = restarted(qtbot, project_dir, settings_file)
    try:
        assert chosen(fourth) == ([], None)
    finally:
        fourth.close()


def reviewed(qtbot, window: MainWindow) -> MainWindow:
    """`window`, started in labelling, in Review on the run, its page's review drawn."""
    assert not window.reviewing.active()
    window.start_review(1)
    qtbot.waitUntil(lambda: window.reviewing.active() and window.review is not None, timeout=20_000)
    window.page_view.wait_until_drawn()
    return window


def choose_row(window: MainWindow, row: int) -> tuple[list[tuple[str, tuple[str, ...]]],
                                                      tuple[str, tuple[str, ...]] | None]:
    """That row alone chosen in the Review list: what is chosen then."""
    records = window.review_panel.records
    records.setCurrentRow(row, records.selectionModel().SelectionFlag.ClearAndSelect)
    return chosen(window)


def test_a_quit_keeps_the_rows_of_a_review_left_for_labelling_and_forgets_them_with_none_drawn(
        qtbot, tmp_path, project_dir):
    """Rows chosen, then Review left for labelling before the quit: those the next start chooses, not what an
    earlier session chose. A session that draws no review forgets them: no later start chooses them again."""
    settings_file = tmp_path / "settings.json"
    first = open_window(project_dir, settings_file, qtbot=qtbot)
    try:
        reviewed(qtbot, first)
        fresh = chosen(first)  # what Review chooses of itself, nothing kept
        key = first.project_key()
        earlier = choose_row(first, rows_of(first, MISSED)[0])
    finally:
        first.close()  # in Review: its rows kept

    second = restarted(qtbot, project_dir, settings_file)
    try:
        assert chosen(second) == earlier
        later = choose_row(second, rows_of(second, MATCHED)[4])
        assert later not in (earlier, fresh)
        second.tabs.setCurrentWidget(second.record_panel)  # back to labelling, the review's rows still chosen
        assert not second.reviewing.active()
    finally:
        second.close()
    assert Settings.load(settings_file).review_rows(key) is not None

    third = open_window(project_dir, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    try:
        assert chosen(reviewed(qtbot, third)) == later  # not the rows the first session chose
        third.tabs.setCurrentWidget(third.record_panel)
    finally:
        third.close()

    fourth = open_window(project_dir, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    fourth.close()  # no review drawn: no rows kept
    assert Settings.load(settings_file).review_rows(key) is None

    fifth = open_window(project_dir, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    try:
        assert chosen(reviewed(qtbot, fifth)) == fresh
    finally:
        fifth.close()


def test_kept_review_rows_read_from_a_damaged_or_foreign_value_are_none(tmp_path):
    settings = Settings()
    project = str(tmp_path)
    assert settings.review_rows(project) is None
    settings.remember_review(project, 3, [MATCHED, MISSED], on_show=True)
    rows = ReviewRows(3, "1", ((MISSED, ("/a",), ("/a",)),), (MISSED, ("/a",), ("/a",)))
    settings.remember_review_rows(project, rows)
    settings.remember_review(project, 3, [MISSED], on_show=False)  # the classes shown change: the rows stay
    assert settings.review_rows(project) == rows and settings.review_classes(project) == [MISSED]
    path = tmp_path / "settings.json"
    settings.save(path)
    assert Settings.load(path).review_rows(project) == rows
    for damaged in ({"rows": "x"}, {"rows": {"run": True, "page": "1", "chosen": []}},
                    {"rows": {"run": 3, "page": "1", "chosen": [["missed", "/a", []]]}},
                    {"rows": {"run": 3, "page": 1, "chosen": []}}):
        settings.reviews = json.dumps({project: {"run": 3, **damaged}})
        assert settings.review_rows(project) is None, damaged
