"""A project database damaged under the app (a table's page written over, as a crash or two writers leave it) is
said by the app's jobs and edits with what to do, naming the project's own files, as the commands say it: the app
said "failed: DatabaseError: database disk image is malformed" and no more. Real projects, real SQLite files
damaged as tests/core/test_a_damaged_database_is_said_not_read.py damages them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from recordlens.annotator.labelling.job_controller import _not_stored
from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.labelling.propose import ProposeWorker
from recordlens.core import extract
from recordlens.core.extract.base import Extraction
from recordlens.core.store import open_project
from tests.app.demo_project import ITEM, demo_project_in
from tests.app.review_helpers import half_run
from tests.app.window_helpers import key, recent_messages, said
from tests.core.test_a_damaged_database_is_said_not_read import table_page_written_over

pytestmark = pytest.mark.app

DATABASE = "project.db"


def said_damaged(text: str, project: Path) -> None:
    """The damage said with what to do with the project's own files, not the bare SQLite error."""
    assert "database disk image is malformed" in text, text
    assert f"put back a copy from a backup (the pages are still in {project / 'snapshots'})" in text, text
    assert f"`sqlite3 {project / DATABASE} .recover` may rescue labels made since the backup" in text, text
    assert "DatabaseError:" not in text, text


@pytest.fixture
def project_dir(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo project with a run."""
    folder = demo_project_in(tmp_path, tmp_path_factory)
    with open_project(folder) as project:
        assert half_run(project) == 1
    return folder


def test_a_job_meeting_the_damage_says_it_with_the_projects_files(qtbot, window: MainWindow,
                                                                  project_dir: Path) -> None:
    # Damaged once the window has read its runs: a job reads the file anew, on a connection of its own
    table_page_written_over(project_dir / DATABASE, "predictions")
    window.reviewing.score_run(1)
    qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
    text = said(window)
    assert text.startswith("failed: the project's database: database disk image is malformed; the file is damaged")
    said_damaged(text, project_dir)


def test_a_page_propose_cannot_read_says_the_damage(qtbot, project_dir: Path) -> None:
    """Propose reads each page in its job (its saved copy's row): a page met damaged is said, and the job goes on."""
    table_page_written_over(project_dir / DATABASE, "snapshots")

    class Fixed:
        name, version = "damage-test-fixed", "1"

        def extract(self, page):  # noqa: ANN001, ANN202 - an extractor's own
            return Extraction([[ITEM.format(1)]], self.name, self.version, {}, 0)

    extract.register(Fixed.name, lambda **_: Fixed(), "a fixed record, for a test")
    worker = ProposeWorker(project_dir, ["1"], Fixed.name, {})
    failures: list[tuple[str, str]] = []
    worker.failed.connect(lambda page, text: failures.append((page, text)))
    with qtbot.waitSignal(worker.done, timeout=60_000):
        worker.start()
    worker.wait()
    assert [page for page, _ in failures] == ["1"]
    said_damaged(failures[0][1], project_dir)


def test_an_edit_refused_by_the_damage_says_it_with_the_projects_files(qtbot, window: MainWindow,
                                                                       project_dir: Path, monkeypatch) -> None:
    """The window's own connection reads what it read before the damage from its cache: the refusal SQLite gives a
    write on a damaged page is raised in its place, as the store meets it."""
    window.reload_labels([window.labels[0].id])

    def damaged(*_args, **_kwargs):  # noqa: ANN002, ANN003, ANN202 - the store's own
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(window.project, "reject", damaged)
    key(window, "R")
    assert window.labels[0].status != "rejected"
    said_damaged(said(window), project_dir)


def test_proposals_the_damage_refuses_are_said_with_the_projects_files(qtbot, window: MainWindow,
                                                                       project_dir: Path, monkeypatch) -> None:
    """Proposals are stored by the window (an undoable step): a refusal is said as it comes, whole, and is the
    page's failure at the job's end (which says the reasons shortened: they are whole as the job keeps them)."""

    class Fixed:
        name, version = "damage-test-stored", "1"

        def extract(self, page):  # noqa: ANN001, ANN202 - an extractor's own
            return Extraction([[ITEM.format(1)]], self.name, self.version, {}, 0)

    extract.register(Fixed.name, lambda **_: Fixed(), "a fixed record, for a test")

    def damaged(*_args, **_kwargs):  # noqa: ANN002, ANN003, ANN202 - the store's own
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(window.project, "add_records", damaged)
    assert window.propose([window.page_name], method=Fixed.name) is not None
    qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
    said_damaged(next(line for line in recent_messages(window).splitlines() if "proposals not stored" in line),
                 project_dir)
    assert said(window).startswith("done: failed on page 1 (its proposals were not stored: the project's database: "
                                   "database disk image is malformed; the file is damaged")
    said_damaged(_not_stored(window.record_actions.refusal, project_dir), project_dir)
