"""Two connections on one project (two app windows): a verdict or a page mark made on what one of them read is
refused once the other changed that since, inside the write, so that it never silently takes the other's change
back; a change to another record of the page is no reason to refuse."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.core.store import ChangedElsewhere, judge_as_shown, mark_as_shown
from recordlens.core.store.files import store_snapshot
from recordlens.core.store.project import Project, Provenance, init_project, open_project

ANA = Provenance.person("ana")
BEN = Provenance.person("ben")
HTML = b"<html><body><ul><li>a</li><li>b</li><li>c</li></ul></body></html>"
ITEM = "/body[1]/ul[1]/li[{}]"


@pytest.fixture
def windows(tmp_path: Path) -> Iterator[tuple[Project, Project]]:
    """Two connections on a project whose page 12 holds two accepted records and is labelled."""
    with init_project(tmp_path / "p") as project:
        digest = store_snapshot(project.root, HTML, ".html")
        project.add_page("12", digest, ".html", len(HTML))
        project.add_records("12", [[ITEM.format(1)], [ITEM.format(2)]], ANA)
        project.set_status("12", "labelled", ANA)
    with open_project(tmp_path / "p") as first, open_project(tmp_path / "p") as second:
        yield first, second


def test_an_accept_on_a_record_rejected_elsewhere_since_is_refused(windows) -> None:
    first, second = windows
    shown = second.labels("12")[0]  # the second window shows record 1 accepted
    first.reject(first.labels("12")[0].id, ANA)
    entries = len(first.history("12"))

    with pytest.raises(ChangedElsewhere) as refused:
        judge_as_shown(second, shown, second.accept, BEN)
    assert refused.value.record_id == shown.id and refused.value.page == "12"
    assert refused.value.change is not None and refused.value.change.action == "reject"
    assert refused.value.change.actor == ANA
    assert "page 12: the record changed elsewhere since it was shown (reject by ana" in str(refused.value)
    assert first.labels("12")[0].status == "rejected"  # nothing overwritten
    assert len(first.history("12")) == entries  # nothing written
    assert not second.db.conn.in_transaction  # the write was rolled back whole

    # Read again (shown as it now is), the same accept is the person's to make.
    again = judge_as_shown(second, second.labels("12")[0], second.accept, BEN)
    assert again.id is not None and first.labels("12")[0].status == "accepted"


def test_a_record_edited_elsewhere_is_refused_and_another_record_changed_is_not(windows) -> None:
    first, second = windows
    one, two = second.labels("12")
    first.edit(one.id, [ITEM.format(3)], ANA)  # its elements changed: the reject is not meant on those
    with pytest.raises(ChangedElsewhere, match=r"\(edit by ana"):
        judge_as_shown(second, one, second.reject, BEN)
    assert judge_as_shown(second, two, second.reject, BEN).id is not None  # record 2 is as shown
    assert [label.status for label in first.labels("12")] == ["edited", "rejected"]


def test_a_verdict_as_shown_changes_nothing_where_the_record_is_so_already(windows) -> None:
    _, second = windows
    shown = second.labels("12")[0]
    assert judge_as_shown(second, shown, second.accept, BEN).id is None  # accepted already: no entry


def test_one_refused_record_refuses_a_step_of_several_whole(windows) -> None:
    first, second = windows
    one, two = second.labels("12")
    first.reject(two.id, ANA)
    with pytest.raises(ChangedElsewhere), second.one_step("reject 2 records"):
        for label in (one, two):
            judge_as_shown(second, label, second.reject, BEN)
    assert [label.status for label in first.labels("12")] == ["accepted", "rejected"]  # record 1 not rejected


def test_a_mark_over_one_made_elsewhere_since_is_refused(windows) -> None:
    first, second = windows
    shown = second.page("12").status  # both show it labelled
    first.set_status("12", "reviewed", ANA)
    entries = len(first.history("12"))

    with pytest.raises(ChangedElsewhere) as refused:
        mark_as_shown(second, "12", "labelled", BEN, shown=shown)
    assert refused.value.record_id is None and refused.value.what == "page status"
    assert refused.value.change is not None and refused.value.change.detail == {"from": "labelled", "to": "reviewed"}
    assert first.page("12").status == "reviewed" and len(first.history("12")) == entries

    # A record changed since is no reason to refuse a mark: the page's status is as shown.
    first.reject(first.labels("12")[0].id, ANA)
    moved = mark_as_shown(second, "12", "labelled", BEN, shown="reviewed")
    assert moved.id is not None and first.page("12").status == "labelled"
