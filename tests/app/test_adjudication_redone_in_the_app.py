"""T undone and redone with the keys (Ctrl+Z, Ctrl+Shift+Z) is still the adjudicator's decision, not their
labelling: `agreement` finds no label set of the person's."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from recordlens.core.store.agreement import person_pages
from tests.app.demo_project import HEADER
from tests.app.review_helpers import choose, review_bea

pytestmark = pytest.mark.app


def test_a_redone_take_is_no_labelling_of_the_persons(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    project.annotators.set_page("bea", "1", [*truth, [HEADER]])  # bea added the header
    review_bea(qtbot, window)
    choose(window, "spurious")
    QTest.keySequence(window, "T")
    assert [HEADER] in project.true_records("1")
    QTest.keySequence(window, "Ctrl+Z")
    QTest.keySequence(window, "Ctrl+Shift+Z")
    assert [HEADER] in project.true_records("1")
    assert [entry.detail.get("why") for entry in project.history("1")[-2:]] == [
        "undo: take bea's record", "redo: take bea's record"]
    assert person_pages(project, window.person.name) == {}
