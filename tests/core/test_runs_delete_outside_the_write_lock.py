"""`runs --delete` writes the run's copy in `removed/runs/` (a file per page, each written through to the disk)
before it takes the project's write lock, under a hidden name, and names it in the short transaction that deletes
the run: an edit made meanwhile (the app's L key) is stored at once, never refused as "database is locked"; a run
changed meanwhile is copied again; a deletion killed part way leaves no folder that looks like a kept copy; and a
page whose name is a path (a database changed by hand) is refused before any file is written outside the project."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store import runs as runs_module
from recordlens.core.store.db import StoreError
from recordlens.core.store.files import store_snapshot
from recordlens.core.store.project import Provenance, init_project, open_project
from tests.conftest import ROOT

PAGES = [f"p{k}" for k in range(12)]
RECORDS = [["/html[1]/body[1]/div[1]"], ["/html[1]/body[1]/div[2]"]]
ANA = Provenance.person("ana")


def project_with_a_run(folder: Path, failed: tuple[str, ...] = ()) -> int:
    """A project of PAGES and one more page, `extra`, and a finished run predicting RECORDS on PAGES (failing
    on the `failed` ones): its id."""
    with init_project(folder) as project:
        data = b"<html><body><div>a</div><div>b</div></body></html>"
        digest = store_snapshot(project.root, data, ".html")
        with project.writing():
            for name in [*PAGES, "extra"]:
                project.add_page(name, digest, ".html", len(data))
        run_id = project.runs.add("repeats", {"min_repeats": 2})
        project.runs.add_predictions(run_id, {page: RECORDS for page in PAGES if page not in failed},
                                     dict.fromkeys(failed, "boom"))
        project.runs.finish(run_id)
        return run_id


def kept_copies(folder: Path) -> list[Path]:
    """Everything in the project's `removed/runs/`, hidden entries too."""
    parent = folder / "removed" / "runs"
    return sorted(parent.iterdir()) if parent.is_dir() else []


def on_page_file(monkeypatch: pytest.MonkeyPatch, act) -> list[int]:  # noqa: ANN001 - called with the call's number
    """`act(n)` before the n-th page file of a run's copy is written; the numbers of the calls made."""
    real = runs_module.save_records
    calls: list[int] = []

    def acting(path: Path, records) -> Path:  # noqa: ANN001 - records as save_records takes them
        calls.append(len(calls) + 1)
        act(len(calls))
        return real(path, records)

    monkeypatch.setattr(runs_module, "save_records", acting)
    return calls


