"""What the app says at start stays readable: the status bar shows one message for good, so a project brought up
from an earlier schema is said first and the notice that the demo stands in for the project last open last (the
upgrade stays under Recent messages and on stderr)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator import app
from recordlens.annotator.program import PROG
from recordlens.annotator.settings import Settings

pytestmark = pytest.mark.app


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


def test_the_notice_that_the_demo_is_open_instead_is_not_hidden_by_an_upgrade(qapp, tmp_path, settings_file, capsys):
    # The status bar showed the notice, then each upgrade over it: "the demo project is open instead" was gone.
    from recordlens.core.store import open_project, take_upgrades
    from tests.core.test_project_upgrade import a_version_3_project

    take_upgrades()  # those of other tests of this process
    open_project(a_version_3_project(tmp_path / "old")).close()  # brought up, not said yet: the window says it
    gone = str(tmp_path / "moved-away")
    Settings(last_project=gone).save(settings_file)
    window = app.open_window(app.parse_args([]))
    try:
        shown = window.statusBar().currentMessage()
        assert shown.startswith(f"the project last open, {gone}, is not open") and "open instead" in shown
        recent = window.messages.text()
        assert "project brought up from schema 3 to " in recent and "open instead" in recent
        assert f"{PROG}: {tmp_path / 'old'}: project brought up from schema 3" in capsys.readouterr().err
    finally:
        window.close()
