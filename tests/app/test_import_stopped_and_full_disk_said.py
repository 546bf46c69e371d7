"""What the window says of an import stopped part way and of a full disk, as a user meets them: an import of the
project killed part way (kill -9) is said when the app next opens the project (which import, how many of its pages
are in, how to finish it); the closing status-bar line of an import, and of Propose, that a full disk stopped says
that the disk is full, first (a status bar cuts a long line at its end), as a single edit's does."""

from __future__ import annotations

import contextlib
import errno
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.annotator import app
from recordlens.annotator.program import PROG
from recordlens.core import extract
from recordlens.core.extract.base import Extraction
from recordlens.core.store import files
from recordlens.core.store.files import SNAPSHOTS
from tests.app.demo_project import ITEM
from tests.app.window_helpers import imported_project, keep_app_state_private, open_window, said
from tests.stalled_imports import PAGE, a_folder_of_pages, import_killed_part_way

pytestmark = pytest.mark.app


def test_an_import_killed_part_way_is_said_when_the_app_opens_the_project(
        qapp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    keep_app_state_private(monkeypatch, tmp_path)
    project = imported_project(tmp_path, {"html/first.html": PAGE.format(n="first")})
    folder = a_folder_of_pages(tmp_path / "big", 8)
    pid = import_killed_part_way(project, folder, 3)
    capsys.readouterr()
    window = app.open_window(app.parse_args([str(project)]))
    try:
        stopped = f"an import of {folder} into {project} was stopped part way (begun "
        shown = said(window)
        assert shown.startswith(stopped), shown
        assert (f"by process {pid}): 3 of its 8 pages are in the project; running the same import again finishes "
                "it (it skips the pages already there)") in shown
        assert stopped in window.messages.text()
        assert f"{PROG}: {stopped}" in capsys.readouterr().err
    finally:
        window.close()


def test_an_import_the_disk_fills_under_stops_there_and_its_last_line_says_the_disk_is_full_first(
        qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = imported_project(tmp_path, {"html/first.html": PAGE.format(n="first")})
    folder = a_folder_of_pages(tmp_path / "big", 8)
    window = open_window(project, tmp_path / "settings.json", qtbot=qtbot)
    write = files.atomic.write_bytes
    stored: list[Path] = []

    def full_after_two(path: Path, data: bytes, **kwargs: object) -> Path:
        if SNAPSHOTS in Path(path).parts:  # the saved pages fill the disk
            if len(stored) == 2:
                raise OSError(errno.ENOSPC, "No space left on device")
            stored.append(Path(path))
        return write(path, data, **kwargs)

    try:
        monkeypatch.setattr(files.atomic, "write_bytes", full_after_two)
        assert window.importing.import_paths([folder]) is not None
        qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
        monkeypatch.undo()
        shown = said(window)
        assert shown.startswith("import stopped at page 3: the disk that holds the project is full (No space left "
                                "on device); 5 pages after it not tried: free space and run the same import again"), \
            shown
        assert "imported 2 page(s) with 0 label(s); 0 already in the project; 1 not imported; 5 not tried" in shown
        assert window.page_list.names() == ["1", "2", "first"]
    finally:
        window.close()


@contextlib.contextmanager
def full_disk_under(window: object, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every write of the window's own connection to the project fails as on a full disk: the COMMIT refused."""
    project = window.project  # type: ignore[attr-defined]
    writing = type(project).writing

    @contextlib.contextmanager
    def refused() -> Iterator[object]:
        with writing(project) as db:
            yield db
            raise sqlite3.OperationalError("database or disk is full")

    with monkeypatch.context() as patch:
        patch.setattr(project, "writing", refused)
        yield


def test_a_propose_whose_proposals_a_full_disk_refused_says_the_disk_is_full_as_it_ends(
        qtbot, window, monkeypatch: pytest.MonkeyPatch) -> None:
    class Lister:
        name, version = "full-disk-test", "1"

        def extract(self, page: object) -> Extraction:
            return Extraction([[f"/html[1]{ITEM.format(k)}"] for k in (1, 2, 3)], self.name, self.version, {}, 0)

    extract.register("full-disk-test", lambda **_: Lister(), "three records on any page")
    before = len(window.project.labels("2"))
    with full_disk_under(window, monkeypatch):
        assert window.propose(["2"], method="full-disk-test") is not None
        qtbot.waitUntil(lambda: window.job is None, timeout=30_000)
    shown = said(window)
    assert shown.startswith("done: failed on page 2 (its proposals were not stored: the disk that holds the project "
                            "is full"), shown
    assert len(window.project.labels("2")) == before
