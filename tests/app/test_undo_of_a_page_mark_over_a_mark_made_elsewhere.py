"""Undo and redo of a page mark (L, V) put back a page status: the one the mark was made over (read with the mark,
in its write), and the one it set. Another window (or the command line) that marks the page at the last moment it
can, just before the undo's (or redo's) own write transaction begins, after every look the window makes first, is
not overwritten: the undo (or redo) is refused in the words of every stale step, and the other's mark stays.

The window looks at its project on a timer (`check_project`), which the tests leave off.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store import Project, open_project
from tests.app.list_projects import one_list
from tests.app.test_undo_over_a_change_made_just_before_its_write import ANA, just_before_the_next_write
from tests.app.window_helpers import open_window, recent_messages, said

pytestmark = pytest.mark.app


@pytest.fixture
def window(qtbot, tmp_path: Path) -> Iterator[MainWindow]:
    """A window on page 1 of a list of four items, imported with its labels: marked labelled."""
    shown = open_window(one_list(tmp_path), tmp_path / "settings.json", qtbot=qtbot)
    try:
        yield shown
    finally:
        shown.close()


@pytest.fixture
def elsewhere(window: MainWindow) -> Iterator[Project]:
    """The other writer: its own connection on the window's project file."""
    with open_project(window.project.root) as project:
        yield project


def assert_refused(window: MainWindow, step: str, moved: str) -> None:
    now = said(window)
    assert now.startswith(f"page 1 changed elsewhere since (page {moved} → new by ana, "), now
    assert f"{step} refused; the history (Ctrl+H) can restore any earlier state" in now
    assert window.shown_status == "new"  # shown as the project now is
    assert not window.undo_group.canUndo() and not window.undo_group.canRedo()  # its steps went


def test_the_undo_of_a_mark_over_a_mark_made_just_before_its_write_is_refused(window, elsewhere, monkeypatch):
    assert elsewhere.page("1").status == "labelled"
    window.record_actions.do_mark_reviewed()
    assert elsewhere.page("1").status == "reviewed"
    just_before_the_next_write(window, monkeypatch, lambda: elsewhere.set_status("1", "new", ANA))

    window.record_actions.do_undo()  # would put back "labelled" over the other's "new"
    assert elsewhere.page("1").status == "new"
    assert_refused(window, "undo", "reviewed")
    assert "undone on page 1" not in recent_messages(window)


def test_the_redo_of_a_mark_over_a_mark_made_just_before_its_write_is_refused(window, elsewhere, monkeypatch):
    window.record_actions.do_mark_reviewed()
    window.record_actions.do_undo()
    assert elsewhere.page("1").status == "labelled"
    just_before_the_next_write(window, monkeypatch, lambda: elsewhere.set_status("1", "new", ANA))

    window.record_actions.do_redo()  # would mark it "reviewed" over the other's "new"
    assert elsewhere.page("1").status == "new"
    assert_refused(window, "redo", "labelled")
