"""Imports, runs and copies, as a reviewer found them: a run folder whose description names no method is said so by
the store itself; a folder's subfolders of labels are never suggested as folders of pages; a deleted run is kept
as a run folder that `runs --add` stores again; a copy of an older project leaves that project as it was."""

from __future__ import annotations

import json
import shlex
import shutil
import sqlite3
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.errors import RecordLensError
from recordlens.core.resource_files import resource_path
from recordlens.core.store.files import snapshot_path
from recordlens.core.store.importer import import_run_folder
from recordlens.core.store.project import open_project
from recordlens.core.store.project_copy import copy_project
from recordlens.core.store.schema import SCHEMA_VERSION
from tests.core.cli_runs import run
from tests.core.old_projects import OLD_HASH, old_project

DEMO = resource_path("demo", "dataset")
PAGE = "<html><body><ul><li>one</li><li>two</li></ul></body></html>"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The demo dataset's 4 labelled pages."""
    assert main(["project", "init", str(tmp_path / "p")]) == 0
    assert main(["import", str(DEMO), "--project", str(tmp_path / "p"), "-q"]) == 0
    return tmp_path / "p"


def test_a_run_description_that_names_no_method_is_said_so_by_the_store(project: Path, tmp_path: Path) -> None:
    folder = tmp_path / "run"
    shutil.copytree(DEMO / "gt", folder)
    (folder / "_run").mkdir()
    (folder / "_run" / "run.json").write_text('{"version": 1}', encoding="utf-8")
    with open_project(project) as opened, pytest.raises(RecordLensError) as refused:
        import_run_folder(opened, folder)
    assert str(refused.value) == (f"{folder} does not say which method made it ({folder / '_run' / 'run.json'} "
                                  "names no method); give its name (--method)")


def test_a_folder_of_labels_alone_is_never_suggested_as_a_folder_of_pages(project: Path, tmp_path: Path,
                                                                          capsys) -> None:
    only = tmp_path / "only"  # a dataset's labels without its html/
    shutil.copytree(DEMO / "gt", only / "gt")
    code, _, err = run(capsys, "import", str(only), "--project", str(project), "-q")
    assert code == 1 and "with --annotator NAME" in err
    assert f"recordlens import {only / 'gt'}`" not in err and "not looked into" not in err
    data = tmp_path / "data"  # pages, beside a folder of labels of the project's pages
    data.mkdir()
    (data / "top.html").write_text(PAGE, encoding="utf-8")
    shutil.copytree(DEMO / "gt", data / "labels")
    code, _, err = run(capsys, "import", str(data), "--project", str(project), "-q")
    assert code == 0 and f"recordlens import {data / 'labels'}`" not in err
    command = err.split("as in `recordlens ")[1].split("`")[0]
    assert command == f"import {data / 'labels'} --annotator NAME"
    assert run(capsys, *shlex.split(command.replace("NAME", "cleo")), "--project", str(project), "-q")[0] == 0
    with open_project(project) as opened:
        assert opened.annotators.pages("cleo") == ["1", "2", "3", "4"]


def test_pages_beside_a_gt_folder_are_told_where_labels_go(project: Path, tmp_path: Path, capsys) -> None:
    data = tmp_path / "flat"
    data.mkdir()
    (data / "new.html").write_text(PAGE, encoding="utf-8")
    shutil.copytree(DEMO / "gt", data / "gt")
    code, _, err = run(capsys, "import", str(data), "--project", str(project), "-q")
    assert code == 0 and "1 subfolder not looked into (gt)" in err
    assert f"recordlens import {data / 'gt'}`" not in err and f"{data}/html/N.html and gt/N.json" in err


def a_run_with_a_failed_page(tmp_path: Path) -> Path:
    folder = tmp_path / "made"
    shutil.copytree(DEMO / "gt", folder)
    (folder / "3.json").unlink()
    (folder / "4.json").write_text("[]", encoding="utf-8")
    (folder / "_run").mkdir()
    (folder / "_run" / "3.json").write_text(json.dumps({"status": "failed", "reason": "boom"}), encoding="utf-8")
    (folder / "_run" / "run.json").write_text(json.dumps({
        "method": "repeats", "version": 2, "parameters": {"min_repeats": 3}, "written": "2026-01-02T03:04:05+00:00",
        "stopped": "the budget ran out"}), encoding="utf-8")
    return folder


def stored(project: Path, run_id: int) -> tuple[object, ...]:
    with open_project(project) as opened:
        info = opened.runs.get(run_id)
        parameters = {key: value for key, value in info.parameters.items() if key != "source"}
        return (info.method, parameters, info.started_at, info.outcome, opened.runs.predictions(run_id),
                opened.runs.errors(run_id))


