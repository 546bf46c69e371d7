"""Projects of plain lists, for the app tests that open one instead of the demo project (a module's own
`project_dir`): a list page of four items (ITEM.format(k) of tests/app/demo_project.py, k from 1 to 4) with no
script and nothing from elsewhere, imported with items as true records, with bea's label set beside them or not;
and more such pages imported from the command line while a window is open."""

from __future__ import annotations

import json
from pathlib import Path

from recordlens.core.cli.command import main as recordlens
from recordlens.core.store import import_paths, open_project
from tests.app.demo_project import ITEM
from tests.app.window_helpers import imported_project

PLAIN_LIST = """<!doctype html><html><head><meta charset="utf-8"><title>List</title></head><body>
<h1>Products</h1><ul>
<li><b>Camera</b> <i>$399</i></li><li><b>Lens</b> <i>$129</i></li><li><b>Tripod</b> <i>$59</i></li>
<li><b>Bag</b> <i>$35</i></li></ul></body></html>"""
TITLED_LIST = PLAIN_LIST.replace("<title>List</title>", "<title>{title}</title>")  # the same list under other titles
FIRST_TWO = json.dumps([[ITEM.format(1)], [ITEM.format(2)]])  # items 1 and 2 as two records

BEAS_RECORDS = [[ITEM.format(1), ITEM.format(3)], [ITEM.format(2), ITEM.format(4)]]  # each of items 1, 2 and one more


def one_list(folder: Path) -> Path:
    """A project in `folder` of one list page (page 1), with two true records (items 1 and 2)."""
    return imported_project(folder, {"html/1.html": PLAIN_LIST, "gt/1.json": FIRST_TWO})


def one_list_and_beas(folder: Path) -> Path:
    """`one_list`, with bea's label set beside the project's labels: BEAS_RECORDS, each of the project's records
    and one item more."""
    project_folder = one_list(folder)
    bea = folder / "bea"
    (bea / "html").mkdir(parents=True)
    (bea / "gt").mkdir()
    (bea / "html" / "1.html").write_text(PLAIN_LIST, encoding="utf-8")
    (bea / "gt" / "1.json").write_text(json.dumps(BEAS_RECORDS), encoding="utf-8")
    with open_project(project_folder) as project:
        assert not import_paths(project, [bea], annotator="bea").problems
    return project_folder


def two_lists(folder: Path) -> Path:
    """A project in `folder` of two list pages (1 titled One, 2 titled Two), each with two true records (items 1
    and 2)."""
    return imported_project(folder, {"html/1.html": TITLED_LIST.format(title="One"), "gt/1.json": FIRST_TWO,
                                     "html/2.html": TITLED_LIST.format(title="Two"), "gt/2.json": FIRST_TWO})


def import_elsewhere(tmp_path: Path, project_dir: Path, names: range) -> None:
    """`recordlens import` of pages `names`, each with one true record (so each has its labels' history)."""
    more = tmp_path / f"more-{names.start}"
    (more / "html").mkdir(parents=True)
    (more / "gt").mkdir()
    for k in names:
        (more / "html" / f"{k}.html").write_text(TITLED_LIST.format(title=f"Page {k}"), encoding="utf-8")
        (more / "gt" / f"{k}.json").write_text(json.dumps([[ITEM.format(1)]]), encoding="utf-8")
    assert recordlens(["import", str(more), "--project", str(project_dir)]) == 0
