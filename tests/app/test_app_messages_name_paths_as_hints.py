"""The desktop app names a path in its messages (status bar, status lines, window title, the start's notice, a
screenshot's errors, the settings' log line) as a hint writes it (`core.command_hints.hint_path`): quoted for the
shell, and a name whose bytes are not UTF-8 written as `"$(printf %b 'caf\\0351 x')"`. Written raw, Qt dropped the
byte it cannot show (a Latin-1 folder `caf\\xe9 x` read as `caf x`, another folder) and a name with a space ran into
the words around it. Each test reads the path back from the text shown, with `sh` and bash, to the folder's own
bytes."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from recordlens.annotator import app
from recordlens.annotator.agent.review_queue import ReviewQueue
from recordlens.annotator.agent.window import AgentWindow, load_trajectory_file
from recordlens.annotator.settings import Settings
from recordlens.core.agent.candidates import load_candidates, save_candidates
from recordlens.core.errors import AgentError
from tests.app.agent_helpers import DEMO_SITE, DEMO_TASKS, three_questions
from tests.app.demo_project import demo_project_in
from tests.app.window_helpers import keep_app_state_private
from tests.shell_words import SHELLS, made_folder, read_back

pytestmark = pytest.mark.app

LATIN_1 = "caf\udce9 x"  # `caf\xe9 x` as Python keeps a name that is not UTF-8 (surrogateescape), with a space


def named_in(text: str, before: str, after: str) -> str:
    """The word of `text` between `before` and `after`: the path as the message writes it."""
    found = re.search(re.escape(before) + "(.+?)" + re.escape(after), text)
    assert found is not None, text
    return found[1]


def assert_reads_back(word: str, path: Path | str) -> None:
    """`word`, copied from a message into a shell, is the one word of `path`'s bytes."""
    for shell in SHELLS:
        assert read_back(word, shell) == [os.fsencode(path)], (shell, word)


@pytest.fixture
def settings_file(monkeypatch, tmp_path: Path) -> Path:
    """The app's settings in the test's folder, and no real keyring."""
    return keep_app_state_private(monkeypatch, tmp_path)


def test_the_project_last_open_that_cannot_be_opened_is_named_as_a_hint(qapp, tmp_path, settings_file) -> None:
    folder = made_folder(tmp_path / LATIN_1)
    (folder / "project.db").write_bytes(b"not a database at all, " * 8)  # there, but its store raises
    Settings(last_project=str(folder)).save(settings_file)
    window = app.open_window(app.parse_args([]))
    try:
        shown = window.statusBar().currentMessage()
        assert_reads_back(named_in(shown, "the project last open, ", ", is not open: it cannot be opened"), folder)
    finally:
        window.close()
        window.shutdown()


def test_a_screenshot_s_error_names_the_project_as_a_hint(qapp, tmp_path, tmp_path_factory, monkeypatch,
                                                          capsys) -> None:
    keep_app_state_private(monkeypatch, tmp_path)
    project = demo_project_in(made_folder(tmp_path / LATIN_1), tmp_path_factory)
    assert app.main([str(project), "--screenshot", str(tmp_path / "x.png"), "--page", "99"]) == 2
    said = capsys.readouterr().err
    assert_reads_back(named_in(said, "no page '99' in ", "\n"), project.resolve())


@pytest.fixture
def agent_window(qapp):
    window = AgentWindow(site=DEMO_SITE, tasks=DEMO_TASKS)
    yield window
    window.close()


def test_the_agent_window_names_the_site_and_tasks_it_opened_and_saved_as_hints(agent_window, tmp_path) -> None:
    folder = made_folder(tmp_path / LATIN_1)
    site, tasks = folder / "demo copy", folder / "my tasks.jsonl"
    shutil.copytree(DEMO_SITE, site)
    shutil.copyfile(DEMO_TASKS, tasks)
    assert agent_window.open_site(site, tasks) is None
    shown = agent_window.statusBar().currentMessage()
    assert_reads_back(named_in(shown, "pages (", "); "), site)
    assert_reads_back(shown.split(" tasks from ", 1)[1], tasks)
    assert_reads_back(named_in(agent_window.windowTitle(), "site demo-site in ", " — tasks "), site)
    assert_reads_back(named_in(agent_window.windowTitle(), " — tasks ", "[*]"), tasks.name)

    saved = folder / "saved tasks.jsonl"
    assert agent_window.task_editor.save(saved) == saved
    assert_reads_back(agent_window.task_editor.status.text().split(" tasks to ", 1)[1], saved)
    assert_reads_back(agent_window.statusBar().currentMessage().split(" tasks: ", 1)[1], saved)


def test_a_trajectory_file_that_does_not_read_is_named_as_a_hint(tmp_path) -> None:
    path = made_folder(tmp_path / LATIN_1) / "my trajectory.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(AgentError) as raised:  # said in the status bar as it is
        load_trajectory_file(path)
    assert_reads_back(named_in(str(raised.value), "", " is not valid JSON"), path)


@pytest.fixture
def queue(qapp):
    shown = ReviewQueue()
    yield shown
    shown.close()
    shown.deleteLater()


def test_the_review_queue_names_its_candidates_file_as_a_hint(queue, tmp_path) -> None:
    path = three_questions(made_folder(tmp_path / LATIN_1) / "cand.jsonl")
    queue.load(path)
    queue.table.setCurrentCell(0, 0)
    save_candidates(path, load_candidates(path)[1:])  # gen-1, on show, removed from the file meanwhile
    assert queue.judge("accepted") is None
    shown = queue.summary.text()
    assert_reads_back(named_in(shown, "gen-1 is no longer in ", " (removed since"), path)

    path.unlink()  # the file itself gone
    assert queue.judge("accepted") is None
    shown = queue.summary.text()
    assert_reads_back(named_in(shown, "not saved: ", " is no longer there"), path)


def test_an_unreadable_settings_file_is_named_as_a_hint(tmp_path, caplog) -> None:
    path = made_folder(tmp_path / LATIN_1) / "annotator.json"
    path.write_text("{not json", encoding="utf-8")
    with caplog.at_level("WARNING"):
        assert Settings.load(path) == Settings()
    assert_reads_back(named_in(caplog.text, "settings ", " unreadable ("), path)
