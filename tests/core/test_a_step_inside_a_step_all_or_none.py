"""A step begun inside a write transaction already open (`Project.one_step` inside another step, or inside an
import's `writing()`) joined it without a savepoint: failing part way, it took back nothing of its own, and a caller
that caught the error and went on committed the step's half. Such a step is now a savepoint of the transaction."""

from __future__ import annotations

import contextlib
from pathlib import Path

from recordlens.core.store.files import store_snapshot
from recordlens.core.store.project import Project, Provenance, init_project, open_project

PERSON = Provenance.person("ana")


class Refused(Exception):
    """A change refused part way through a step."""


def _three_proposals(folder: Path) -> list[int]:
    with init_project(folder) as project:
        data = b"<html><body><ul></ul></body></html>"
        project.add_page("1", store_snapshot(project.root, data, ".html"), ".html", len(data))
        return [label.id for label in project.add_records(
            "1", [[f"/body[1]/ul[1]/li[{k}]"] for k in range(1, 4)], Provenance.extractor("mdr", "1")).after]


def _half_a_step(project: Project, record_id: int) -> None:
    """A step that accepts `record_id`, then is refused; the error caught, as an outer caller may."""
    with contextlib.suppress(Refused), project.one_step("accept record"):
        project.accept(record_id, PERSON)
        raise Refused


def _statuses(folder: Path) -> list[str]:
    with open_project(folder) as project:
        return [label.status for label in project.labels("1")]


def test_a_failed_step_inside_a_step_takes_back_its_own_changes_only(tmp_path: Path) -> None:
    first, second, third = _three_proposals(tmp_path / "p")
    with open_project(tmp_path / "p") as project, project.one_step("accept record"):
        project.accept(first, PERSON)
        _half_a_step(project, second)
        project.accept(third, PERSON)
    assert _statuses(tmp_path / "p") == ["accepted", "proposed", "accepted"]


def test_a_failed_step_inside_an_open_transaction_takes_back_its_own_changes(tmp_path: Path) -> None:
    first, second, _ = _three_proposals(tmp_path / "p")
    with open_project(tmp_path / "p") as project, project.writing():
        project.accept(first, PERSON)
        _half_a_step(project, second)
        assert project.db.conn.in_transaction  # the outer transaction goes on
    assert _statuses(tmp_path / "p") == ["accepted", "proposed", "proposed"]
