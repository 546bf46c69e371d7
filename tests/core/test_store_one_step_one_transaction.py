"""A step of work (`Project.one_step`: 700 proposals accepted at once, a selection rejected, deleted) is one
transaction: a change refused part way, or the process killed part way, leaves none of the step stored, so the
page never holds half a step that no undo step stands for."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from recordlens.core.store.files import store_snapshot
from recordlens.core.store.project import Project, Provenance, init_project, open_project
from tests.child_lines import first_line
from tests.conftest import ROOT

PERSON = Provenance.person("ana")
MDR = Provenance.extractor("mdr", "1")
RECORDS = 30
REFUSED_AT = 12  # the change of the step the store refuses (or the one after which the process is killed)


def proposals_on_a_page(folder: Path) -> list[int]:
    """A project at `folder` with page 1 holding RECORDS proposals, and their ids."""
    with init_project(folder) as project:
        data = b"<html><body><ul></ul></body></html>"
        project.add_page("1", store_snapshot(project.root, data, ".html"), ".html", len(data))
        return [label.id for label in project.add_records(
            "1", [[f"/body[1]/ul[1]/li[{k}]"] for k in range(1, RECORDS + 1)], MDR).after]


def stored(folder: Path) -> tuple[list[str], int]:
    """The statuses of page 1's records and the number of its history entries, as another connection reads them."""
    with open_project(folder) as project:
        assert project.one("PRAGMA integrity_check")[0] == "ok"
        return [label.status for label in project.labels("1")], len(project.history("1"))


def test_a_step_refused_on_its_kth_change_stores_none_of_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = proposals_on_a_page(tmp_path / "p")
    before = stored(tmp_path / "p")
    update = Project._update
    calls: list[int] = []

    def full_on_the_kth(self: Project, row: dict[str, object]) -> None:
        calls.append(1)
        if len(calls) == REFUSED_AT:
            raise sqlite3.OperationalError("database or disk is full")
        update(self, row)

    monkeypatch.setattr(Project, "_update", full_on_the_kth)
    with open_project(tmp_path / "p") as project:
        with pytest.raises(sqlite3.OperationalError), project.one_step("accept record"):
            for record_id in ids:
                project.accept(record_id, PERSON)
        assert len(calls) == REFUSED_AT
        assert not project.db.conn.in_transaction
        monkeypatch.setattr(Project, "_update", update)
        assert stored(tmp_path / "p") == before == (["proposed"] * RECORDS, 1)
        with project.one_step("accept record"):  # the same step again, nothing refused: all of it
            for record_id in ids:
                project.accept(record_id, PERSON)
    assert stored(tmp_path / "p") == (["accepted"] * RECORDS, 1 + RECORDS)


# Opens the project, accepts REFUSED_AT proposals in one step, says so and waits there to be killed.
_CHILD = textwrap.dedent("""
    import sys, time
    from recordlens.core.store.project import Provenance, open_project
    folder, count = sys.argv[1], int(sys.argv[2])
    with open_project(folder) as project, project.one_step("accept record"):
        for label in project.labels("1")[:count]:
            project.accept(label.id, Provenance.person("ana"))
        print("part way", flush=True)
        time.sleep(600)
""")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_a_step_killed_part_way_leaves_none_of_it(tmp_path: Path) -> None:
    proposals_on_a_page(tmp_path / "p")
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(tmp_path / "p"), str(REFUSED_AT)], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = first_line(child)
    finally:
        # Killed before its stderr is read: a child that printed another line sleeps on, and a read would wait
        child.send_signal(signal.SIGKILL)
        _, said = child.communicate(timeout=60)
    assert line == "part way\n", (line, said)
    assert stored(tmp_path / "p") == (["proposed"] * RECORDS, 1)
