"""How the app starts and stops around the user's project and settings: a project last open that is gone is said
and stays remembered, one that cannot be opened gets a dialog, a screenshot leaves the settings alone, and
SIGTERM saves what Ctrl+Q saves."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from recordlens.annotator import app
from recordlens.annotator.settings import Settings
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>One</title></head><body><ul>
<li><b>Camera</b> <i>$399</i></li><li><b>Lens</b> <i>$129</i></li></ul></body></html>"""


@pytest.fixture
def settings_file(monkeypatch, tmp_path: Path) -> Path:
    """The app's settings in the test's folder, and no real keyring."""
    from recordlens.annotator import settings as settings_module
    from recordlens.annotator.labelling import main_window

    path = tmp_path / "annotator.json"
    monkeypatch.setattr(settings_module, "settings_path", lambda: path)
    monkeypatch.setattr(main_window, "settings_path", lambda: path)
    monkeypatch.setattr(main_window, "default_key_store", settings_module.SessionKeyStore)
    return path


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    return imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps([["/body[1]/ul[1]/li[1]"]])})


def test_a_project_last_open_that_is_gone_is_said_and_stays_the_one_last_open(qapp, tmp_path, settings_file):
    gone = str(tmp_path / "moved-away")
    Settings(last_project=gone).save(settings_file)
    window = app.open_window(app.parse_args([]))
    try:
        assert window.project.root.name.startswith("demo-project")
        assert f"the project last open, {gone}, is not open: it is gone" in window.statusBar().currentMessage()
        assert "open yours with Ctrl+O" in window.messages.text()
        window.open_page(window.project.pages()[-1].name)
    finally:
        window.close()
    assert Settings.load(settings_file).last_project == gone


def test_a_project_that_cannot_be_opened_gets_a_dialog_unless_it_is_a_screenshot(qapp, tmp_path, monkeypatch,
                                                                                 settings_file, project_dir, capsys):
    with (project_dir / "project.db").open("r+b") as database:
        database.write(b"not a database at all, " * 8)
    shown: list[str] = []
    monkeypatch.setattr(app, "show_start_error", shown.append)
    assert app.main([str(project_dir)]) == 2
    assert len(shown) == 1 and "cannot open the project database (file is not a database)" in shown[0]
    assert "cannot open the project database" in capsys.readouterr().err
    assert app.main([str(project_dir), "--screenshot", str(tmp_path / "x.png")]) == 2
    assert len(shown) == 1  # a script's run says it on stderr only


def test_a_screenshot_leaves_the_settings_as_they_were(qapp, tmp_path, settings_file, project_dir):
    Settings(last_project="/somewhere/else", last_pages=json.dumps({"/somewhere/else": "7"})).save(settings_file)
    before = settings_file.read_bytes()
    assert app.main([str(project_dir), "--screenshot", str(tmp_path / "shot.png"), "--page", "1",
                     "--record", "1", "--size", "900x600"]) == 0
    assert (tmp_path / "shot.png").is_file()
    assert settings_file.read_bytes() == before


def test_sigterm_closes_the_window_as_ctrl_q_does(qtbot, tmp_path, project_dir):
    settings_file = tmp_path / "settings.json"
    window = open_window(project_dir, settings_file, qtbot=qtbot)
    try:
        window.select_records([window.labels[0].id])
        handler = signal.getsignal(signal.SIGTERM)
        with app.closed_on_terminate(window):
            signal.raise_signal(signal.SIGTERM)
            qtbot.waitUntil(lambda: not window.isVisible())
    finally:
        window.close()
    kept = Settings.load(settings_file)
    assert kept.last_selection(str(project_dir.resolve()), "1") == [window.labels[0].id]
    assert kept.window_geometry
    assert signal.getsignal(signal.SIGTERM) is handler  # given back as it was
