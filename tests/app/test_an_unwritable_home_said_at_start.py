"""A user data or config folder that cannot be written (a read-only HOME, one of another user). The first start,
which builds the demo project, ended in a traceback (`build_demo_project` → mkdir → OSError), exit 1, and from a
desktop menu with no window and no dialog: it says the folder cannot be written and what to do, on stderr and in a
dialog. Settings that cannot be saved were saved at every page change and at the quit without a word: the start
says so in the window and on stderr, and a save that fails says so once on stderr.

A folder under a regular file stands for an unwritable one: root writes through a chmod, not into a file."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from recordlens.annotator import app
from recordlens.annotator import settings as settings_module
from recordlens.annotator.labelling import main_window
from recordlens.annotator.settings import SessionKeyStore, Settings
from recordlens.core.command_hints import hint_path
from tests.app.test_incomplete_install_dialog import started_from_a_menu

pytestmark = pytest.mark.app


def under_a_file(tmp_path: Path, name: str) -> Path:
    """A folder that cannot be made, by root either: its parent is a file."""
    blocker = tmp_path / f"{name}-is-a-file"
    blocker.write_text("not a folder")
    return blocker / name


def test_a_first_start_with_an_unwritable_data_folder_says_so_and_what_to_do(qapp, monkeypatch, tmp_path):
    data = under_a_file(tmp_path, "data")
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    dialogs = started_from_a_menu(monkeypatch, tmp_path)  # no project last open: the demo project is built
    import sys

    assert app.main([]) == 2
    folder = hint_path(data / "recordlens")
    said = (f"the demo project cannot be built: {folder} cannot be written (Not a directory): set XDG_DATA_HOME (or "
            "HOME) to a folder you can write, or open a project folder of yours: recordlens-annotator PROJECT")
    assert dialogs == [f"RecordLens cannot start: the demo project cannot be built.\n\n{said}"]
    assert sys.stderr.getvalue() == f"recordlens-annotator: error: {said}\n"


def test_settings_that_cannot_be_saved_are_said_at_the_start_and_a_failing_save_once(
        qapp, monkeypatch, tmp_path, project_dir: Path, capsys, caplog) -> None:
    config = under_a_file(tmp_path, "config")
    settings_file = config / "recordlens" / "annotator.json"
    monkeypatch.setattr(main_window, "default_key_store", SessionKeyStore)
    monkeypatch.setattr(main_window, "settings_path", lambda: settings_file)
    monkeypatch.setattr(settings_module, "settings_path", lambda: settings_file)
    window = app.open_window(app.parse_args([str(project_dir)]))
    try:
        said = (f"settings cannot be saved: {hint_path(config / 'recordlens')} cannot be written (Not a directory): "
                "set XDG_CONFIG_HOME (or HOME) to a folder you can write; the project, page and places open now are "
                "not remembered")
        assert window.statusBar().currentMessage() == said
        assert said in window.messages.text()
        assert capsys.readouterr().err == f"recordlens-annotator: warning: {said}\n"
    finally:
        with caplog.at_level(logging.WARNING):
            window.close()  # the quit's save fails: said at the start already, not again
            window.shutdown()
    assert not [r for r in caplog.records if "settings not saved" in r.getMessage()]


def test_a_settings_save_that_fails_is_said_once_on_stderr(tmp_path, caplog) -> None:
    target = under_a_file(tmp_path, "config") / "annotator.json"
    settings = Settings()
    settings.last_project = "/somewhere"
    with caplog.at_level(logging.WARNING):
        for _ in range(3):  # a save at every page change: one line, not one per save
            with pytest.raises(OSError):
                settings.save(target)
    said = [r.getMessage() for r in caplog.records if "settings not saved" in r.getMessage()]
    assert said == [f"settings not saved to {hint_path(target)} (Not a directory): the project, page and places "
                    "open are not remembered for the next start"]
