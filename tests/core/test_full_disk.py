"""A full disk, as a user meets it: every command says which disk is full and what to do, and nothing a command
writes is lost or left half-kept for good. The disk is simulated (OSError ENOSPC at the write, or SQLite's refusal
with little free space), so that no test needs a small mount. Found by filling a small tmpfs under a project."""

from __future__ import annotations

import errno
import json
import shutil
import sqlite3
from collections import namedtuple
from pathlib import Path

import pytest

from recordlens.core import atomic
from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from recordlens.core.runs import run_files
from recordlens.core.store import db as store_db
from recordlens.core.store import exporter, files
from recordlens.core.store.files import SNAPSHOTS
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")
NO_SPACE = "No space left on device"
Usage = namedtuple("Usage", "total used free")


def no_space(filename: str | None = None) -> OSError:
    """What a write on a full disk raises: a file's write() names no file, an open() or a rename does."""
    return OSError(errno.ENOSPC, NO_SPACE) if filename is None else OSError(errno.ENOSPC, NO_SPACE, filename)


def error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("recordlens: error:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    folder = tmp_path / "P"
    assert main(["project", "init", str(folder)]) == 0
    assert main(["import", "--project", str(folder), "-q", str(DEMO)]) == 0
    capsys.readouterr()
    return folder


# A. A project on a full disk is not a broken database


def _sqlite_cannot_open(monkeypatch: pytest.MonkeyPatch, free: int) -> None:
    """SQLite's refusal to open a WAL database whose -shm it cannot write, on a disk with `free` bytes left."""
    def refuse(path: Path) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store_db, "_read_write", refuse)
    monkeypatch.setattr(store_db, "_read_only", refuse)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(6_000_000, 6_000_000 - free, free))


