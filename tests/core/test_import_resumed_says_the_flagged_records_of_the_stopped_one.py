"""An import stopped part way (Ctrl+C, a kill) said nothing of the pages it brought in; the same import run again, which
finishes it, skips those pages (in the project already) but says, as an import never stopped does, the pages whose
records hold XPaths that name no element: once each, those the stopped import brought in as those it brings in
itself. A plain import of the same dataset again (nothing stopped) does not say them again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.store import importer
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project
from tests.core.cli_runs import run

LIST = "<html><body><ul><li><b>Alpha</b> $1</li><li><b>Beta</b> $2</li><li><b>Gamma</b> $3</li></ul></body></html>"
ITEMS = [[f"/body[1]/ul[1]/li[{i}]"] for i in (1, 2, 3)]
NOWHERE = ["/body[1]/div[7]"]  # names no element of the page
FLAGGED = {"1": 2, "2": 1, "5": 1}  # page -> records naming no element
NAMES = ("1", "2", "3", "4", "5", "6")
STOP_AFTER = 3


def dataset(root: Path) -> Path:
    (root / "html").mkdir(parents=True)
    (root / "gt").mkdir()
    for name in NAMES:
        (root / "html" / f"{name}.html").write_text(LIST.replace("Alpha", f"Alpha {name}"), encoding="utf-8")
        records = ITEMS + [NOWHERE + [f"/body[1]/p[{n}]"] for n in range(FLAGGED.get(name, 0))]
        (root / "gt" / f"{name}.json").write_text(json.dumps(records), encoding="utf-8")
    return root


def flagged_line(page: str) -> str:
    return (f"warning: page {page}: {FLAGGED[page]} record(s) hold XPaths that name no element of the page "
            "(kept, flagged)")


def stopped_part_way(project_folder: Path, data: Path, monkeypatch: pytest.MonkeyPatch, *,
                     replace_labels: bool = False) -> None:
    """The import of `data`, stopped (as Ctrl+C stops it) once STOP_AFTER pages are in: it says nothing."""
    page = importer.import_page

    def stopped(project: object, source: importer.PageSource, report: importer.ImportReport) -> None:
        if len(report.imported) == STOP_AFTER:
            raise KeyboardInterrupt
        page(project, source, report)  # type: ignore[arg-type]

    with init_project(project_folder) as project, monkeypatch.context() as patched:
        patched.setattr(importer, "import_page", stopped)
        with pytest.raises(KeyboardInterrupt):
            import_paths(project, [data], replace_labels=replace_labels)
        assert project.page_names() == list(NAMES[:STOP_AFTER])


def test_the_import_that_finishes_a_stopped_one_says_the_flagged_records_of_every_page_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = dataset(tmp_path / "data")
    init_project(tmp_path / "whole").close()
    code, _, whole = run(capsys, "import", str(data), "--project", str(tmp_path / "whole"))  # never stopped
    said_whole = [line for line in whole.splitlines() if "name no element" in line]
    assert said_whole == [flagged_line(page) for page in FLAGGED], whole

    stopped_part_way(tmp_path / "P", data, monkeypatch)
    code, out, err = run(capsys, "import", str(data), "--project", str(tmp_path / "P"))
    assert "this import finishes the same import, stopped part way before" in err, err
    said = [line for line in err.splitlines() if "name no element" in line]
    assert said == said_whole, err  # each page once, the stopped import's first, as the import never stopped says
    assert f"imported {len(NAMES) - STOP_AFTER} page(s)" in out and f"{STOP_AFTER} already in the project" in out

    code, out, err = run(capsys, "import", str(data), "--project", str(tmp_path / "P"))  # nothing stopped: unsaid
    assert code == 0 and "name no element" not in err, err


def test_an_import_taking_the_datasets_labels_resumed_says_them_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = dataset(tmp_path / "data")
    stopped_part_way(tmp_path / "P", data, monkeypatch, replace_labels=True)
    code, _, err = run(capsys, "import", str(data), "--project", str(tmp_path / "P"), "--replace-labels")
    assert code == 0 and "this import finishes the same import, stopped part way before" in err, err
    assert [line for line in err.splitlines() if "name no element" in line] == [
        flagged_line(page) for page in FLAGGED], err