def test_an_edit_made_while_the_copy_is_written_is_stored_at_once(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    run_id = project_with_a_run(tmp_path / "p")
    edits: list[str] = []
    with open_project(tmp_path / "p") as other:
        other.db.conn.execute("PRAGMA busy_timeout = 0")  # the app's edit, refused at once if the lock is held

        def edit(n: int) -> None:
            if n == 3:
                try:
                    other.set_status("extra", "labelled", ANA)
                    edits.append("stored")
                except sqlite3.OperationalError as error:
                    edits.append(str(error))

        on_page_file(monkeypatch, edit)
        with open_project(tmp_path / "p") as project:
            deleted = project.runs.delete(run_id)
            assert project.page("extra").status == "labelled"
    assert edits == ["stored"]
    assert deleted.predictions == len(PAGES)
    assert kept_copies(tmp_path / "p") == [deleted.kept]
    assert sorted(p.stem for p in deleted.kept.glob("*.json")) == sorted(PAGES)


def test_a_run_changed_while_its_copy_is_written_is_copied_again_as_it_then_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_id = project_with_a_run(tmp_path / "p")
    with open_project(tmp_path / "p") as other:
        # a Propose session going on: one more page of the run stored while the first copy is written
        calls = on_page_file(monkeypatch, lambda n: n == 2 and other.runs.add_predictions(run_id, {"extra": RECORDS}))
        with open_project(tmp_path / "p") as project:
            deleted = project.runs.delete(run_id)
    assert len(calls) == len(PAGES) + len(PAGES) + 1  # the first copy, found out of date, then the run as it is
    assert deleted.predictions == len(PAGES) + 1
    assert sorted(p.stem for p in deleted.kept.glob("*.json")) == sorted([*PAGES, "extra"])
    assert kept_copies(tmp_path / "p") == [deleted.kept]  # the copy given up is gone


def test_a_run_that_changes_while_each_copy_is_written_is_not_deleted_and_leaves_no_copy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_id = project_with_a_run(tmp_path / "p")
    with open_project(tmp_path / "p") as other:
        on_page_file(monkeypatch, lambda n: n % len(PAGES) == 1 and other.runs.keep_cost(run_id, {"pages": n}))
        with open_project(tmp_path / "p") as project:
            with pytest.raises(StoreError, match=f"run {run_id} not deleted: it changed each of the 3 times"):
                project.runs.delete(run_id)
            assert [run.id for run in project.runs.all()] == [run_id]
            assert len(project.runs.predictions(run_id)) == len(PAGES)
    assert kept_copies(tmp_path / "p") == []


# `recordlens runs --delete 1`, killed (SIGKILL) as it is about to write the 4th page file of the run's copy.
_KILLED_PART_WAY = textwrap.dedent("""
    import os, signal, sys
    from recordlens.core.cli.command import main
    from recordlens.core.store import runs
    real, calls = runs.save_records, []
    def killing(*args, **kwargs):
        calls.append(1)
        if len(calls) == 4:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)
    runs.save_records = killing
    sys.exit(main(["runs", "--project", sys.argv[1], "--delete", "1"]))
""")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_a_deletion_killed_part_way_leaves_no_folder_named_as_a_kept_copy(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "p"
    assert project_with_a_run(folder) == 1
    child = subprocess.run([sys.executable, "-c", _KILLED_PART_WAY, str(folder)], cwd=ROOT, capture_output=True,
                           text=True, timeout=300)
    assert child.returncode == -signal.SIGKILL, child.stderr
    with open_project(folder) as project:
        assert [run.id for run in project.runs.all()] == [1]  # nothing was committed
    (left,) = kept_copies(folder)
    assert left.name.startswith(".1-repeats.partial-")  # hidden: never taken for a deleted run's copy
    assert len(list(left.glob("*.json"))) == 3

    assert main(["runs", "--project", str(folder), "--delete", "1"]) == 0  # the next deletion removes it
    (kept,) = kept_copies(folder)
    assert kept.name.startswith("1-repeats.") and f"its predictions are kept in {kept} " in capsys.readouterr().err
    assert sorted(p.stem for p in kept.glob("*.json")) == sorted(PAGES)
    assert json.loads((kept / "_run" / "run.json").read_text(encoding="utf-8"))["method"] == "repeats"
    assert main(["runs", "--project", str(folder), "--add", str(kept)]) == 0
    with open_project(folder) as project:
        assert len(project.runs.predictions(2)) == len(PAGES)


@pytest.mark.parametrize("failed", [(), ("p1",)], ids=["records", "failed"])
def test_a_page_named_as_a_path_is_refused_before_any_file_is_written(tmp_path: Path, failed: tuple[str, ...]) -> None:
    folder = tmp_path / "inside" / "p"
    run_id = project_with_a_run(folder, failed)
    escaped = "../../../../escaped"  # from removed/runs/ID-METHOD.TIME/: beside the project's folder
    with sqlite3.connect(folder / "project.db") as db:  # changed by hand
        db.execute("UPDATE pages SET name = ? WHERE name = 'p1'", (escaped,))
    with open_project(folder) as project:
        with pytest.raises(StoreError) as refused:
            project.runs.delete(run_id)
        assert [run.id for run in project.runs.all()] == [run_id]
    assert str(refused.value).startswith(f"run {run_id} not deleted: the page name '{escaped}' is a path, not a "
                                         "file's name: its file would be written outside ")
    assert "`recordlens project remove-page`" in str(refused.value)
    assert list(tmp_path.rglob("escaped*")) == []
    assert kept_copies(folder) == []