@pytest.mark.parametrize("argv", [["runs"], ["labels", "check"], ["export", "-f", "jsonl", "--out", "{tmp}/e"]])
def test_a_project_on_a_full_disk_says_the_disk_is_full_not_that_the_database_is_broken(
        project: Path, tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _sqlite_cannot_open(monkeypatch, free=16_384)
    code, _, err = run(capsys, *[a.format(tmp=tmp_path) for a in argv], "--project", str(project))
    line = error_line(err)
    assert code == 2
    assert f"{project / 'project.db'}: cannot open the project database (disk I/O error)" in line
    assert f"the disk that holds {project} is full (16 kB free); free space and open the project again" in line
    assert "nothing in it is lost" in line


def test_a_disk_io_error_with_room_on_the_disk_is_not_said_to_be_a_full_disk(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _sqlite_cannot_open(monkeypatch, free=5_000_000_000)
    code, _, err = run(capsys, "runs", "--project", str(project))
    assert code == 2 and "is full" not in error_line(err)
    assert error_line(err).endswith("cannot open the project database (disk I/O error)")


def test_sqlite_saying_full_on_open_is_said_as_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(6_000_000, 5_990_000, 10_000))
    (tmp_path / "project.db").touch()
    said = store_db.cannot_open(tmp_path / "project.db", sqlite3.OperationalError("database or disk is full"))
    assert f"the disk that holds {tmp_path} is full (10 kB free)" in said


# B. A write that meets a full disk names the folder whose disk is full, and says what to do for that command


def test_an_export_stopped_by_a_full_disk_names_its_folder_and_says_to_export_again_into_an_empty_one(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "small" / "exp"
    copied = exporter._copy_checked

    def full_at_the_second_page(source: Path, target: Path, digest: str) -> bool:
        if any((out / "html").iterdir()):
            raise no_space()
        return copied(source, target, digest)

    monkeypatch.setattr(exporter, "_copy_checked", full_at_the_second_page)
    code, _, err = run(capsys, "export", "--project", str(project), "-f", "nexteval", "--out", str(out), "-q")
    line = error_line(err)
    assert code == 2
    assert f"the disk that holds {out} is full ({NO_SPACE}); free space" in line
    assert f"export again into an empty folder ({out} holds an unfinished export: remove it first)" in line
    monkeypatch.undo()
    # What it advises is what works: the same folder is refused while the unfinished export is there
    assert run(capsys, "export", "--project", str(project), "-f", "nexteval", "--out", str(out), "-q")[0] == 2
    shutil.rmtree(out)
    assert run(capsys, "export", "--project", str(project), "-f", "nexteval", "--out", str(out), "-q")[0] == 0


def test_an_export_stopped_at_a_named_file_names_the_whole_export_as_the_folder_to_remove(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "exp"

    def full_at_a_named_file(source: Path, target: Path, digest: str) -> bool:
        raise no_space(str(target))  # an open() names its file: OUT/html/N.html

    monkeypatch.setattr(exporter, "_copy_checked", full_at_a_named_file)
    code, _, err = run(capsys, "export", "--project", str(project), "-f", "nexteval", "--out", str(out), "-q")
    line = error_line(err)
    assert code == 2 and f"{out / 'html'}" in line  # the file, and its disk
    assert f"({out} holds an unfinished export: remove it first)" in line  # not OUT/html: OUT/gt stays otherwise


def test_an_extract_stopped_by_a_full_disk_names_its_folder_and_says_running_it_again_continues(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "small" / "run1"
    argv = ["extract", "--method", "repeats", "--pages", str(DEMO / "html"), "--out", str(out), "-q"]
    written = run_files.save_records

    def full_at_the_second_page(path: Path, records: object) -> Path:
        if len(list(out.glob("*.json"))) >= 1:
            raise no_space()
        return written(path, records)

    monkeypatch.setattr(run_files, "save_records", full_at_the_second_page)
    code, _, err = run(capsys, *argv)
    line = error_line(err)
    assert code == 2
    assert f"the disk that holds {out} is full ({NO_SPACE}); free space and run the same command again" in line
    assert "it goes on from where it stopped" in line
    monkeypatch.undo()
    assert run(capsys, *argv)[0] == 0
    pages = sorted(p.stem for p in (DEMO / "html").glob("*.html"))
    assert sorted(p.stem for p in out.glob("*.json")) == pages


def test_a_capture_stopped_by_a_full_disk_names_the_site_folder_and_says_running_it_again_continues(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from recordlens.core.agent import capture

    def full(roots: object, folder: object, rules: object, **_options: object) -> object:
        raise no_space()

    saved = dict(capture._RUNNERS)
    capture.register_capture_runner(full)
    try:
        code, _, err = run(capsys, "site", "capture", "http://127.0.0.1/", "--site", str(tmp_path / "small" / "s"))
    finally:
        capture._RUNNERS.clear()
        capture._RUNNERS.update(saved)
    line = error_line(err)
    assert code == 2
    assert f"the disk that holds {tmp_path / 'small' / 's'} is full ({NO_SPACE})" in line
    assert "run the same command again: it goes on from where it stopped" in line


def test_a_full_disk_at_a_named_file_keeps_the_file_and_says_what_to_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "x.json"
    target.write_text("the earlier document", encoding="utf-8")

    def full(written: Path, into: Path, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, NO_SPACE, str(written), None, str(into))  # a rename names both files

    monkeypatch.setattr(atomic, "move_into_place", full)  # represent --out writes atomically, as every command
    code, _, err = run(capsys, "represent", str(DEMO / "html" / "1.html"), "--out", str(target))
    line = error_line(err)
    assert code == 2
    assert f"{target}: {NO_SPACE}; the disk that holds {tmp_path} is full; free space and run the command again" \
        in line
    assert target.read_text(encoding="utf-8") == "the earlier document"


# C. A page counts done on resume only with its cost record: the records file is written last


def test_a_page_whose_cost_record_could_not_be_written_is_extracted_again_on_resume(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    argv = ["extract", "--method", "repeats", "--pages", str(DEMO / "html"), "--out", str(out), "-q"]
    written = run_files.atomic.write_text

    def full_at_page_2s_cost(path: str | Path, text: str, **kwargs: object) -> Path:
        if Path(path) == out / run_files.META_DIR / "2.json":
            raise no_space()
        return written(path, text, **kwargs)

    monkeypatch.setattr(run_files.atomic, "write_text", full_at_page_2s_cost)
    assert run(capsys, *argv)[0] == 2
    monkeypatch.undo()
    assert run(capsys, *argv)[0] == 0
    assert (out / "2.json").is_file()
    cost = json.loads((out / run_files.META_DIR / "2.json").read_text(encoding="utf-8"))
    assert cost["status"] == run_files.DONE


def test_what_a_page_whose_records_were_not_written_paid_for_is_kept_when_it_is_extracted_again(
        tmp_path: Path) -> None:
    (tmp_path / run_files.META_DIR).mkdir()
    paid = {"status": run_files.DONE, "tokens": {"input": 10}}
    (tmp_path / run_files.META_DIR / "5.json").write_text(json.dumps(paid), encoding="utf-8")
    assert run_files.earlier_records(tmp_path, "5") == {"earlier": [paid]}
    (tmp_path / "5.json").write_text("[]", encoding="utf-8")  # its records are there: the page is done
    assert run_files.earlier_records(tmp_path, "5") == {}


# D. An import that failed on a full disk leaves no empty snapshots/XX/ folder


def test_a_snapshot_write_that_fails_leaves_no_empty_folder_it_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(path: Path, data: bytes, **kwargs: object) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)  # as atomic's write makes the folder first
        raise no_space()

    monkeypatch.setattr(files.atomic, "write_bytes", full)
    with pytest.raises(OSError):
        files.store_snapshot(tmp_path, b"<html>one</html>", ".html")
    assert [p.name for p in (tmp_path / SNAPSHOTS).iterdir()] == []
    monkeypatch.undo()
    kept = files.store_snapshot(tmp_path, b"<html>kept</html>", ".html")
    folder = files.snapshot_path(tmp_path, kept, ".html").parent

    def full_beside(path: Path, data: bytes, **kwargs: object) -> Path:
        raise no_space()

    monkeypatch.setattr(files.atomic, "write_bytes", full_beside)
    other = b"<html>other"  # made to fall in the same folder: a byte more until its hash does
    digest = files.content_hash(other)
    while digest[:2] != kept[:2]:
        other += b" "
        digest = files.content_hash(other)
    with pytest.raises(OSError):
        files.store_snapshot(tmp_path, other, ".html")
    assert folder.is_dir()  # a folder that holds a stored page stays


# E. A model that cannot be written leaves the project's model as it was


def test_train_on_a_full_disk_keeps_the_projects_model_and_the_one_set_aside(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from recordlens.core import atomic

    models = project / "models"
    assert run(capsys, "train", "--project", str(project), "-q")[0] == 0
    assert run(capsys, "train", "--project", str(project), "-q", "--seed", "1")[0] == 0
    before = {path.name: path.read_bytes() for path in models.iterdir()}
    assert sorted(before) == ["selector.forgotten.json", "selector.json"]
    written = atomic.write_text

    def full_in_models(path: str | Path, text: str, **kwargs: object) -> Path:
        if Path(path).parent == models:
            raise no_space(str(path))
        return written(path, text, **kwargs)

    monkeypatch.setattr(atomic, "write_text", full_in_models)
    code, _, err = run(capsys, "train", "--project", str(project), "-q", "--seed", "2")
    assert code == 2 and "No space left on device" in error_line(err)
    assert {path.name: path.read_bytes() for path in models.iterdir()} == before
