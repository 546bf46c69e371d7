"""A page's ground truth that is no regular file (gt/N.json a FIFO, a symbolic link to nothing, or a folder on a
system that refuses to read one as a permission) is said as such by every command that reads ground truth, at
once (a FIFO is never waited on), and never taken for a page with no labels. Beside a regular `7.JSON`, a folder
named `7.json` gives way to the file."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

from recordlens.core.errors import DatasetError
from recordlens.core.page.dataset import record_files
from recordlens.core.records.model import load_records
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")
KINDS = {"fifo": "a FIFO (named pipe), not a regular file",
         "dangling-link": "a symbolic link to a file that does not exist"}

pytestmark = [pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and symlinks as on POSIX"),
              pytest.mark.timeout(60)]  # a blocking read of the FIFO would wait for ever


@pytest.fixture(params=list(KINDS))
def dataset(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    """The demo dataset with page 2's labels file replaced by something that is no regular file; and what it is."""
    shutil.copytree(DEMO, tmp_path / "data")
    truth = tmp_path / "data" / "gt" / "2.json"
    truth.unlink()
    if request.param == "fifo":
        os.mkfifo(truth)
    else:
        truth.symlink_to(tmp_path / "gone.json")
    return tmp_path / "data", KINDS[request.param]


def said(err: str, data: Path, kind: str) -> bool:
    return f"{data / 'gt' / '2.json'}: {kind}" in err


def test_import_leaves_the_page_out_saying_what_its_labels_are(dataset: tuple[Path, str], tmp_path: Path,
                                                               capsys) -> None:
    data, kind = dataset
    assert run(capsys, "project", "init", str(tmp_path / "p"))[0] == 0
    code, _, err = run(capsys, "import", str(data), "--project", str(tmp_path / "p"), "-q")
    assert code == 1 and said(err, data, kind) and "page 2 not imported" in err
    from recordlens.core.store.project import open_project

    with open_project(tmp_path / "p") as project:
        assert not project.has_page("2")  # not taken in as a page without labels


def test_score_says_what_the_labels_file_is(dataset: tuple[Path, str], capsys) -> None:
    data, kind = dataset
    code, out, err = run(capsys, "score", "--pred", str(DEMO / "gt"), "--gt", str(data / "gt"), "--pages",
                         str(data / "html"), "-q")
    assert code == 1 and said(out, data, kind)  # left out, named; the others scored
    assert "without ground truth" not in out + err


def test_labels_check_says_the_page_cannot_be_checked(dataset: tuple[Path, str], capsys) -> None:
    data, kind = dataset
    code, out, err = run(capsys, "labels", "check", "--gt", str(data / "gt"), "--pages", str(data / "html"))
    assert code == 1 and said(out + err, data, kind) and "page 2: cannot be checked" in out + err


def test_a_folder_is_said_as_one_where_reading_it_is_refused_as_a_permission(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As Windows refuses to open a folder: its kind is asked before any read."""
    (tmp_path / "2.json").mkdir()
    real_open, real_path_open = os.open, Path.open

    def refused(path: object) -> None:
        if Path(str(path)).is_dir():
            raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(os, "open", lambda path, *a, **k: refused(path) or real_open(path, *a, **k))
    monkeypatch.setattr(Path, "open", lambda self, *a, **k: refused(self) or real_path_open(self, *a, **k))
    with pytest.raises(DatasetError, match="a folder, not a records file"):
        load_records(tmp_path / "2.json")


def test_a_regular_file_is_read_before_a_folder_of_the_same_name_in_another_case(tmp_path: Path) -> None:
    (tmp_path / "7.json").mkdir()
    (tmp_path / "7.JSON").write_text('[["/html/body"]]', encoding="utf-8")
    if (tmp_path / "7.json").samefile(tmp_path / "7.JSON"):
        pytest.skip("a file system that ignores case holds only one of them")
    (tmp_path / "8.json").write_text("[]", encoding="utf-8")
    (tmp_path / "8.JSON").write_text('[["/html/body"]]', encoding="utf-8")
    files = record_files(tmp_path)
    assert files == {"7": tmp_path / "7.JSON", "8": tmp_path / "8.json"}  # of two files, the lower-case one
    assert load_records(files["7"]).records == [["/html/body"]]
