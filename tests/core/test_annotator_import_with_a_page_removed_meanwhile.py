"""`import DIR --annotator bea` while `project remove-page 2` takes a page out in another terminal: only that page's
file is refused, saying the page was removed during the import, and bea's labels of every other page go in (not all
refused, each file blamed with page 2's "no page named"); the import, ended normally, takes its mark away (no later
command says it "was stopped part way").

Real SQLite files; the removal is the real `recordlens project remove-page`, run in another process at the moment the
import has read every page and is about to store bea's labels (`store_annotator_pages`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core.store import importer
from recordlens.core.store.import_marks import stopped_imports, stopped_imports_said
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project, open_project
from tests.core.shop_runs import dataset

PAGES = [str(k) for k in range(6)]


def remove_in_another_process(folder: Path, *names: str) -> None:
    """The user's `recordlens project remove-page NAMES --project FOLDER`, run in another process."""
    code = "import sys; from recordlens.core.cli.command import main; sys.exit(main(sys.argv[1:]))"
    subprocess.run([sys.executable, "-c", code, "project", "remove-page", *names, "--project", str(folder)],
                   check=True, timeout=120, capture_output=True)


def test_a_page_removed_during_an_annotators_import_is_the_only_one_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, data = tmp_path / "p", dataset(tmp_path / "data", len(PAGES))
    with init_project(folder) as project:
        import_paths(project, [data])
    real = importer.store_annotator_pages

    def removed_first(project, annotator, pages, report):  # noqa: ANN001, ANN202 - store_annotator_pages' own
        remove_in_another_process(folder, "2")
        return real(project, annotator, pages, report)

    monkeypatch.setattr(importer, "store_annotator_pages", removed_first)
    with open_project(folder) as project:
        report = import_paths(project, [data], annotator="bea")
        assert project.page_names() == ["0", "1", "3", "4", "5"]  # the other process's removal committed
        assert sorted(project.annotators.pages("bea")) == ["0", "1", "3", "4", "5"]
    assert [problem.path.name for problem in report.problems] == ["2.json"]
    said = str(report.problems[0])
    assert "page 2 was removed from the project during the import" in said, said
    assert "bea's labels of it not imported" in said
    assert sorted(report.imported) == ["0", "1", "3", "4", "5"]
    assert "imported bea's labels of 5 pages" in report.summary("bea")
    assert "1 not imported" in report.summary("bea")
    assert stopped_imports(folder) == []  # ended normally: its mark is gone
    assert stopped_imports_said(folder) == []
