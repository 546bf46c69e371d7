"""The settings dialog grows for a note under its fields (OK's refusal of an endpoint, the note of a credential in
the address): gone (the endpoint corrected), the note left the dialog as tall as it had grown, an empty band above
its buttons. The dialog now gives back the height it grew for the note, and only that: a dialog the user made
taller keeps the height they gave it."""

from __future__ import annotations

import pytest

from recordlens.annotator.settings import SessionKeyStore, Settings
from recordlens.annotator.settings_dialog import SettingsDialog
from recordlens.core.store import PROJECT_SET
from tests.app.gui_waits import queued_work_done

pytestmark = pytest.mark.app

BAD = "127.0.0.1:8080"  # no scheme: OK refuses it
GOOD = "http://127.0.0.1:8080/"


@pytest.fixture
def dialog(qtbot):
    dialog = SettingsDialog(Settings(), SessionKeyStore())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    queued_work_done()
    return dialog


def height_settles(qtbot, dialog: SettingsDialog, height: int) -> None:
    queued_work_done()
    qtbot.waitUntil(lambda: dialog.height() == height, timeout=5_000)


def refused(qtbot, dialog: SettingsDialog) -> None:
    dialog.endpoint.setText(BAD)
    dialog._accept_if_valid()
    assert dialog.problem.isVisible() and "Gemini endpoint" in dialog.problem.text()
    queued_work_done()


def test_a_refusal_gone_gives_back_the_height_it_took(qtbot, dialog: SettingsDialog) -> None:
    opened = dialog.height()
    refused(qtbot, dialog)
    qtbot.waitUntil(lambda: dialog.height() > opened, timeout=5_000)  # room for the refusal
    dialog.endpoint.setText(GOOD)  # corrected: the refusal goes
    assert dialog.problem.isHidden()
    height_settles(qtbot, dialog, opened)
    assert dialog.isVisible() and dialog.result() == 0  # still open: only its height changed


def test_each_note_gone_gives_back_its_own_room(qtbot, dialog: SettingsDialog) -> None:
    opened = dialog.height()
    dialog.annotator.setText(PROJECT_SET)  # the project's own labels' name: warned
    assert dialog.name_clash.isVisible()
    queued_work_done()
    qtbot.waitUntil(lambda: dialog.height() > opened, timeout=5_000)
    warned = dialog.height()
    dialog.endpoint.setText("http://user:secret@127.0.0.1:8080/")  # a credential in the address: noted too
    assert dialog.endpoint_note.isVisible()
    queued_work_done()
    qtbot.waitUntil(lambda: dialog.height() > warned, timeout=5_000)
    dialog.endpoint.setText(GOOD)  # the note goes, the warning stays: as tall as with the warning alone
    assert dialog.endpoint_note.isHidden() and dialog.name_clash.isVisible()
    height_settles(qtbot, dialog, warned)
    dialog.annotator.setText("")
    assert dialog.name_clash.isHidden()
    height_settles(qtbot, dialog, opened)


def test_a_dialog_the_user_made_taller_keeps_their_height(qtbot, dialog: SettingsDialog) -> None:
    tall = dialog.height() + 200
    dialog.resize(dialog.width(), tall)  # as the user drags its edge
    height_settles(qtbot, dialog, tall)
    refused(qtbot, dialog)  # room enough: it grows no more
    dialog.endpoint.setText(GOOD)
    queued_work_done()
    qtbot.wait(200)
    assert dialog.height() == tall


def test_a_note_at_the_opening_gives_back_its_room(qtbot) -> None:
    """A note the dialog opened with (the mark of a credential the settings file left out): the dialog is as tall as
    it opens without it once it goes."""
    plain = SettingsDialog(Settings(gemini_endpoint=GOOD), SessionKeyStore())
    noted = SettingsDialog(Settings(gemini_endpoint="http://%5Bkey%5D@127.0.0.1:8080/"), SessionKeyStore())
    for dialog in (plain, noted):
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
    queued_work_done()
    assert noted.endpoint_note.isVisible() and noted.height() > plain.height()
    assert noted.width() == plain.width()
    noted.endpoint.setText(GOOD)
    height_settles(qtbot, noted, plain.height())
