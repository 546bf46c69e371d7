"""An import stopped part way, as a user meets it: killed (kill -9 of the `recordlens import` process) or stopped by a
full disk, it leaves part of its folder in the project, and the next command on the project says so: which import,
how many of its pages are in, and that running the same import again finishes it, which it does, and says. An
import under way in another process is not taken for a stopped one. A full disk stops an import at the first page
that meets it, rather than trying (and refusing) every page left."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from recordlens.core.store import files
from recordlens.core.store.files import SNAPSHOTS
from recordlens.core.store.import_marks import AskedImport, StoppedImport
from recordlens.core.store.project import open_project
from recordlens.core.store.runs import RUNNING_MARKS
from tests.core.cli_runs import run
from tests.stalled_imports import PAGE, a_folder_of_pages, import_killed_part_way, import_stalled

PAGES = 12
STOP_AFTER = 5  # pages the killed import brings in before it is killed


def project_pages(project: Path) -> list[str]:
    with open_project(project) as opened:
        return opened.page_names()


def import_marks_left(project: Path) -> list[str]:
    marks = project / RUNNING_MARKS
    return sorted(p.name for p in marks.glob("import-*")) if marks.is_dir() else []


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    folder = tmp_path / "P"
    assert run(capsys, "project", "init", str(folder))[0] == 0
    return folder


def test_an_import_killed_part_way_is_said_by_the_next_command_and_running_it_again_finishes_it(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = a_folder_of_pages(tmp_path / "big", PAGES)
    with import_stalled(project, folder, STOP_AFTER) as pid:
        # under way in another process: not said to have stopped
        code, _, err = run(capsys, "runs", "--project", str(project))
        assert code == 0 and "stopped part way" not in err, err
    assert len(project_pages(project)) == STOP_AFTER

    command = f"recordlens import {folder} --project {project}"
    stopped = (f"recordlens: an import of {folder} into {project} was stopped part way (begun ")
    code, _, err = run(capsys, "runs", "--project", str(project))
    assert code == 0
    line = next(line for line in err.splitlines() if line.startswith(stopped))
    assert line.endswith(f"by process {pid}): {STOP_AFTER} of its {PAGES} pages are in the project; running "
                         f"the same import again finishes it (it skips the pages already there): `{command}`"), line
    # said by every command that names the project, as it begins
    code, _, err = run(capsys, "labels", "check", "--project", str(project))
    assert stopped in err

    # another import says it too (it is no run of that one)
    other = tmp_path / "other"
    other.mkdir()
    (other / "extra.html").write_text(PAGE.format(n="extra"), encoding="utf-8")
    code, out, err = run(capsys, "import", str(other), "--project", str(project))
    assert code == 0 and stopped in err and out.startswith("imported 1 page(s)")

    code, out, err = run(capsys, "import", str(folder), "--project", str(project))
    assert code == 0, err
    assert stopped not in err
    assert f"imported {PAGES - STOP_AFTER} page(s) with 0 label(s); {STOP_AFTER} already in the project" in out
    assert "this import finishes the same import, stopped part way before (begun " in err
    assert len(project_pages(project)) == PAGES + 1
    assert import_marks_left(project) == []
    code, _, err = run(capsys, "runs", "--project", str(project))
    assert "stopped part way" not in err


def test_an_import_killed_again_while_it_finishes_one_is_said_once(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = a_folder_of_pages(tmp_path / "big", 2 * STOP_AFTER + 2)
    for _ in range(2):
        import_killed_part_way(project, folder, STOP_AFTER)
    assert len(project_pages(project)) == 2 * STOP_AFTER
    _, _, err = run(capsys, "runs", "--project", str(project))
    said = [line for line in err.splitlines() if "was stopped part way" in line]
    assert len(said) == 1 and f"{2 * STOP_AFTER} of its {2 * STOP_AFTER + 2} pages are in" in said[0], err


def test_a_full_disk_stops_an_import_at_the_first_page_it_meets_and_the_next_command_says_what_is_left(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    folder = a_folder_of_pages(tmp_path / "big", PAGES)
    write = files.atomic.write_bytes
    stored: list[Path] = []

    def full_after_three(path: Path, data: bytes, **kwargs: object) -> Path:
        if SNAPSHOTS in Path(path).parts:  # the saved pages fill the disk; the import's own mark is small
            if len(stored) == 3:
                raise OSError(errno.ENOSPC, "No space left on device")
            stored.append(Path(path))
        return write(path, data, **kwargs)

    monkeypatch.setattr(files.atomic, "write_bytes", full_after_three)
    code, out, err = run(capsys, "import", str(folder), "--project", str(project))
    monkeypatch.undo()
    assert code == 2
    refused = [line for line in err.splitlines() if line.startswith("not imported:")]
    assert refused == [f"not imported: {folder / '4.html'}: the disk that holds the project is full (No space left "
                       "on device)"], err
    assert out.strip() == "imported 3 page(s) with 0 label(s); 0 already in the project; 1 not imported; 8 not tried"
    errors = [line for line in err.splitlines() if line.startswith("recordlens: error:")]
    assert errors == ["recordlens: error: import stopped at page 4: the disk that holds the project is full (No "
                      "space left on device); 8 pages after it not tried: free space and run the same import again "
                      "(it skips the pages already in the project)"]
    assert project_pages(project) == ["1", "2", "3"]

    _, _, err = run(capsys, "runs", "--project", str(project))
    assert f"3 of its {PAGES} pages are in the project; running the same import again finishes it" in err
    code, out, err = run(capsys, "import", str(folder), "--project", str(project))
    assert code == 0 and out.startswith(f"imported {PAGES - 3} page(s)") and "this import finishes" in err
    assert import_marks_left(project) == []


def test_a_stopped_import_of_an_annotators_labels_says_none_of_them_were_stored(tmp_path: Path) -> None:
    asked = AskedImport.of([tmp_path / "theirs"], "bea")
    stopped = StoppedImport(tmp_path / "m.json", asked, ("1", "2", "3"), "2026-12-06T21:30:00.000Z", 4242)
    said = stopped.message(tmp_path / "P", {"1", "2"})
    assert said == (f"an import of {tmp_path / 'theirs'} into {tmp_path / 'P'} of bea's labels was stopped part way "
                    "(begun 2026-12-06T21:30:00.000Z by process 4242), before their labels were stored (2 of its 3 "
                    "pages are in the project, none with bea's labels from it): running the same import again "
                    f"imports them: `recordlens import {tmp_path / 'theirs'} --project {tmp_path / 'P'} --annotator "
                    "bea`")
    # a plain import whose every page is in: nothing left to say
    plain = StoppedImport(tmp_path / "m.json", AskedImport.of([tmp_path / "big"]), ("1", "2"), "", 1)
    assert plain.message(tmp_path / "P", {"1", "2"}) is None


@pytest.mark.parametrize("by_user", [True, False])
def test_an_import_the_user_stopped_is_not_said_again_one_stopped_otherwise_is(tmp_path: Path, project: Path,
                                                                               by_user: bool) -> None:
    """The app's Cancel (or a quit the user was asked about) ends an import part way by the user's choice, told then
    what was imported: no notice at the next open. A wrapper that stops for another reason leaves the notice."""
    from recordlens.core.store.import_marks import stopped_imports
    from recordlens.core.store.importer import import_paths

    folder = a_folder_of_pages(tmp_path / "pages", PAGES)

    def first_three(sources):  # noqa: ANN001, ANN202 - stops between pages, as the app's Cancel does
        yield from list(sources)[:3]

    with open_project(project) as opened:
        import_paths(opened, [folder], first_three, stopped_by_user=lambda: by_user)
    assert len(project_pages(project)) == 3
    assert len(stopped_imports(project)) == (0 if by_user else 1)
