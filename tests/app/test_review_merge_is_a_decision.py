"""Shift+T's merge is a decision (verifier's report): where the merged record still holds bea's record only in a
small part (the row still partial, overlap below the threshold), the row is listed as decided (kept: merged), the
next open row is chosen, Shift+T on it again changes and stores nothing, W does not come back for it, and Ctrl+Z
takes the merge and its decision back as one step.

On the main window's project: page 1 the demo product grid (labelled, 16 cards), page 2 a plain list (new).
"""

from __future__ import annotations

import pytest

from tests.app.demo_project import CARD, HEADER
from tests.app.review_helpers import choose, kinds, review_bea
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app

# bea's record of card 3: its name and price; the project's record 3: card 3's price row and cards 4 and 5 too,
# so that the merge (price row, cards 4 and 5, name) holds bea's record as a small part of its text.
THEIRS = [f"{CARD.format(3)}/div[1]/span[1]", f"{CARD.format(3)}/h3[1]"]
OURS = [f"{CARD.format(3)}/div[1]", CARD.format(4), CARD.format(5)]


def partial_card_3(window, *more: list[str]) -> None:
    project = window.project
    truth = project.true_records("1")
    project.edit(project.labels("1")[2].id, OURS, window.person)
    project.annotators.set_page("bea", "1", [*truth[:2], THEIRS, *truth[3:], *more])


def row_of(window, kind: str) -> int:
    return kinds(window).index(kind)


def test_a_merge_is_listed_as_decided_and_the_next_open_row_is_chosen(qtbot, window):
    project = window.project
    partial_card_3(window, [HEADER])
    review_bea(qtbot, window)
    panel = window.review_panel
    choose(window, "partial")
    key(window, "Shift+T")

    assert list(project.labels("1")[2].xpaths) == [*OURS, THEIRS[1]], said(window)
    assert "page 1: merge bea's record into the project's" in said(window), said(window)
    partial = row_of(window, "partial")  # still partial by its overlap: the merge holds bea's record in part
    assert window.review.records[partial].overlap < 0.5
    assert partial in panel.kept and panel.kept_toggle.text() == "kept (1)"
    assert "partial (0)" in [toggle.text() for toggle in panel.kind_toggles.values()]
    assert "(kept: merged into the project's)" in panel.records.item(partial).text()
    assert panel.current_index() == row_of(window, "spurious")  # the next open row, not the one just decided

    history = len(project.history("1"))
    choose(window, "partial")
    key(window, "Shift+T")  # again on the row decided: nothing changes, no keep stored beside the merge
    assert len(project.history("1")) == history
    assert "keep the project's version" not in said(window), said(window)

    key(window, "Ctrl+Z")  # the merge and its decision: one step
    assert list(project.labels("1")[2].xpaths) == OURS
    assert panel.kept_toggle.text() == "kept (0)" and row_of(window, "partial") not in panel.kept


def test_w_does_not_come_back_to_a_page_whose_last_disagreement_was_merged(qtbot, window):
    partial_card_3(window)
    review_bea(qtbot, window)
    choose(window, "partial")
    key(window, "Shift+T")
    key(window, "W")
    assert "every page's disagreements with bea are kept" in said(window), said(window)
