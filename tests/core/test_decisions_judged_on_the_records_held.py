"""Two connections on one project file (two app windows): a Review decision on another annotator's record is refused
inside its write once the other connection made that record a true record of the page since. A keep (O) of a
record only they made names "the project has none": the store refuses it whoever asks, and `judge_as_shown` says
it changed elsewhere (naming the change that did); a decision that makes their record of one of the project's (T:
an edit to their version, a rejected copy accepted) would list it twice. A record of theirs the project holds
only rejected is no such reason: it says "not a record", and the disagreement stands."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.core.store import ChangedElsewhere, Kept, StoreError, judge_as_shown
from recordlens.core.store.project import Project, Provenance
from tests.core.two_windows import ANA, BEN, ITEM, two_windows

BEA = Provenance.person("bea")
THEIRS = Kept("bea", (ITEM.format(3),), None)  # a record only bea made: O keeps the project's none


@pytest.fixture
def windows(tmp_path: Path) -> Iterator[tuple[Project, Project]]:
    """Two connections on a project whose page 12 holds one accepted record, item 1; bea labelled items 1 and 3."""
    with two_windows(tmp_path / "p", (1, 3)) as both:
        yield both


def took(project: Project) -> int:
    """T on bea's item 3 in that window: its record's id."""
    change = project.add_record("12", [ITEM.format(3)], BEA, status="accepted", by=ANA, adjudicated="bea")
    assert change.record is not None
    return change.record.id


def keep(project: Project):  # noqa: ANN201 - O on bea's item 3: "the project has none"
    return lambda _ids, by: project.adjudication.keep("12", "bea", THEIRS.theirs, None, by)


def test_a_keep_of_a_record_taken_elsewhere_since_is_refused(windows) -> None:
    first, second = windows
    shown = second.adjudication.kept("12", "bea")
    taken = took(first)
    entries = len(first.history("12"))

    with pytest.raises(ChangedElsewhere, match=r"page 12: the record changed elsewhere since it was shown \(add by "
                                               r"ana") as refused:
        judge_as_shown(second, [], keep(second), BEN, page="12", decides=[THEIRS], kept=shown)
    assert refused.value.record_id == taken
    assert first.adjudication.kept("12", "bea") == frozenset() and len(first.history("12")) == entries
    assert not second.db.conn.in_transaction

    # The store refuses it itself, whoever asks: "the project has none" is no longer so.
    with pytest.raises(StoreError, match="already holds bea's record"):
        second.adjudication.keep("12", "bea", THEIRS.theirs, None, BEN)
    assert first.adjudication.kept("12", "bea") == frozenset()


def test_a_keep_beside_their_record_rejected_is_made(windows) -> None:
    first, second = windows
    shown = second.adjudication.kept("12", "bea")
    first.add_record("12", [ITEM.format(3)], ANA, status="rejected")  # "not a record": the disagreement stands
    judge_as_shown(second, [], keep(second), BEN, page="12", decides=[THEIRS], kept=shown)
    assert first.adjudication.kept("12", "bea") == frozenset({THEIRS})


def test_an_edit_into_their_record_made_elsewhere_since_is_refused(windows) -> None:
    first, second = windows
    ours = second.labels("12")[0]
    taken = took(first)  # item 3, made a record of the page by the other window

    with pytest.raises(ChangedElsewhere) as refused:  # T on a pair: record 1 edited into item 3 (their version)
        judge_as_shown(second, ours, lambda i, by: second.edit(i, [ITEM.format(3)], by, adjudicated="bea"), BEN,
                       page="12", makes=[[ITEM.format(3)]])
    assert refused.value.record_id == taken
    assert [label.xpaths for label in first.labels("12")] == [(ITEM.format(1),), (ITEM.format(3),)]

    # The record it changes is no other record: an edit that keeps its elements (another status) is made.
    judge_as_shown(second, ours, lambda i, by: second.edit(i, [ITEM.format(1)], by, adjudicated="bea"), BEN,
                   page="12", makes=[[ITEM.format(1)]])


def test_makes_is_judged_on_a_page_named(windows) -> None:
    _, second = windows
    with pytest.raises(ValueError, match="name it"):
        judge_as_shown(second, second.labels("12")[0], lambda i, by: second.accept(i, by), BEN,
                       makes=[[ITEM.format(1)]])
