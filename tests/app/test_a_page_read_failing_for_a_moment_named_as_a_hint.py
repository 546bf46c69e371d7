"""A page Propose, or the page view, could not read for a moment (an I/O error on a flaky share: core lets such an
error through, as the same read may succeed again) is said in the system's own words after the file, named as a hint
writes a path: it used to be said as Python writes it, "OSError: [Errno 5] Input/output error: '/x/my pages/…'" (and
"page 2 cannot be shown: [Errno 5] …")."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from recordlens.annotator.labelling.propose import ProposeWorker
from recordlens.core.command_hints import hint_path
from recordlens.core.store import open_project
from tests.app.gemini_helpers import SHOP_PAGE
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app


def flaky_read(path: Path, *_: object) -> bytes:
    """A page's read as a flaky share fails it, for a moment."""
    raise OSError(errno.EIO, os.strerror(errno.EIO), str(path))


def test_a_page_read_that_fails_for_a_moment_is_said_with_its_file_as_a_hint(qapp, tmp_path: Path,
                                                                              monkeypatch) -> None:
    folder = imported_project(tmp_path / "my pages", {"html/1.html": SHOP_PAGE.format(1)})
    monkeypatch.setattr("recordlens.core.page.snapshot.read_regular_file", flaky_read)
    worker = ProposeWorker(folder, ["1"], "mdr", {})
    failures: list[tuple[str, str]] = []
    worker.failed.connect(lambda page, message: failures.append((page, message)))
    worker.run()  # in this thread: the job's own work, its signals delivered at once
    with open_project(folder) as project:
        snapshot = project.snapshot_file("1")
    assert failures == [("1", f"{hint_path(snapshot)}: {os.strerror(errno.EIO)}")], failures
    assert "Errno" not in failures[0][1] and "OSError" not in failures[0][1]


def test_a_page_the_view_cannot_read_for_a_moment_is_said_with_its_file_as_a_hint(qtbot, tmp_path: Path,
                                                                                   monkeypatch) -> None:
    folder = imported_project(tmp_path / "my pages", {f"html/{n}.html": SHOP_PAGE.format(n) for n in (1, 2)})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        snapshot = window.project.snapshot_file("2")
        monkeypatch.setattr("recordlens.core.page.snapshot.read_regular_file", flaky_read)
        window.open_page("2")
        said = window.statusBar().currentMessage()
    finally:
        window.close()
    assert said == f"page 2 cannot be shown: Cannot read {hint_path(snapshot)}: {os.strerror(errno.EIO)}.", said
