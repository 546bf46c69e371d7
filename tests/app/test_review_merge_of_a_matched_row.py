"""Shift+T on a matched row (reviewer's probe): the pair is no disagreement, so the merge is the edit alone; it stored
a keep of the pair beside it (`adjudication.merge`), an extra history entry and a decision for a pair never in
dispute. Counted, when bea's labels are imported again, as a merge (the record still holds every element of the
project's), not as a take.

On the main window's project: page 1 the demo product grid (labelled, 16 cards), page 2 a plain list (new).
"""

from __future__ import annotations

import pytest

from tests.app.demo_project import CARD
from tests.app.review_helpers import kinds, review_bea
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app

# card 3 but its "Sale" ribbon: its name, price row, rating, badge and button, most of its text
OURS = [f"{CARD.format(3)}/{part}" for part in ("h3[1]", "div[1]", "div[2]", "span[2]", "button[1]")]
THEIRS = [CARD.format(3)]  # bea's: the whole card


def test_shift_t_on_a_matched_row_edits_the_record_and_stores_no_decision(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    project.edit(project.labels("1")[2].id, OURS, window.person)
    project.annotators.set_page("bea", "1", [*truth[:2], THEIRS, *truth[3:]])
    since = project.history("1")[-1].at
    review_bea(qtbot, window)
    assert kinds(window).count("matched") == len(truth), kinds(window)
    window.review_panel.records.setCurrentRow(2)  # card 3's row, matched
    assert kinds(window)[2] == "matched"
    history = len(project.history("1"))

    key(window, "Shift+T")

    assert list(project.labels("1")[2].xpaths) == THEIRS, said(window)
    added = project.history("1")[history:]
    assert [change.action for change in added] == ["edit"], [change.action for change in added]
    assert project.adjudication.kept("1", "bea") == frozenset()
    assert project.adjudication.decided_since("1", "bea", since).words() == (
        "1 adjudication decision made on them: 1 merged (record 3)")
