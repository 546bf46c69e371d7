"""A system's error met in the app (a read that failed during Learn, a settings file, a trajectory or a tasks file
that cannot be written) is said in the project's one wording, `path: system words` (`core.errors.os_error_said`),
the path as a hint names it: before, Python's own text reached the user ("OSError: [Errno 5] Input/output error:
'/x/y'", "not saved: [Errno 20] Not a directory: '/x/y'")."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from recordlens.annotator.agent import window as agent_window
from recordlens.annotator.agent.task_editor import TaskEditor
from recordlens.annotator.agent.window import AgentWindow, load_trajectory_file
from recordlens.annotator.labelling import tool_windows
from recordlens.annotator.qt.jobs import BackgroundJob
from recordlens.core.command_hints import hint_path
from recordlens.core.store import init_project
from tests.app.agent_helpers import DEMO_REFERENCE, DEMO_SITE, DEMO_TASKS, HOME

pytestmark = pytest.mark.app


def under_a_file(tmp_path: Path, name: str) -> Path:
    """A folder that cannot be made, by root either: its parent is a file."""
    blocker = tmp_path / f"{name} is a file"  # a space: the path is named quoted, as a hint names it
    blocker.write_text("not a folder")
    return blocker / name


def test_a_job_that_meets_a_system_error_ends_with_its_file_and_words(qapp, tmp_path: Path) -> None:
    init_project(tmp_path / "p").close()
    flaky = tmp_path / "a flaky share" / "model.json"

    def work(project, job) -> None:  # noqa: ANN001 - a job's work, as Learn's
        raise OSError(errno.EIO, os.strerror(errno.EIO), str(flaky))

    ended: list[tuple[bool, str]] = []
    job = BackgroundJob(tmp_path / "p", work)
    job.done.connect(lambda cancelled, message: ended.append((cancelled, message)))
    job.run()  # the thread's body, here
    assert ended == [(False, f"{hint_path(flaky)}: Input/output error")]


def test_settings_that_cannot_be_saved_name_the_folder_and_the_systems_words(window, monkeypatch,
                                                                              tmp_path: Path) -> None:
    monkeypatch.setattr(tool_windows.SettingsDialog, "exec", lambda dialog: 1)  # OK pressed
    folder = under_a_file(tmp_path, "config")
    window.settings_file = folder / "annotator.json"
    window.tools.do_settings()
    assert window.statusBar().currentMessage() == f"settings not saved: {hint_path(folder)}: Not a directory"


def test_a_trajectory_that_cannot_be_saved_names_the_folder_and_the_systems_words(qapp, monkeypatch,
                                                                                  tmp_path: Path) -> None:
    folder = under_a_file(tmp_path, "trajectories")
    monkeypatch.setattr(agent_window.QFileDialog, "getSaveFileName", lambda *_: (str(folder / "lookup-1.json"), ""))
    window = AgentWindow(site=DEMO_SITE, tasks=DEMO_TASKS)
    try:
        window.show_trajectory(load_trajectory_file(DEMO_REFERENCE / "lookup-1.json"), start_url=HOME)
        window.save_trajectory_dialog()
        assert window.statusBar().currentMessage() == f"not saved: {hint_path(folder)}: Not a directory"
    finally:
        window.close()


@pytest.fixture
def editor(qapp):
    widget = TaskEditor()
    yield widget
    widget.close()
    widget.deleteLater()


def test_a_tasks_file_that_cannot_be_written_names_the_folder_and_the_systems_words(editor, tmp_path: Path) -> None:
    editor.load(DEMO_TASKS)
    folder = under_a_file(tmp_path, "tasks")
    assert editor.save(folder / "tasks.jsonl") is None
    assert editor.status.text() == f"not saved: {hint_path(folder)}: Not a directory"


def test_a_tasks_file_that_cannot_be_read_back_is_said_in_the_systems_words(editor, tmp_path: Path) -> None:
    path = tmp_path / "tasks.jsonl"
    path.write_bytes(DEMO_TASKS.read_bytes())
    editor.load(path)
    path.unlink()
    path.mkdir()  # whether the file changed cannot be told: it is no file now
    assert editor.save() is None
    assert editor.status.text().startswith(f"not saved: {hint_path(path)} cannot be read (Is a directory), so ")
