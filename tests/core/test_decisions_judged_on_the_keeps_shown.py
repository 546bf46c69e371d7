"""Two connections on one project file (two app windows): a Review decision on a disagreement with another
annotator is meant on it as the review showed it, open or kept (O: the project's version kept, which changes no
label). Inside its write it is refused once the other connection kept that disagreement since, or took its keep
back; a keep of another disagreement is no reason to refuse it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.core.store import ChangedElsewhere, Kept, judge_as_shown
from recordlens.core.store.project import Project, Provenance
from tests.core.two_windows import ANA, BEN, ITEM, two_windows

THEIRS = Kept("bea", (ITEM.format(3),), None)  # a record only bea made: T adds it
OURS = Kept("bea", None, (ITEM.format(1),))  # a record only the project made: T deletes it


@pytest.fixture
def windows(tmp_path: Path) -> Iterator[tuple[Project, Project]]:
    """Two connections on a project whose page 12 holds one accepted record, item 1; bea labelled items 2 and 3."""
    with two_windows(tmp_path / "p", (2, 3)) as both:
        yield both


def take(project: Project):  # noqa: ANN201 - T on bea's record of item 3
    return lambda _ids, by: project.add_record("12", list(THEIRS.theirs or ()), Provenance.person("bea"),
                                               status="accepted", by=by, adjudicated="bea")


def keep(project: Project, decision: Kept) -> None:
    project.adjudication.keep("12", decision.annotator, decision.theirs, decision.ours, ANA)


def test_a_decision_on_a_disagreement_kept_elsewhere_since_is_refused(windows) -> None:
    first, second = windows
    shown = second.adjudication.kept("12", "bea")  # open, as the review showed it
    keep(first, THEIRS)
    entries = len(first.history("12"))

    with pytest.raises(ChangedElsewhere, match=r"page 12: the decision changed elsewhere since it was shown \(keep "
                                               r"by ana") as refused:
        judge_as_shown(second, [], take(second), BEN, page="12", decides=[THEIRS], kept=shown)
    assert refused.value.what == "decision" and refused.value.change is not None
    assert len(first.labels("12")) == 1 and len(first.history("12")) == entries  # nothing taken over the keep
    assert not second.db.conn.in_transaction


def test_a_decision_on_a_keep_taken_back_elsewhere_since_is_refused(windows) -> None:
    first, second = windows
    before = first.last_change_id("12")
    keep(first, OURS)
    shown = second.adjudication.kept("12", "bea")  # kept, as the review showed it
    first.restore("12", before, ANA)  # the keep undone: the disagreement is open again

    with pytest.raises(ChangedElsewhere, match=r"\(restore by ana"):
        judge_as_shown(second, second.labels("12")[0], lambda i, by: second.delete(i, by, adjudicated="bea"), BEN,
                       page="12", decides=[OURS], kept=shown)
    assert len(first.labels("12")) == 1


def test_a_decision_on_a_disagreement_as_shown_is_made_whatever_else_was_kept(windows) -> None:
    first, second = windows
    shown = second.adjudication.kept("12", "bea")
    keep(first, OURS)  # another disagreement kept: no reason to refuse T on this one
    judge_as_shown(second, [], take(second), BEN, page="12", decides=[THEIRS], kept=shown)
    assert [label.xpaths for label in first.labels("12")] == [(ITEM.format(1),), (ITEM.format(3),)]

    # A decision on a disagreement shown kept, and kept still, overrides the keep: the person saw it.
    keep(first, Kept("bea", (ITEM.format(2),), None))
    shown = second.adjudication.kept("12", "bea")
    judge_as_shown(second, [], lambda _ids, by: second.add_record("12", [ITEM.format(2)], Provenance.person("bea"),
                                                                  by=by, adjudicated="bea"),
                   BEN, page="12", decides=[Kept("bea", (ITEM.format(2),), None)], kept=shown)
    assert len(first.labels("12")) == 3


def test_decides_is_judged_on_a_page_named(windows) -> None:
    _, second = windows
    with pytest.raises(ValueError, match="name it"):
        judge_as_shown(second, [], take(second), BEN, decides=[THEIRS])
