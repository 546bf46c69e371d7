"""Two windows on one project: a key pressed in one on what the other changed since it last looked (up to 1.5 s
before the next look) is refused and said, never a write over the other's change. Alone, the same key on the
state shown writes nothing ("already"); here the state shown was stale, and the store saw it inside its write.

The windows look at their project on a timer (`check_project`), which the tests leave off: the second window's
look has not come yet when its key is pressed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.list_projects import two_lists
from tests.app.window_helpers import open_window, recent_messages

pytestmark = pytest.mark.app


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Pages 1 and 2, labelled, each with two accepted records (items 1 and 2)."""
    return two_lists(tmp_path)


def press(qtbot, window: MainWindow, keys: str) -> None:
    """Keys go to the active window's shortcuts: the one a test types into must be it."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    QTest.keySequence(window, keys)


@contextmanager
def two_windows(qtbot, tmp_path: Path, project: Path) -> Iterator[tuple[MainWindow, MainWindow]]:
    """Two windows on one project, each with its own settings, closed after."""
    first = open_window(project, tmp_path / "first.json", qtbot=qtbot)
    second = None
    try:
        second = open_window(project, tmp_path / "second.json", qtbot=qtbot)
        yield first, second
    finally:
        if second is not None:
            second.close()
        first.close()


def test_an_accept_over_a_reject_made_in_the_other_window_is_refused(qtbot, tmp_path, project_dir):
    with two_windows(qtbot, tmp_path, project_dir) as (first, second):
        record = first.labels[0].id
        for window in (first, second):
            window.select_records([record])
        assert second.label(record).status == "accepted"  # as the second window shows it, and goes on showing it

        press(qtbot, first, "R")
        assert first.project.labels("1")[0].status == "rejected"
        entries = len(first.project.history("1"))
        press(qtbot, second, "A")  # meant as a no-op on what it shows: it would take the reject back

        assert second.project.labels("1")[0].status == "rejected"  # nothing overwritten
        assert len(second.project.history("1")) == entries  # nothing written
        said = second.statusBar().currentMessage()
        assert said.startswith("record 1 of page 1 changed elsewhere since (reject by tester, ")
        assert said.endswith("): accept record refused; shown as the project now is")
        assert "accepted record 1" not in recent_messages(second)
        assert second.label(record).status == "rejected"  # shown as the project now is, still selected
        assert second.record_panel.selected_ids() == [record]
        assert not second.undo_group.canUndo()

        # Now shown rejected, the same key is the person's deliberate accept.
        press(qtbot, second, "A")
        assert second.project.labels("1")[0].status == "accepted"
        assert second.statusBar().currentMessage().startswith("accepted record 1")


def test_a_verdict_on_several_records_one_changed_elsewhere_is_refused_whole(qtbot, tmp_path, project_dir):
    with two_windows(qtbot, tmp_path, project_dir) as (first, second):
        one, two = (label.id for label in second.labels)
        first.select_records([two])
        press(qtbot, first, "R")
        second.select_records([one, two])
        press(qtbot, second, "A")
        assert [label.status for label in second.project.labels("1")] == ["accepted", "rejected"]
        assert second.statusBar().currentMessage().startswith(
            "record 2 of page 1 changed elsewhere since (reject by tester, ")

        # Another record of the page changed elsewhere is no reason to refuse: record 1 is as the window shows it.
        first.select_records([two])
        press(qtbot, first, "A")
        second.select_records([one])
        press(qtbot, second, "R")
        assert [label.status for label in second.project.labels("1")] == ["rejected", "accepted"]
        assert second.statusBar().currentMessage().startswith("rejected record 1")


def test_a_mark_over_one_made_in_the_other_window_is_refused(qtbot, tmp_path, project_dir):
    with two_windows(qtbot, tmp_path, project_dir) as (first, second):
        assert first.shown_status == second.shown_status == "labelled"

        press(qtbot, first, "V")
        assert first.project.page("1").status == "reviewed"
        entries = len(first.project.history("1"))
        press(qtbot, second, "L")  # "already labelled" as the second window shows it: not a mark over the review

        assert second.project.page("1").status == "reviewed"
        assert len(second.project.history("1")) == entries
        said = second.statusBar().currentMessage()
        assert said.startswith("page 1 changed elsewhere since (page labelled → reviewed by tester, ")
        assert said.endswith("): mark page 1 labelled refused; shown as the project now is")
        assert "marked labelled" not in recent_messages(second)
        assert second.shown_status == "reviewed"
        assert "page reviewed" in second.counts_label.text()

        # Alone, L on the page shown labelled writes nothing and says so, as before.
        press(qtbot, first, "L")
        assert first.project.page("1").status == "labelled"
        press(qtbot, first, "L")
        assert first.statusBar().currentMessage() == "page 1 is already labelled"
        assert len(first.project.history("1")) == entries + 1
