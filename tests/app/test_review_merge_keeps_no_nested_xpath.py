"""Shift+T in the Review tab on another annotator's labels (explorers' report): a merge stores no XPath that an
ancestor XPath of the merged record already covers, and where the merge is the project's record as it stands (a
record only the project has, or theirs inside it) Shift+T keeps the project's version as O does, a decision
stored and listed as kept, not a "kept" that stored nothing.

On the main window's project: page 1 the demo product grid (labelled, 16 cards), page 2 a plain list (new).
"""

from __future__ import annotations

import pytest

from tests.app.demo_project import CARD, HEADER
from tests.app.review_helpers import choose, kinds, review_bea
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app


def test_a_merge_stores_no_xpath_an_ancestor_of_the_record_covers(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    third = [f"{CARD.format(3)}/div[1]"]  # the project's record 3: card 3's price row only
    project.edit(project.labels("1")[2].id, third, window.person)
    # bea's record of card 3: the price (inside the project's price row) and the name
    theirs = [f"{CARD.format(3)}/div[1]/span[1]", f"{CARD.format(3)}/h3[1]"]
    project.annotators.set_page("bea", "1", [*truth[:2], theirs, *truth[3:]])
    review_bea(qtbot, window)
    choose(window, "partial")
    key(window, "Shift+T")
    assert list(project.labels("1")[2].xpaths) == [third[0], theirs[1]], said(window)  # not the price twice


def test_shift_t_where_the_merge_is_the_projects_record_keeps_it_as_o_does(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    card = CARD.format(3)
    # bea: card 3 by its name and price (inside the project's card), no card 4, and the header the project lacks
    project.annotators.set_page("bea", "1", [*truth[:2], [f"{card}/h3[1]", f"{card}/div[1]/span[1]"], *truth[4:],
                                             [HEADER]])
    review_bea(qtbot, window)
    panel = window.review_panel
    before = project.labels("1")

    choose(window, "missed")  # card 4: only the project has it
    key(window, "Shift+T")
    assert project.labels("1") == before  # no label changed
    assert "page 1: keep the project's version over bea's (bea made none here)" in said(window), said(window)
    assert "kept (0)" not in panel.kept_toggle.text() and panel.kept_toggle.text() == "kept (1)"
    assert "missed" not in [k for i, k in enumerate(kinds(window)) if i not in panel.kept]

    choose(window, "partial")  # card 3: the project's card holds all of bea's record
    key(window, "Shift+T")
    assert [list(label.xpaths) for label in project.labels("1")] == [list(label.xpaths) for label in before]
    assert "page 1: keep the project's version over bea's (it holds all of bea's record already)" in said(
        window), said(window)
    assert panel.kept_toggle.text() == "kept (2)"

    key(window, "Ctrl+Z")  # one step each, as O's
    assert panel.kept_toggle.text() == "kept (1)"
