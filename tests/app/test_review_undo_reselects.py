"""Undo selects again what was selected when the step was made (README); in the Review tab on another annotator's
labels it did not: after T on a row (P10 in the report) the next open row is chosen, so that T goes on, and after
Ctrl+Z that row stayed chosen instead of the row T was taken on. Undo now chooses the row again, and redo the one
chosen when it was undone.

On the main window's project: page 1 the demo product grid (labelled, 16 cards), page 2 a plain list (new).
"""

from __future__ import annotations

import pytest

from tests.app.demo_project import HEADER
from tests.app.review_helpers import choose, kinds, review_bea
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app


def chosen(window) -> list[tuple[str, tuple[str, ...]]]:
    """The chosen review rows' records (kind and XPaths), and the current row's first."""
    records, panel = window.review.records, window.review_panel
    current = panel.current_index()
    return [(records[i].kind, records[i].xpaths) for i in
            ([current] if current is not None else []) + [i for i in panel.chosen_indices() if i != current]]


def test_undo_of_t_chooses_again_the_row_t_was_taken_on(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    # bea: no card 4 (a missed row, open), and the header the project lacks (a spurious row: T takes it)
    project.annotators.set_page("bea", "1", [*truth[:3], *truth[4:], [HEADER]])
    review_bea(qtbot, window)
    choose(window, "spurious")
    taken_on = chosen(window)
    assert taken_on == [("spurious", (HEADER,))]

    key(window, "T")
    assert "take bea's record" in said(window), said(window)
    assert "spurious" not in kinds(window)
    after_t = chosen(window)
    assert after_t == [("missed", tuple(truth[3]))], after_t  # on to the next open row

    key(window, "Ctrl+Z")
    assert "spurious" in kinds(window)
    assert chosen(window) == taken_on, chosen(window)

    key(window, "Ctrl+Shift+Z")
    assert "spurious" not in kinds(window)
    assert chosen(window) == after_t, chosen(window)
