"""Two connections on one project file (two app windows): a change made beside the records one of them read, on
their page, is judged there inside the write too. Records added next to a record (G: one per sibling of it) are
refused once one of them is a record of the page (made by the other since, in any status) or the record they are
made from changed or went; a restore to an earlier entry of the page's history is refused once the page has a newer
entry than the one the history showed, since it would take that one back too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.core.store import ChangedElsewhere, judge_as_shown
from recordlens.core.store.project import Project, Provenance
from tests.core.two_windows import ANA, BEN, ITEM, two_windows

SIBLINGS = [[ITEM.format(2)], [ITEM.format(3)], [ITEM.format(4)]]  # what G adds beside record 1 (item 1)


@pytest.fixture
def windows(tmp_path: Path) -> Iterator[tuple[Project, Project]]:
    """Two connections on a project whose page 12 holds one accepted record, item 1."""
    with two_windows(tmp_path / "p") as both:
        yield both


def records(project: Project) -> list[tuple[str, tuple[str, ...]]]:
    return [(label.status, label.xpaths) for label in project.labels("12")]


def add_siblings(project: Project):  # noqa: ANN201 - the change G makes
    return lambda _id, by: project.add_records("12", SIBLINGS, by)


@pytest.mark.parametrize("status", ["proposed", "accepted", "rejected"])
def test_siblings_one_of_which_was_made_a_record_elsewhere_since_are_refused(windows, status) -> None:
    first, second = windows
    source = second.labels("12")[0]
    made = first.add_record("12", [ITEM.format(3)], ANA, status=status).record.id  # in any status: G made it anew
    entries = len(first.history("12"))

    with pytest.raises(ChangedElsewhere, match=r"page 12: the record changed elsewhere since it was shown \(add "
                                               r"by ana") as refused:
        judge_as_shown(second, source, add_siblings(second), BEN, page="12", adds=SIBLINGS)
    assert refused.value.record_id == made
    assert len(first.labels("12")) == 2 and len(first.history("12")) == entries  # no record listed twice
    assert not second.db.conn.in_transaction


def test_siblings_of_a_record_changed_or_deleted_elsewhere_are_refused(windows) -> None:
    first, second = windows
    source = second.labels("12")[0]
    first.reject(source.id, ANA)  # "not a record": its siblings are not made records from it
    with pytest.raises(ChangedElsewhere, match=r"\(reject by ana"):
        judge_as_shown(second, source, add_siblings(second), BEN, page="12", adds=SIBLINGS)

    again = second.labels("12")[0]
    first.delete(again.id, ANA)  # gone: the add would not notice, so it is refused here
    with pytest.raises(ChangedElsewhere, match=r"\(delete by ana") as refused:
        judge_as_shown(second, again, add_siblings(second), BEN, page="12", adds=SIBLINGS)
    assert refused.value.record_id == again.id
    assert first.labels("12") == []


def test_siblings_of_a_record_as_shown_are_added_whatever_else_changed(windows) -> None:
    first, second = windows
    source = second.labels("12")[0]
    first.add_record("12", [ITEM.format(1), ITEM.format(2)], ANA)  # another record, of none of the siblings
    judge_as_shown(second, source, add_siblings(second), BEN, page="12", adds=SIBLINGS)
    assert [xpaths for _, xpaths in records(first)][2:] == [tuple(record) for record in SIBLINGS]


def test_a_restore_over_a_change_made_since_the_history_was_shown_is_refused(windows) -> None:
    first, second = windows
    shown = second.history("12")  # the history as the window showed it
    back_to = shown[0].id
    first.add_record("12", [ITEM.format(2)], ANA)  # a change the restore would take back unseen
    before, entries = records(first), len(first.history("12"))

    def restore(_ids: list[int], by: Provenance):  # noqa: ANN202 - a Change
        return second.restore("12", back_to, by)

    with pytest.raises(ChangedElsewhere, match=r"page 12: the page changed elsewhere since it was shown \(add by "
                                               r"ana") as refused:
        judge_as_shown(second, [], restore, BEN, page="12", newest=shown[-1].id)
    assert refused.value.record_id is None
    assert records(first) == before and len(first.history("12")) == entries

    # Shown again, the restore is the person's to make.
    assert judge_as_shown(second, [], restore, BEN, page="12", newest=second.last_change_id("12")).id is not None
    assert records(first) == [("accepted", (ITEM.format(1),))]


def test_adds_and_newest_are_judged_on_a_page_named(windows) -> None:
    _, second = windows
    with pytest.raises(ValueError, match="name it"):
        judge_as_shown(second, [], lambda _ids, by: second.restore("12", None, by), BEN, newest=1)
