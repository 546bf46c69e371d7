"""T in the Review tab on another annotator's labels went by three names: the status bar said "take bea's record",
Edit > History "add (accepted), adjudicated with bea" and O's entry "keep, adjudicated with bea". History now says
a decision as the person took it, with what it did, as it already said a merge ("merge with bea's record (…)").

On the main window's project: page 1 the demo product grid (labelled, 16 cards), page 2 a plain list (new).
"""

from __future__ import annotations

import pytest

from tests.app.demo_project import CARD, HEADER
from tests.app.review_helpers import choose, review_bea
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app


def history_whats(window) -> list[str]:
    """The What column of Edit > History, newest first (the dialog closed again)."""
    key(window, "Ctrl+H")
    dialog = window.tools.history_dialog
    assert dialog is not None
    try:
        return [dialog.entries.topLevelItem(k).text(3) for k in range(dialog.entries.topLevelItemCount())]
    finally:
        dialog.close()


def test_history_names_t_and_o_as_the_person_took_them(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    rejected = project.add_record("1", [CARD.format(5) + "/h3[1]"], window.person, status="rejected")
    # bea: card 2 by its name only (a pair T edits), no card 4 (T deletes), card 6 (O keeps the project's), the
    # header the project lacks (T adds), and the name of card 5 the project rejected (T accepts it in place)
    # card 1 with card 9's name as well (a matched pair Shift+T merges, leaving no pair to keep)
    project.annotators.set_page("bea", "1", [[*truth[0], f"{CARD.format(9)}/h3[1]"], [f"{CARD.format(2)}/h3[1]"],
                                             truth[2], *truth[4:5],
                                             [f"{CARD.format(6)}/h3[1]"], *truth[6:], [HEADER],
                                             list(rejected.after[0].xpaths)])
    review_bea(qtbot, window)

    choose(window, "matched", 0)
    key(window, "Shift+T")
    assert "merge bea's record into the project's" in said(window), said(window)
    assert history_whats(window)[0] == "merge with bea's record (+1 element)", history_whats(window)[0]

    choose(window, "spurious", 0)
    key(window, "T")
    assert "take bea's record" in said(window), said(window)
    assert history_whats(window)[0] == "take bea's record (added)"

    choose(window, "spurious", 0)  # the record the project rejected
    key(window, "T")
    assert "accept the project's rejected record as bea's" in said(window), said(window)
    assert history_whats(window)[0] == "take bea's record (accepted in place)"

    choose(window, "partial", 0)
    key(window, "T")
    assert "take bea's version of the record" in said(window), said(window)
    assert history_whats(window)[0].startswith("take bea's version of the record ("), history_whats(window)[0]

    choose(window, "missed", 0)
    key(window, "O")
    assert "kept the project's version of 1 disagreement with bea" in said(window), said(window)
    assert history_whats(window)[0] == "keep the project's version over bea's"

    choose(window, "missed", 0)
    key(window, "T")
    assert "delete the record bea did not make" in said(window), said(window)
    assert history_whats(window)[0] == "delete the record bea did not make"
    # No entry names a decision the old way
    assert not [w for w in history_whats(window) if "adjudicated with" in w]
