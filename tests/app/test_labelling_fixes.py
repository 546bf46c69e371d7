"""What a day of real labelling showed (issue 12): each bug has its test here, on the main window with a real
project, real keys and real pointer events."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from tests.app.test_main_window import FakeKeyStore, project_dir, window  # noqa: F401 (fixtures)

pytestmark = pytest.mark.app


def key(window, sequence: str) -> None:
    QTest.keySequence(window, sequence)


def test_rejecting_a_rejected_record_is_no_edit_and_takes_no_undo(qtbot, window):
    first = window.project.labels("1")[0]
    window.select_records([first.id])
    key(window, "R")
    assert window.project.labels("1")[0].status == "rejected"
    entries = len(window.project.history("1"))
    stack = window.undo_group.activeStack()
    steps = stack.count()
    window.select_records([first.id])
    key(window, "R")
    assert len(window.project.history("1")) == entries
    assert stack.count() == steps
    key(window, "Ctrl+Z")  # one undo takes the one real reject back
    assert window.project.labels("1")[0].status == "accepted"