def test_a_deleted_run_is_kept_as_a_run_folder_that_runs_add_stores_again(project: Path, tmp_path: Path,
                                                                          capsys) -> None:
    assert run(capsys, "runs", "--project", str(project), "--add", str(a_run_with_a_failed_page(tmp_path)))[0] == 0
    before = stored(project, 1)
    assert before[3] == "stopped" and before[5] == {"3": "boom"}
    code, _, err = run(capsys, "runs", "--project", str(project), "--delete", "1")
    assert code == 0 and "; its predictions are kept in " in err
    kept = Path(err.split("; its predictions are kept in ")[1].split(" (")[0])
    assert kept.parent == project / "removed" / "runs" and kept.name.startswith("1-repeats.")
    assert sorted(p.name for p in kept.glob("*.json")) == ["1.json", "2.json", "4.json"]
    command = err.split("(`recordlens ")[1].split("` stores the run again")[0]
    assert run(capsys, *shlex.split(command))[0] == 0
    assert stored(project, 2) == before


def test_a_deleted_run_made_in_the_app_keeps_what_its_calls_cost(project: Path, capsys) -> None:
    """A Propose session with Gemini keeps each page's record (calls, tokens) in the run's cost, not in files:
    deleting the run writes them back as `_run/N.json`, and the run added again costs what it cost."""
    records = {"1": {"status": "done", "tokens": {"prompt": 100, "completion": 20, "total": 120}, "seconds": 1.0,
                     "raw": {"calls": [{"statuses": [200]}]}},
               "2": {"status": "failed", "reason": "refused (SAFETY)", "tokens": {"total": 90}}}
    with open_project(project) as opened:
        made = opened.runs.add("gemini", {"made_in": "the app's Propose"})
        opened.runs.add_predictions(made, {"1": [["/body[1]"]]}, {"2": "refused (SAFETY)"})
        opened.runs.finish(made, cost={"pages": 2, "tokens": {"total": 210}, "page_costs": records})
    code, _, err = run(capsys, "runs", "--project", str(project), "--delete", str(made))
    assert code == 0
    kept = Path(err.split("; its predictions are kept in ")[1].split(" (")[0])
    assert json.loads((kept / "_run" / "1.json").read_text(encoding="utf-8"))["tokens"]["total"] == 120
    assert json.loads((kept / "_run" / "2.json").read_text(encoding="utf-8"))["reason"] == "refused (SAFETY)"
    assert run(capsys, "runs", "--project", str(project), "--add", str(kept))[0] == 0
    with open_project(project) as opened:
        again = max(r.id for r in opened.runs.all())
        assert opened.runs.get(again).cost["tokens"]["total"] == 210


def test_a_deletion_that_fails_keeps_the_run_and_leaves_no_folder(project: Path, tmp_path: Path, capsys) -> None:
    assert run(capsys, "runs", "--project", str(project), "--add", str(a_run_with_a_failed_page(tmp_path)))[0] == 0
    with sqlite3.connect(project / "project.db") as db:
        db.execute("CREATE TRIGGER refused BEFORE DELETE ON runs BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    assert run(capsys, "runs", "--project", str(project), "--delete", "1")[0] == 2
    assert stored(project, 1)[0] == "repeats" and not list((project / "removed" / "runs").glob("*"))


def test_a_copy_of_an_older_project_leaves_that_project_as_it_was(tmp_path: Path) -> None:
    old = old_project(tmp_path / "old", 1, f"INSERT INTO snapshots VALUES ('{OLD_HASH}', '.html', 1, 't')",
                      f"INSERT INTO pages (name, snapshot, imported_at, updated_at) VALUES ('7', '{OLD_HASH}', 't', "
                      "'t')")
    snapshot_path(old, OLD_HASH, ".html").parent.mkdir(parents=True, exist_ok=True)
    snapshot_path(old, OLD_HASH, ".html").write_text(PAGE, encoding="utf-8")
    before = (old / "project.db").read_bytes()
    copied = copy_project(old, tmp_path / "copy")
    assert copied.pages == 1
    with sqlite3.connect(old / "project.db") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    assert (old / "project.db").read_bytes() == before
    with sqlite3.connect(tmp_path / "copy" / "project.db") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_running_run_keeps_its_cost_as_it_goes_without_ending(project: Path) -> None:
    """A Propose session keeps its cost page by page: the run stays running, with no end time, until it ends."""
    with open_project(project) as opened:
        made = opened.runs.add("gemini")
        opened.runs.keep_cost(made, {"pages": 1, "tokens": {"total": 120}})
        info = opened.runs.get(made)
        assert (info.status, info.ended_at, info.cost["tokens"]["total"]) == ("running", None, 120)
