"""A Review decision is meant on the page as the review showed it, with another writer on the project (another
window, the command line: here a second connection on the project file). Two things the review rests on beside the
project's records are checked too, inside the decision's write:

- a record only the other annotator made (T adds it, as the take-all button does): refused once the other writer
  made it a record of the page since, rather than listed twice;
- whether a disagreement is kept (O: the project's version kept over theirs, which changes no label): a keep made
  elsewhere is a change the review sees (it says so, and shows the row kept), and a decision made over one (T
  taking their record over the project's kept version) is refused, as is one made just after the review looked.

The window looks at its project on a timer (`check_project`), which the tests leave off unless a test calls it.
"""

from __future__ import annotations

import pytest

from recordlens.core.store import Kept, open_project
from tests.app.demo_project import ITEM
from tests.app.review_helpers import choose, kinds
from tests.app.test_edits_on_what_another_window_changed import (
    ANA,
    assert_refused,
    just_after_the_review_looked,
    reviewing,
    states,
)
from tests.app.window_helpers import just_before_the_next_write, key, said

pytestmark = pytest.mark.app

THIRD = [[ITEM.format(1)], [ITEM.format(2)], [ITEM.format(3)]]  # bea's: the project's two and item 3, hers alone
ONLY_THEIRS = Kept("bea", (ITEM.format(3),), None)  # that disagreement, the project's version (none) kept


@pytest.mark.parametrize("when", [just_after_the_review_looked, just_before_the_next_write])
def test_a_take_of_a_record_made_elsewhere_since_the_review_looked_is_refused(qtbot, tmp_path, monkeypatch, when):
    with reviewing(qtbot, tmp_path, THIRD) as window, open_project(window.project.root) as other:
        assert kinds(window).count("spurious") == 1
        when(window, monkeypatch, lambda: other.add_record("1", [ITEM.format(3)], ANA))
        choose(window, "spurious")
        key(window, "T")  # would add item 3 a second time
        assert [xpaths for _, xpaths in states(other)] == [(ITEM.format(k),) for k in (1, 2, 3)]
        # Named as the list showed the page: the record made elsewhere had no number in it yet.
        assert_refused(window, "page 1", "add (accepted) by ana, ", "take bea's record")
        assert not window.undo_group.canUndo()


def test_a_take_all_of_records_one_made_elsewhere_since_the_review_looked_is_refused(qtbot, tmp_path, monkeypatch):
    with reviewing(qtbot, tmp_path, THIRD) as window, open_project(window.project.root) as other:
        just_before_the_next_write(window, monkeypatch, lambda: other.add_record("1", [ITEM.format(3)], ANA,
                                                                                 status="rejected"))
        window.reviewing.do_take_all()  # would add item 3 beside the record the other rejected: "not a record"
        assert states(other)[2:] == [("rejected", (ITEM.format(3),))]
        assert_refused(window, "page 1", "add (rejected) by ana, ", "take all of bea's records the project lacks")


def test_a_keep_made_elsewhere_is_a_change_the_review_sees(qtbot, tmp_path):
    with reviewing(qtbot, tmp_path, THIRD) as window, open_project(window.project.root) as other:
        start = other.last_change_id("1")
        other.adjudication.keep("1", "bea", ONLY_THEIRS.theirs, None, ANA)
        entries = len(other.history("1"))
        choose(window, "spurious")
        key(window, "T")  # would take bea's record over the project's version the other kept
        assert len(other.labels("1")) == 2 and len(other.history("1")) == entries
        assert said(window).startswith("what was kept (O) on page 1 changed since the review showed it (another "
                                       "window, or the command line): nothing taken")
        assert window.review_panel.kept == {kinds(window).index("spurious")}  # the review shows it kept now

        # The window's look at the project sees a keep taken back elsewhere as it sees a change of the labels.
        other.restore("1", start, ANA)
        window.check_project()
        assert not window.review_panel.kept


@pytest.mark.parametrize(("beas", "kind", "kept", "step"), [
    (THIRD, "spurious", ONLY_THEIRS, "take bea's record"),
    ([[ITEM.format(1)]], "missed", Kept("bea", None, (ITEM.format(2),)), "delete the record bea did not make"),
])
def test_a_decision_over_a_keep_made_just_after_the_review_looked_is_refused(qtbot, tmp_path, monkeypatch, beas,
                                                                            kind, kept, step):
    with reviewing(qtbot, tmp_path, beas) as window, open_project(window.project.root) as other:
        before = states(other)
        just_after_the_review_looked(window, monkeypatch,
                                     lambda: other.adjudication.keep("1", "bea", kept.theirs, kept.ours, ANA))
        choose(window, kind)
        key(window, "T")
        assert states(other) == before
        assert other.adjudication.kept("1", "bea") == frozenset({kept})  # the keep stands
        subject = "record 2 of page 1" if kind == "missed" else "page 1"  # the project's record of it, if any
        assert_refused(window, subject, "keep the project's version over bea's by ana, ", step)
