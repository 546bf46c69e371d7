"""The Settings dialog after a restart, on a Gemini endpoint saved without its user and password: OK closes it
for any change (the saved address parses), and the bracketed mark a previous version saved is refused with
what to do, not with urlsplit's words about an IPv6 address."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.settings import SessionKeyStore, Settings
from recordlens.annotator.settings_dialog import SettingsDialog

pytestmark = pytest.mark.app


def test_ok_closes_the_dialog_after_a_restart_on_an_endpoint_saved_without_its_password(
        qapp, tmp_path: Path) -> None:
    path = tmp_path / "annotator.json"
    settings = Settings(gemini_endpoint="http://user:secret@127.0.0.1:8080/")
    settings.save(path)
    dialog = SettingsDialog(Settings.load(path), SessionKeyStore())  # the next session
    try:
        assert "%5Bkey%5D stands for the credential of this address" in dialog.endpoint_note.text()
        dialog.annotator.setText("someone")  # a change that has nothing to do with Gemini
        dialog._accept_if_valid()
        assert dialog.result() == 1 and dialog.problem.isHidden()
    finally:
        dialog.deleteLater()


def test_the_bracketed_mark_before_the_host_says_to_replace_it(qapp) -> None:
    dialog = SettingsDialog(Settings(gemini_endpoint="http://[key]@127.0.0.1:8080/"), SessionKeyStore())
    try:
        dialog._accept_if_valid()
        said = dialog.problem.text()
        assert dialog.result() == 0 and "replace the mark with the credential" in said, said
        assert "IPv6" not in said and "does not appear" not in said, said
        dialog.endpoint.setText("http://user:secret@127.0.0.1:8080/")
        dialog._accept_if_valid()
        assert dialog.result() == 1
    finally:
        dialog.deleteLater()
