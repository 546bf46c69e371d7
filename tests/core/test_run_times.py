"""A run folder added to a project never ends before it started: its start is what its run.json says (the
extracting machine's clock), its end when its last page's file was written (the file system's), and the two
clocks differ when a folder comes from another machine or is copied."""

from __future__ import annotations

import json
import os
from pathlib import Path

from recordlens.core.store import import_paths, import_run_folder, init_project
from tests.core.shop_runs import dataset, run_folder


def a_run_folder_written_ahead(root: Path) -> Path:
    """A run of two pages whose run.json says it was written three hours after its files' times."""
    folder = run_folder(root, ["0", "1"], method="repeats")
    described = json.loads((folder / "_run" / "run.json").read_text())
    (folder / "_run" / "run.json").write_text(json.dumps({**described, "written": "2026-12-05T20:10:13.000Z"}))
    for name in ("0", "1"):  # what `extract` notes per page, written at 17:10 by the file system's clock
        page = folder / "_run" / f"{name}.json"
        page.write_text(json.dumps({"seconds": 0.5}))
        moment = 1796490613  # 2026-12-05T17:10:13Z
        os.utime(page, (moment, moment))
    return folder


def test_a_run_whose_files_are_older_than_its_start_ends_when_it_started(tmp_path: Path) -> None:
    with init_project(tmp_path / "p") as project:
        import_paths(project, [dataset(tmp_path / "data", 2)])
        run_id = import_run_folder(project, a_run_folder_written_ahead(tmp_path / "run")).run_id
        run = project.runs.get(run_id)
    assert run.started_at == "2026-12-05T20:10:13.000Z"
    assert run.ended_at == run.started_at  # not 17:10, three hours before it started


def test_a_run_whose_files_are_later_than_its_start_ends_with_its_last_file(tmp_path: Path) -> None:
    folder = a_run_folder_written_ahead(tmp_path / "run")
    described = json.loads((folder / "_run" / "run.json").read_text())
    (folder / "_run" / "run.json").write_text(json.dumps({**described, "written": "2026-12-05T17:00:00.000Z"}))
    with init_project(tmp_path / "p") as project:
        import_paths(project, [dataset(tmp_path / "data", 2)])
        run = project.runs.get(import_run_folder(project, folder).run_id)
    assert (run.started_at, run.ended_at) == ("2026-12-05T17:00:00.000Z", "2026-12-05T17:10:13.000Z")
