"""The settings warn when the annotator name is another spelling of an imported annotator's (another Unicode form,
other spaces), as they warn for the same name: `recordlens agreement` reads such a name as the imported labels."""

from __future__ import annotations

import pytest

from tests.app.window_helpers import FakeKeyStore

NFC, NFD = "Zo\u00eb", "Zoe\u0308"


@pytest.mark.parametrize("typed", [NFD, "Ann  Lee", "Ann\u00a0Lee"])
def test_another_spelling_of_an_imported_annotator_is_warned_of(qtbot, typed: str) -> None:
    from recordlens.annotator.settings import Settings
    from recordlens.annotator.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(annotator="ann"), FakeKeyStore(), annotators=[NFC, "Ann Lee"])
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.name_clash.isVisible()
    dialog.annotator.setText(typed)
    assert dialog.name_clash.isVisible()
    text = dialog.name_clash.text()
    assert "is another spelling of" in text and "an imported annotator of this project" in text, text
    assert "reads it as the imported labels" in text and "person:" in text
    if typed == NFD:  # both written so that they differ on screen
        assert text.startswith("'Zoe\\u0308' is another spelling of 'Zoë'"), text
    dialog.annotator.setText("Zoey")
    assert not dialog.name_clash.isVisible()
