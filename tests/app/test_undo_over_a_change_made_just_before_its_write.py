"""Undo and redo restore the page to an entry of its history, which takes back whatever came after it: they are
refused once another window (or the command line) changed the page after this window's last step. Here the other
writer's change is committed at the last moment it can be, just before the window's own write transaction begins,
after every look the window makes first: the undo (or redo) is still refused, and the other's change stays. So is a
step made just after such a change: its undo takes back that step alone, and the steps before it, whose undo would
take the other's change back too, go.

The window looks at its project on a timer (`check_project`), which the tests leave off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store import Project, Provenance, open_project
from tests.app.demo_project import ITEM
from tests.app.list_projects import one_list
from tests.app.window_helpers import open_window, recent_messages, said

pytestmark = pytest.mark.app

ANA = Provenance.person("ana")


@pytest.fixture
def window(qtbot, tmp_path: Path) -> Iterator[MainWindow]:
    """A window on page 1 of a list of four items, with two accepted records (items 1 and 2)."""
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


def just_before_the_next_write(window: MainWindow, monkeypatch, change: Callable[[], object]) -> None:  # noqa: ANN001
    """The other writer's `change` committed right before the window's next write transaction begins: after
    whatever the window looked at first."""
    writing = window.project.writing
    pending = [change]

    @contextmanager
    def then_writing():  # noqa: ANN202
        if pending and not window.project.db.conn.in_transaction:
            pending.pop()()
        with writing() as db:
            yield db

    monkeypatch.setattr(window.project, "writing", then_writing)


def states(project: Project) -> list[tuple[str, tuple[str, ...]]]:
    return [(label.status, label.xpaths) for label in project.labels("1")]


def reject_shown(window: MainWindow, number: int) -> None:
    window.select_records([window.labels[number - 1].id])
    window.record_actions.do_reject()


def assert_undo_refused(window: MainWindow, step: str) -> None:
    now = said(window)
    assert now.startswith("page 1 changed elsewhere since (add (accepted) by ana, "), now
    assert f"{step} refused; the history (Ctrl+H) can restore any earlier state" in now
    assert not window.undo_group.canUndo() and not window.undo_group.canRedo()  # its steps went


def test_an_undo_over_a_change_made_just_before_its_write_is_refused(window, elsewhere, monkeypatch):
    reject_shown(window, 1)
    just_before_the_next_write(window, monkeypatch, lambda: elsewhere.add_record("1", [ITEM.format(3)], ANA))

    window.record_actions.do_undo()  # would restore the page to before the reject: item 3's record gone with it
    assert states(elsewhere) == [("rejected", (ITEM.format(1),)), ("accepted", (ITEM.format(2),)),
                                 ("accepted", (ITEM.format(3),))]
    assert_undo_refused(window, "undo")
    assert "undone on page 1" not in recent_messages(window)
    assert [(label.status, label.xpaths) for label in window.labels] == states(elsewhere)  # shown as it now is


def test_a_redo_over_a_change_made_just_before_its_write_is_refused(window, elsewhere, monkeypatch):
    reject_shown(window, 1)
    window.record_actions.do_undo()
    assert states(elsewhere)[0] == ("accepted", (ITEM.format(1),))
    just_before_the_next_write(window, monkeypatch, lambda: elsewhere.add_record("1", [ITEM.format(3)], ANA))

    window.record_actions.do_redo()  # would restore the page to just after the reject: item 3's record gone
    assert states(elsewhere) == [("accepted", (ITEM.format(k),)) for k in (1, 2, 3)]
    assert_undo_refused(window, "redo")


def test_the_undo_of_a_step_made_just_after_a_change_elsewhere_keeps_that_change(window, elsewhere, monkeypatch):
    reject_shown(window, 1)
    just_before_the_next_write(window, monkeypatch, lambda: elsewhere.add_record("1", [ITEM.format(3)], ANA))
    reject_shown(window, 2)  # made after the other's record: its undo takes back its own reject alone
    assert [status for status, _ in states(elsewhere)] == ["rejected", "rejected", "accepted"]

    window.record_actions.do_undo()
    assert states(elsewhere) == [("rejected", (ITEM.format(1),)), ("accepted", (ITEM.format(2),)),
                                 ("accepted", (ITEM.format(3),))]
    # The reject of record 1 came before the other's record: its undo would take that record back too.
    assert not window.undo_group.canUndo()
    window.record_actions.do_undo()
    assert len(elsewhere.labels("1")) == 3
