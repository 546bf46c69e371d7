"""A Review decision on another annotator's record is meant on the page as the review showed it, with another writer
on the project (another window, the command line: here a second connection on the project file) that makes that
very record a record of the page in between. Whenever that lands, after the review's look at the labels or just
before the decision's own write, the decision is refused in the words of every stale action ("… changed elsewhere
since (…): X refused"), the page shown as it now is, and nothing is written over the other's record:

- O on a record only the other annotator made, which another window took since: the project no longer lacks it,
  and a keep of "the project has none" would name a disagreement that is gone;
- T on a pair (the project's record edited to theirs), or on a record the project had rejected (accepted as
  theirs), where another window made their record since: the page would hold it twice. Not called "chosen
  twice", which is a step choosing one record two times.

The window looks at its project on a timer (`check_project`), which the tests leave off.
"""

from __future__ import annotations

import pytest

from recordlens.core.store import Provenance, open_project
from tests.app.demo_project import ITEM
from tests.app.review_helpers import choose, kinds
from tests.app.test_edits_on_what_another_window_changed import (
    ANA,
    assert_refused,
    just_after_the_review_looked,
    reviewing,
    states,
)
from tests.app.window_helpers import just_before_the_next_write, key, recent_messages

pytestmark = pytest.mark.app

THIRD = [[ITEM.format(1)], [ITEM.format(2)], [ITEM.format(3)]]  # bea's: the project's two and item 3, hers alone
BEA = Provenance.person("bea")
WHEN = [just_after_the_review_looked, just_before_the_next_write]


@pytest.mark.parametrize("when", WHEN)
def test_a_keep_of_a_record_taken_elsewhere_since_the_review_looked_is_refused(qtbot, tmp_path, monkeypatch, when):
    with reviewing(qtbot, tmp_path, THIRD) as window, open_project(window.project.root) as other:
        assert kinds(window).count("spurious") == 1
        when(window, monkeypatch, lambda: other.add_record("1", [ITEM.format(3)], BEA, status="accepted", by=ANA,
                                                           adjudicated="bea"))
        choose(window, "spurious")
        key(window, "O")  # would keep "the project has none" of item 3, which it now has
        assert other.adjudication.kept("1", "bea") == frozenset()
        assert [action for action in (change.action for change in other.history("1")) if action == "keep"] == []
        assert_refused(window, "page 1", "take bea's record (added) by ana, ", "keep the project's version over bea's")
        assert "kept the project's version" not in recent_messages(window)
        assert not window.undo_group.canUndo()


@pytest.mark.parametrize("when", WHEN)
def test_their_version_of_a_pair_made_a_record_elsewhere_since_is_refused(qtbot, tmp_path, monkeypatch, when):
    with reviewing(qtbot, tmp_path) as window, open_project(window.project.root) as other:
        assert kinds(window) == ["matched", "matched"]  # bea's items 1 and 3 against the project's item 1
        when(window, monkeypatch, lambda: other.add_record("1", [ITEM.format(1), ITEM.format(3)], ANA))
        choose(window, "matched")
        key(window, "T")  # would edit record 1 into the record the other just made: listed twice
        assert states(other) == [("accepted", (ITEM.format(1),)), ("accepted", (ITEM.format(2),)),
                                 ("accepted", (ITEM.format(1), ITEM.format(3)))]
        assert_refused(window, "page 1", "add (accepted) by ana, ", "take bea's version of the record")
        assert "chosen twice" not in recent_messages(window)
        assert not window.undo_group.canUndo()


@pytest.mark.parametrize("when", WHEN)
def test_an_accept_of_a_rejected_record_made_a_record_elsewhere_since_is_refused(qtbot, tmp_path, monkeypatch,
                                                                                 when):
    with reviewing(qtbot, tmp_path, THIRD) as window, open_project(window.project.root) as other:
        other.add_record("1", [ITEM.format(3)], ANA, status="rejected")
        window.reload_labels()  # as its look at the project shows the rejected record
        assert kinds(window).count("spurious") == 1
        when(window, monkeypatch, lambda: other.add_record("1", [ITEM.format(3)], ANA))
        choose(window, "spurious")
        key(window, "T")  # would accept the rejected copy beside the record the other just made
        assert states(other)[2:] == [("rejected", (ITEM.format(3),)), ("accepted", (ITEM.format(3),))]
        assert_refused(window, "page 1", "add (accepted) by ana, ", "accept the project's rejected record as bea's")
        assert "chosen twice" not in recent_messages(window)
