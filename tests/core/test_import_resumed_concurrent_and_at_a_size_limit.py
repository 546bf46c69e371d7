"""An import as it meets what interrupts or crowds it: one that finishes an import stopped part way says the label
check of every page of that import, not only of those it brought in itself; one that finds a page brought in
meanwhile by another import of the same dataset says it is there already, not that it has the bytes of itself; and
one that meets a file-size limit (`ulimit -f`, a FAT32 stick's 4 GB) says the project's file could not be written,
stops as a full disk stops it, and leaves no saved copy that no page names."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core.store import importer
from recordlens.core.store.files import SNAPSHOTS
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import PROJECT_DB, init_project, open_project

LIST = "<html><body><ul><li><b>Alpha</b> $1</li><li><b>Beta</b> $2</li><li><b>Gamma</b> $3</li></ul></body></html>"
ITEMS = [[f"/body[1]/ul[1]/li[{i}]"] for i in (1, 2, 3)]
NAMES = ("1", "2", "3", "4", "5", "6")


def dataset(root: Path, names: tuple[str, ...] = NAMES, twice: str = "1", padding: dict[str, int] | None = None
            ) -> Path:
    """A dataset of pages of their own bytes each, labelled with their three items; page `twice`'s labels list its
    first item twice (a label problem); a page of `padding` holds that many bytes more."""
    (root / "html").mkdir(parents=True)
    (root / "gt").mkdir()
    for name in names:
        pad = "x" * (padding or {}).get(name, 0)
        html = LIST.replace("Alpha", f"Alpha {name}").replace("</body>", f"<p>{pad}</p></body>")
        (root / "html" / f"{name}.html").write_text(html, encoding="utf-8")
        records = [*ITEMS, ITEMS[0]] if name == twice else ITEMS
        (root / "gt" / f"{name}.json").write_text(json.dumps(records), encoding="utf-8")
    return root


def test_the_import_that_finishes_a_stopped_one_checks_the_labels_of_every_page_of_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = dataset(tmp_path / "data")
    with init_project(tmp_path / "whole") as project:  # the same import, never stopped
        whole = import_paths(project, [data])
    said = [line for line in whole.label_lines() if line.startswith("labels: page 1")]
    assert said and whole.label_check is not None and whole.label_check.summary().startswith("6 pages: 1 with")

    page = importer.import_page

    def stopped_after_three(project: object, source: importer.PageSource, report: importer.ImportReport) -> None:
        if len(report.imported) == 3:
            raise KeyboardInterrupt  # as Ctrl+C stops it: its mark stays, said stopped part way
        page(project, source, report)  # type: ignore[arg-type]

    with init_project(tmp_path / "P") as project:
        monkeypatch.setattr(importer, "import_page", stopped_after_three)
        with pytest.raises(KeyboardInterrupt):
            import_paths(project, [data])
        monkeypatch.undo()
        report = import_paths(project, [data])
    assert report.imported == ["4", "5", "6"]
    assert any(w.startswith("this import finishes the same import, stopped part way before") for w in report.warnings)
    assert sorted(check.page for check in report.checks) == sorted(NAMES)
    assert [line for line in report.label_lines() if line.startswith("labels: page 1")] == said
    closing = report.label_lines()[-1]
    assert "(3 of them brought in by the import stopped part way that this one finishes)" in closing, closing
    assert closing.endswith(whole.label_check.summary()), closing


def test_a_page_another_import_brought_in_meanwhile_is_there_already_not_the_same_bytes_as_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = dataset(tmp_path / "data", NAMES[:3])
    init_project(tmp_path / "P").close()
    read = importer.read_snapshot
    others: list[str] = []

    def another_import_meanwhile(data_bytes: bytes, *args: object, **kwargs: object) -> object:
        if not others:  # the first page, read: another process imports the same dataset, on its own connection
            others.append("running")
            with open_project(tmp_path / "P") as other:
                others.extend(import_paths(other, [data]).imported)
        return read(data_bytes, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(importer, "read_snapshot", another_import_meanwhile)
    with open_project(tmp_path / "P") as project:
        report = import_paths(project, [data])
        assert sorted(project.page_names()) == ["1", "2", "3"]
    assert others == ["running", "1", "2", "3"]
    assert report.imported == [] and report.unchanged == ["1", "2", "3"]
    assert not [w for w in report.warning_lines() if "same bytes" in w], report.warning_lines()


# `recordlens import` in a child process whose files may grow to LIMIT bytes at most (`ulimit -f`); SIGXFSZ ignored,
# as Python ignores it, so that a write past the limit fails with EFBIG rather than killing the process
IMPORT_UNDER_A_LIMIT = """
import resource, signal, sys
from recordlens.core.cli.command import main

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
sys.exit(main(["import", sys.argv[2], "--project", sys.argv[1], "-q"]))
"""


def import_under_a_limit(project: Path, data: Path, limit: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", IMPORT_UNDER_A_LIMIT, str(project), str(data), str(limit)],
                          capture_output=True, text=True, timeout=300, check=False)


def saved_copies(project: Path) -> list[Path]:
    return sorted(path for path in (project / SNAPSHOTS).rglob("*") if path.is_file())


def pages_and_copies(project: Path) -> tuple[list[str], int]:
    with open_project(project) as opened:
        return sorted(opened.page_names()), len(opened.db.execute("SELECT hash FROM snapshots").fetchall())


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="no file-size limit on this system")
def test_a_page_larger_than_the_file_size_limit_stops_the_import_said_as_the_projects(tmp_path: Path) -> None:
    limit = 200_000
    data = dataset(tmp_path / "data", padding={"3": 2 * limit})
    init_project(tmp_path / "P").close()
    done = import_under_a_limit(tmp_path / "P", data, limit)
    assert done.returncode == 2, done.stderr
    refused = [line for line in done.stderr.splitlines() if line.startswith("not imported:")]
    assert len(refused) == 1 and refused[0].startswith(f"not imported: {data / 'html' / '3.html'}: the project's "
                                                       f"file {tmp_path / 'P' / SNAPSHOTS}"), done.stderr
    assert refused[0].endswith("cannot be written: no file may grow past 200,000 bytes here (this process's "
                               "file-size limit, `ulimit -f`)"), refused[0]
    assert "cannot be read" not in done.stderr
    stop = [line for line in done.stderr.splitlines() if line.startswith("recordlens: error: import stopped at")]
    assert len(stop) == 1 and "; 3 pages after it not tried: raise the limit (`ulimit -f unlimited`)" in stop[0]
    assert pages_and_copies(tmp_path / "P") == (["1", "2"], 2)
    assert len(saved_copies(tmp_path / "P")) == 2  # no temporary file left either


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="no file-size limit on this system")
def test_a_database_at_the_file_size_limit_stops_the_import_and_leaves_no_copy_no_page_names(tmp_path: Path) -> None:
    names = tuple(str(n) for n in range(1, 301))
    data = dataset(tmp_path / "data", names)
    init_project(tmp_path / "P").close()
    limit = (tmp_path / "P" / PROJECT_DB).stat().st_size + 150_000
    done = import_under_a_limit(tmp_path / "P", data, limit)
    assert done.returncode == 2, done.stderr
    refused = [line for line in done.stderr.splitlines() if line.startswith("not imported:")]
    assert len(refused) == 1, done.stderr
    assert f": the project's file {tmp_path / 'P' / PROJECT_DB}" in refused[0], refused[0]
    assert refused[0].endswith(f"cannot be written: no file may grow past {limit:,} bytes here (this process's "
                               "file-size limit, `ulimit -f`)"), refused[0]
    pages, rows = pages_and_copies(tmp_path / "P")
    assert 0 < len(pages) < len(names) and rows == len(pages)
    assert len(saved_copies(tmp_path / "P")) == len(pages), "a saved copy no page names was left"
