"""A settings file that cannot be read, or saved, is said once, in one line: at the start, in the window and on
stderr. It was said up to three times: "settings ... unreadable (...); using defaults" by each read of it (the
start's, the window's, and the one every save makes to merge), then "settings cannot be saved" for the same
folder, or "settings not saved" at the quit. A FIFO in its place hung the start (read, it waits for a writer)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from recordlens.annotator import app
from recordlens.annotator import settings as settings_module
from recordlens.annotator.labelling import main_window
from recordlens.annotator.settings import SessionKeyStore
from recordlens.core.command_hints import hint_path

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]
CHILD_SECONDS = 120  # a read of a FIFO waits for ever: this long is "for ever" on a busy machine


def lines_said_from_start_to_quit(monkeypatch, settings_file: Path, project_dir: Path, capsys, caplog
                                  ) -> tuple[list[str], str]:
    """What a start on `project_dir` with the settings at `settings_file`, a page change and the quit said of the
    settings (on stderr and in the log), and what the window's status bar showed."""
    monkeypatch.setattr(main_window, "default_key_store", SessionKeyStore)
    monkeypatch.setattr(main_window, "settings_path", lambda: settings_file)
    monkeypatch.setattr(settings_module, "settings_path", lambda: settings_file)
    capsys.readouterr()
    with caplog.at_level(logging.WARNING):
        window = app.open_window(app.parse_args([str(project_dir)]))
        try:
            shown = window.statusBar().currentMessage()
            window.show_page(window.project.page_names()[-1])  # a page change saves the settings
        finally:
            window.close()  # the quit saves them too
            window.shutdown()
    logged = [record.getMessage() for record in caplog.records if "settings" in record.getMessage()]
    printed = [line for line in capsys.readouterr().err.splitlines() if "settings" in line]
    return logged + printed, shown


def test_a_config_folder_that_cannot_be_made_is_said_once(qapp, monkeypatch, tmp_path, project_dir, capsys,
                                                          caplog) -> None:
    """No settings file can be there: nothing to say it cannot be read, only that none can be saved."""
    blocker = tmp_path / "config-is-a-file"
    blocker.write_text("not a folder")
    settings_file = blocker / "config" / "recordlens" / "annotator.json"
    said, shown = lines_said_from_start_to_quit(monkeypatch, settings_file, project_dir, capsys, caplog)
    line = (f"settings cannot be saved: {hint_path(settings_file.parent)} cannot be written (Not a directory): set "
            "XDG_CONFIG_HOME (or HOME) to a folder you can write; the project, page and places open now are not "
            "remembered")
    assert said == [f"recordlens-annotator: warning: {line}"] and shown == line


def test_a_folder_in_place_of_the_settings_file_is_said_once(qapp, monkeypatch, tmp_path, project_dir, capsys,
                                                             caplog) -> None:
    settings_file = tmp_path / "config" / "annotator.json"
    settings_file.mkdir(parents=True)
    said, shown = lines_said_from_start_to_quit(monkeypatch, settings_file, project_dir, capsys, caplog)
    line = (f"settings cannot be saved: {hint_path(settings_file)} is a folder, not a settings file: move it away; "
            "the project, page and places open now are not remembered")
    assert said == [f"recordlens-annotator: warning: {line}"] and shown == line


def test_a_settings_file_that_is_not_json_is_said_once_and_written_anew(qapp, monkeypatch, tmp_path, project_dir,
                                                                        capsys, caplog) -> None:
    settings_file = tmp_path / "config" / "annotator.json"
    settings_file.parent.mkdir()
    settings_file.write_text("{not json", encoding="utf-8")
    said, shown = lines_said_from_start_to_quit(monkeypatch, settings_file, project_dir, capsys, caplog)
    line = (f"settings cannot be read: {hint_path(settings_file)} is not valid JSON (Expecting property name "
            "enclosed in double quotes: line 1 column 2 (char 1)); the defaults are used, and the next save writes "
            "over it")
    assert said == [f"recordlens-annotator: warning: {line}"] and shown == line
    assert settings_module.Settings.load(settings_file).last_project == str(project_dir)  # saved: read again


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs as on POSIX")
def test_a_fifo_in_place_of_the_settings_file_is_said_without_waiting(tmp_path) -> None:
    fifo = tmp_path / "annotator.json"
    os.mkfifo(fifo)
    code = textwrap.dedent("""
        import sys
        from pathlib import Path
        from recordlens.annotator.settings import Settings, settings_trouble
        print(settings_trouble(Path(sys.argv[1])))
        print(Settings.load(Path(sys.argv[1])) == Settings())
    """)
    done = subprocess.run([sys.executable, "-c", code, str(fifo)], cwd=ROOT, capture_output=True, text=True,
                          timeout=CHILD_SECONDS, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"settings cannot be read: {fifo} is a FIFO (named pipe), not a regular file; the defaults are used, and the "
        "next save writes over it", "True"]
    assert done.stderr == ""  # said by the start alone, not again by the read


def test_a_file_that_can_be_neither_read_nor_saved_is_said_in_one_line(qapp, monkeypatch, tmp_path, project_dir,
                                                                       capsys, caplog) -> None:
    """A read-only config folder (as a folder of another user is) holding a file that is not JSON."""
    settings_file = tmp_path / "config" / "annotator.json"
    settings_file.parent.mkdir()
    settings_file.write_text("{not json", encoding="utf-8")

    def read_only(*_: object, **__: object) -> None:
        raise PermissionError(13, "Permission denied", str(settings_file.parent))

    monkeypatch.setattr(settings_module.tempfile, "TemporaryFile", read_only)
    monkeypatch.setattr(settings_module, "write_text", read_only)
    said, shown = lines_said_from_start_to_quit(monkeypatch, settings_file, project_dir, capsys, caplog)
    line = (f"settings cannot be saved: {hint_path(settings_file.parent)} cannot be written (Permission denied): set "
            "XDG_CONFIG_HOME (or HOME) to a folder you can write; the project, page and places open now are not "
            f"remembered; nor can {hint_path(settings_file)} be read: it is not valid JSON (Expecting property name "
            "enclosed in double quotes: line 1 column 2 (char 1)); the defaults are used")
    assert said == [f"recordlens-annotator: warning: {line}"] and shown == line
