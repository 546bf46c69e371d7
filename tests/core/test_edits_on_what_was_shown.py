"""Two connections on one project file (two app windows): an edit, a deletion, a merge or a split made on records
as one of them read them is refused once the other changed one of those records since, inside the write, so that
it never silently overwrites the other's change; a change to another record of the page is no reason to refuse."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.core.store import ChangedElsewhere, StoreError, judge_as_shown
from recordlens.core.store.files import store_snapshot
from recordlens.core.store.project import Project, Provenance, init_project, open_project

ANA = Provenance.person("ana")
BEN = Provenance.person("ben")
HTML = b"<html><body><ul><li>a</li><li>b</li><li>c</li><li>d</li></ul></body></html>"
ITEM = "/body[1]/ul[1]/li[{}]"


@pytest.fixture
def windows(tmp_path: Path) -> Iterator[tuple[Project, Project]]:
    """Two connections on a project whose page 12 holds three accepted records: items 1, 2, and 3 with 4."""
    with init_project(tmp_path / "p") as project:
        digest = store_snapshot(project.root, HTML, ".html")
        project.add_page("12", digest, ".html", len(HTML))
        project.add_records("12", [[ITEM.format(1)], [ITEM.format(2)], [ITEM.format(3), ITEM.format(4)]], ANA,
                            status="accepted")
    with open_project(tmp_path / "p") as first, open_project(tmp_path / "p") as second:
        yield first, second


def states(project: Project) -> list[tuple[str, tuple[str, ...]]]:
    return [(label.status, label.xpaths) for label in project.labels("12")]


def test_an_element_added_to_a_record_rejected_elsewhere_since_is_refused(windows) -> None:
    first, second = windows
    shown = second.labels("12")[0]
    first.reject(shown.id, ANA)
    before, entries = states(first), len(first.history("12"))

    with pytest.raises(ChangedElsewhere, match=r"page 12: the record changed elsewhere since it was shown \(reject "
                                               r"by ana") as refused:
        judge_as_shown(second, shown, lambda i, by: second.edit(i, [ITEM.format(1), ITEM.format(2)], by), BEN)
    assert refused.value.record_id == shown.id
    assert states(first) == before and len(first.history("12")) == entries  # the reject stands, nothing written
    assert not second.db.conn.in_transaction


def test_a_deletion_of_a_record_edited_elsewhere_is_refused_and_of_one_deleted_elsewhere_too(windows) -> None:
    first, second = windows
    one, two, _ = second.labels("12")
    first.edit(one.id, [ITEM.format(1), ITEM.format(2)], ANA)
    with pytest.raises(ChangedElsewhere, match=r"\(edit by ana"):
        judge_as_shown(second, one, second.delete, BEN)
    assert states(first)[0] == ("edited", (ITEM.format(1), ITEM.format(2)))

    first.delete(two.id, ANA)  # gone: refused by the deletion itself, in its own words
    with pytest.raises(StoreError, match="no longer in the project"):
        judge_as_shown(second, two, second.delete, BEN)
    assert len(first.labels("12")) == 2


def test_a_merge_of_records_one_changed_elsewhere_is_refused_and_names_that_one(windows) -> None:
    first, second = windows
    one, two, three = second.labels("12")
    first.reject(two.id, ANA)
    entries = len(first.history("12"))

    with pytest.raises(ChangedElsewhere, match=r"\(reject by ana") as refused:
        judge_as_shown(second, [one, two], second.merge, BEN)
    assert refused.value.record_id == two.id
    assert [label.id for label in first.labels("12")] == [one.id, two.id, three.id]  # nothing merged away
    assert len(first.history("12")) == entries

    # Another record changed elsewhere is no reason to refuse: records 1 and 2 are as read again.
    one, two, _ = second.labels("12")
    first.reject(three.id, ANA)
    merged = judge_as_shown(second, [one, two], second.merge, BEN)
    assert merged.record is not None and merged.record.xpaths == (ITEM.format(1), ITEM.format(2))
    assert states(first) == [("edited", (ITEM.format(1), ITEM.format(2))),
                             ("rejected", (ITEM.format(3), ITEM.format(4)))]


def test_a_split_of_a_record_rejected_elsewhere_is_refused(windows) -> None:
    first, second = windows
    shown = second.labels("12")[2]
    parts = [[ITEM.format(3)], [ITEM.format(4)]]
    first.reject(shown.id, ANA)
    with pytest.raises(ChangedElsewhere, match=r"\(reject by ana"):
        judge_as_shown(second, shown, lambda i, by: second.split(i, parts, by), BEN)
    assert states(first)[2] == ("rejected", (ITEM.format(3), ITEM.format(4)))  # not split back into true records

    again = second.labels("12")[2]  # read again: the split is the person's to make
    assert len(judge_as_shown(second, again, lambda i, by: second.split(i, parts, by), BEN).after) == 2
