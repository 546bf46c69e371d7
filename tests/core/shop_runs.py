"""Small generated shop pages for the tests of scoring and of what a stored score keeps: a dataset of them, each
labelled with two records; a run folder's predictions of them; and a project of three with a run, scored."""

from __future__ import annotations

import json
from pathlib import Path

from recordlens.core.store.importer import import_paths, import_run_folder
from recordlens.core.store.project import init_project
from recordlens.core.store.scoring import score_stored_run


def page_html(k: int) -> str:
    """Shop page `k`: a list of three items and an empty div."""
    return (f"<html><head><title>Shop {k}</title></head><body><h1>shop {k}</h1><ul><li>a {k}</li><li>b {k}</li>"
            f"<li>c {k}</li></ul><div></div></body></html>")


def dataset(root: Path, pages: int, *, first: int = 0) -> Path:
    """`pages` pages, each labelled with two records, the first page also with one that names no text."""
    (root / "html").mkdir(parents=True)
    (root / "gt").mkdir()
    for k in range(first, first + pages):
        (root / "html" / f"{k}.html").write_text(page_html(k), encoding="utf-8")
        truth = [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]", "/body[1]/ul[1]/li[3]"]]
        if k == first:
            truth.append(["/body[1]/div[1]"])  # expands to nothing: counted in empty_true_records
        (root / "gt" / f"{k}.json").write_text(json.dumps(truth), encoding="utf-8")
    return root


def run_folder(root: Path, names: list[str], method: str = "handmade", parameters: dict | None = None) -> Path:
    """A run folder in `root` (its method and parameters as given) predicting pages `names`: the second, fourth...
    items 1 and 2 as two records, the others the whole list and an empty record."""
    (root / "_run").mkdir(parents=True)
    (root / "_run" / "run.json").write_text(json.dumps({"method": method, "parameters": parameters or {}}))
    for k, name in enumerate(names):
        records = [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]"]] if k % 2 else [["/body[1]/ul[1]"], []]
        (root / f"{name}.json").write_text(json.dumps(records), encoding="utf-8")
    return root


def scored_project(tmp_path: Path) -> Path:
    """A project of three labelled pages and one run, scored now."""
    folder = tmp_path / "p"
    with init_project(folder) as project:
        import_paths(project, [dataset(tmp_path / "data", 3)])
        run_id = import_run_folder(project, run_folder(tmp_path / "run", ["0", "1", "2"])).run_id
        score_stored_run(project, run_id)
        assert project.runs.stale_pages(run_id) == []
    return folder
