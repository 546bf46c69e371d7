"""History's "When" column: its times name their zone (once, in the column's header; a time in another zone, a
summer time, names its own), and a time earlier than a change made before it (the clock was set back) is
marked and explained, the rows kept in the order the changes were made in."""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from recordlens.annotator.labelling.history_dialog import SET_BACK, HistoryDialog
from recordlens.core.store import Provenance, open_project
from tests.app.window_helpers import imported_project

# Every test in a zone with summer time (NST, NDT in July: `in_newfoundland` of tests/app/conftest.py)
pytestmark = [pytest.mark.app, pytest.mark.usefixtures("in_newfoundland")]

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>List</title></head><body><ul>
<li><b>Camera</b></li><li><b>Lens</b></li><li><b>Tripod</b></li><li><b>Bag</b></li></ul></body></html>"""
ITEM = "/body[1]/ul[1]/li[{}]"
PERSON = Provenance.person("tester")




def history_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, times: list[str], qtbot: QtBot, *,
                 one_step: bool = False) -> tuple[HistoryDialog, list[list[str]], list[str]]:
    """A page imported with one record, then one record added at each of `times` (what the clock said; all in one
    step of work with `one_step`); the History dialog's rows (newest first, the start left out) and their "When"
    tips. The import is made at a time before them all."""
    # The clock patched only meanwhile (not undone with the fixture's time zone, which the dialog reads in)
    with monkeypatch.context() as clock:
        clock.setattr("recordlens.core.store.project.now", lambda: "2026-01-01T12:00:00.000Z")
        folder = imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps([[ITEM.format(1)]])})
    with open_project(folder) as project:
        with monkeypatch.context() as clock, project.one_step("add records") if one_step else nullcontext():
            for k, at in enumerate(times):
                clock.setattr("recordlens.core.store.project.now", lambda at=at: at)
                project.add_record("1", [ITEM.format(k + 2)], PERSON)
        dialog = HistoryDialog()
        qtbot.addWidget(dialog)
        dialog.show_page(project, "1")
    top = [dialog.entries.topLevelItem(r) for r in range(dialog.entries.topLevelItemCount() - 1)]
    return dialog, [[item.text(c) for c in range(2)] for item in top], [item.toolTip(1) for item in top]


def test_history_names_the_zone_of_its_times_once(tmp_path, monkeypatch, qtbot):
    dialog, rows, _ = history_rows(tmp_path, monkeypatch, ["2026-12-05T17:10:13.000Z", "2026-12-05T17:12:40.500Z"],
                                   qtbot)
    assert dialog.entries.headerItem().text(1) == "When (NST)"
    assert [row[1] for row in rows[:2]] == ["2026-12-05 13:42:40", "2026-12-05 13:40:13"]


def test_a_time_in_another_zone_than_the_newest_names_its_own(tmp_path, monkeypatch, qtbot):
    dialog, rows, _ = history_rows(tmp_path, monkeypatch, ["2026-07-05T17:10:13.000Z", "2026-12-05T17:12:40.500Z"],
                                   qtbot)
    assert dialog.entries.headerItem().text(1) == "When (NST)"
    assert [row[1] for row in rows[:2]] == ["2026-12-05 13:42:40", "2026-07-05 14:40:13 NDT"]


def test_a_time_the_clock_set_back_is_marked_and_explained_in_the_order_made(tmp_path, monkeypatch, qtbot):
    # Changes 2 and 3 at 14:00 and 14:05; the clock is then set back an hour: 4 at 13:06, 5 at 14:06.
    dialog, rows, tips = history_rows(tmp_path, monkeypatch, [
        "2026-12-05T17:30:00.000Z", "2026-12-05T17:35:00.000Z", "2026-12-05T16:36:00.000Z",
        "2026-12-05T17:36:00.000Z"], qtbot)
    assert [row[0] for row in rows] == ["5", "4", "3", "2", "1"]  # the order the changes were made in
    assert [row[1] for row in rows[:4]] == ["2026-12-05 14:06:00", f"2026-12-05 13:06:00 {SET_BACK}",
                                            "2026-12-05 14:05:00", "2026-12-05 14:00:00"]
    assert tips[1].startswith("Made after change 3 (2026-12-05 14:05:00 NST) though its time is earlier: "
                              "the clock was set back")
    assert not tips[0] and not tips[2] and not tips[3]
    assert f"{SET_BACK} marks a time earlier than a change made before it" in dialog.heading.text()


def test_a_history_in_order_says_nothing_of_clocks(tmp_path, monkeypatch, qtbot):
    dialog, rows, tips = history_rows(tmp_path, monkeypatch, ["2026-12-05T17:10:13.000Z"], qtbot)
    assert SET_BACK not in dialog.heading.text() and not any(SET_BACK in row[1] for row in rows)
    assert not any(tips)


def test_the_when_column_is_wide_enough_for_a_time_inside_a_folded_step(tmp_path, monkeypatch, qtbot):
    # In one step: 14:00, then a summer time the clock set back to (its zone and ↺ beside it), then 14:10. The
    # step's row shows 14:10; the widest time is in its folded rows.
    dialog, rows, _ = history_rows(tmp_path, monkeypatch, [
        "2026-12-05T17:30:00.000Z", "2026-07-05T17:10:13.000Z", "2026-12-05T17:40:00.000Z"], qtbot, one_step=True)
    step = dialog.entries.topLevelItem(0)
    assert step.childCount() == 3 and not step.isExpanded()
    widest = step.child(1).text(1)
    assert widest == f"2026-07-05 14:40:13 NDT {SET_BACK}"
    assert dialog.entries.columnWidth(1) > dialog.entries.fontMetrics().horizontalAdvance(widest)
