"""The Settings dialog (Ctrl+,) says what Propose with Gemini will use, typed into as a person does:
- OK refuses, in the dialog and with the endpoint's field focused, an endpoint still holding the mark its
  credential was saved as (after a restart on one saved with a user:password) while Gemini is the default: OK took
  it and said "settings saved; Propose uses gemini", and the next P refused every call. Nothing is saved.
- a key in the environment (GEMINI_API_KEY, else GOOGLE_API_KEY) is said, by its variable and never by its value:
  in use while none is given here, and beaten by one that is (as `gemini_key` chooses). It was not said at all.
- a refusal of the endpoint goes, or says the new fault, as the endpoint is edited: it stayed red when corrected."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from recordlens.annotator.settings import Settings, gemini_key
from recordlens.annotator.settings_dialog import SettingsDialog
from tests.app.gemini_helpers import SHOP_PAGE
from tests.app.window_helpers import FakeKeyStore, imported_project, open_window

pytestmark = pytest.mark.app

ENV_KEY = "ENV-KEY-NOT-REAL-5150"
OTHER_ENV_KEY = "OTHER-ENV-KEY-NOT-REAL-6160"
TYPED_KEY = "TYPED-KEY-NOT-REAL-7170"
DIALOG_MS = 30_000  # a busy machine


def restarted_on(path: Path, **saved: str) -> Settings:
    """The settings as the next start reads them, after a session saved `saved` into the file at `path`."""
    Settings(annotator="tester", **saved).save(path)
    return Settings.load(path)


def shown(qtbot, settings: Settings, keys: FakeKeyStore | None = None) -> SettingsDialog:
    dialog = SettingsDialog(settings, keys or FakeKeyStore())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog, timeout=DIALOG_MS)
    return dialog


def press_ok(dialog: SettingsDialog) -> None:
    box = dialog.findChild(QDialogButtonBox)
    QTest.mouseClick(box.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)


def retype(qtbot, field, text: str) -> None:
    """Everything in `field` selected and typed over, key by key."""
    field.setFocus()
    QTest.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(field, text)


def in_the_settings_dialog(window, act: Callable[[SettingsDialog], None]) -> None:
    """Ctrl+, in `window`, and `act` on the dialog it opens (modal: run from the dialog's own event loop); the
    dialog is closed with Esc if `act` left it open."""
    failures: list[BaseException] = []

    def drive() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, SettingsDialog) or not dialog.isVisible():
            QTimer.singleShot(50, drive)
            return
        try:
            act(dialog)
        except BaseException as error:  # noqa: BLE001 - raised again outside the dialog's loop
            failures.append(error)
        finally:
            if dialog.isVisible():
                QTest.keyClick(dialog, Qt.Key.Key_Escape)

    QTimer.singleShot(0, drive)
    QTest.keySequence(window, "Ctrl+,")  # returns once the dialog is closed
    if failures:
        raise failures[0]


# 1. the mark of a credential left out, at OK


def test_ok_refuses_an_endpoint_still_holding_the_mark_of_its_credential_and_saves_nothing(
        qtbot, tmp_path: Path) -> None:
    path = tmp_path / "annotator.json"
    settings = restarted_on(path, default_extractor="gemini", gemini_endpoint="http://bob:PASSWD555@127.0.0.1:8585")
    window = open_window(imported_project(tmp_path, {"html/1.html": SHOP_PAGE.format(1)}), path, settings=settings,
                         qtbot=qtbot)
    before = path.read_bytes()  # as the window keeps it once open (the page open is remembered)
    assert b"%5Bkey%5D@127.0.0.1:8585" in before and b"PASSWD555" not in before
    seen: dict[str, object] = {}

    def type_the_key_only_and_press_ok(dialog: SettingsDialog) -> None:
        assert dialog.endpoint.text() == "http://%5Bkey%5D@127.0.0.1:8585"
        qtbot.keyClicks(dialog.key, TYPED_KEY)
        press_ok(dialog)
        seen.update(open=dialog.isVisible(), said=dialog.problem.text(), shows=not dialog.problem.isHidden(),
                    focus=dialog.focusWidget() is dialog.endpoint)

    try:
        window.statusBar().clearMessage()
        in_the_settings_dialog(window, type_the_key_only_and_press_ok)
        assert seen["open"], "OK closed the dialog on an endpoint Propose would refuse"
        said = str(seen["said"])
        assert seen["shows"] and said.startswith("The Gemini endpoint holds %5Bkey%5D in place of its credential, "
                                                 "which the settings file does not keep"), said
        assert "replace the mark with the credential" in said, said
        assert seen["focus"], "the endpoint's field is not the one focused"
        assert path.read_bytes() == before  # nothing saved
        assert window.keys.get() is None and "settings saved" not in window.statusBar().currentMessage()
    finally:
        window.close()


def test_the_mark_is_refused_for_gemini_only_and_the_credential_given_again_is_taken(qtbot, tmp_path: Path) -> None:
    settings = restarted_on(tmp_path / "annotator.json", default_extractor="gemini",
                            gemini_endpoint="http://127.0.0.1:8585/?key=SECRET99")
    dialog = shown(qtbot, settings)
    press_ok(dialog)
    assert dialog.isVisible() and "holds [key] in place of its credential" in dialog.problem.text()
    dialog.extractor.setFocus()
    QTest.keyClick(dialog.extractor, Qt.Key.Key_Home)  # the offline default: the endpoint serves no Propose
    assert dialog.extractor.currentData() == "" and dialog.problem.isHidden()
    # Gemini chosen again (by its entry: other tests register extractors that sort after it) would refuse it at OK
    dialog.extractor.setCurrentIndex(dialog.extractor.findData("gemini"))
    assert dialog.extractor.currentData() == "gemini" and dialog.problem.isHidden()  # not said before OK
    retype(qtbot, dialog.endpoint, "http://127.0.0.1:8585/?key=SECRET99")
    press_ok(dialog)
    assert not dialog.isVisible() and dialog.result() == 1


# 2. the environment's key


def test_the_environments_key_is_said_as_in_use_while_none_is_typed_and_beaten_by_one_typed(
        qtbot, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", ENV_KEY)
    keys = FakeKeyStore()
    dialog = shown(qtbot, restarted_on(tmp_path / "annotator.json", default_extractor="gemini"), keys)
    said = dialog.key_in_use.text()
    assert not dialog.key_in_use.isHidden(), "a key in the environment is not said"
    assert said == "No key is given here: Propose uses the one in GEMINI_API_KEY, from the environment.", said
    qtbot.keyClicks(dialog.key, TYPED_KEY)
    said = dialog.key_in_use.text()
    assert said.startswith("The key typed here is used: a key given here wins over the one in GEMINI_API_KEY"), said
    assert ENV_KEY not in said and TYPED_KEY not in said
    press_ok(dialog)
    dialog.apply()
    assert gemini_key(keys) == TYPED_KEY  # what the app sends is what was said
    keys.set(None)
    assert gemini_key(keys) == ENV_KEY


def test_the_variable_read_is_named_when_only_the_other_or_both_are_set(qtbot, monkeypatch, tmp_path: Path) -> None:
    settings = restarted_on(tmp_path / "annotator.json")
    monkeypatch.setenv("GOOGLE_API_KEY", OTHER_ENV_KEY)
    dialog = shown(qtbot, settings)
    assert dialog.key_in_use.text() == ("No key is given here: Propose uses the one in GOOGLE_API_KEY, from the "
                                        "environment.")
    monkeypatch.setenv("GEMINI_API_KEY", ENV_KEY)
    dialog = shown(qtbot, settings)
    said = dialog.key_in_use.text()
    assert said.startswith("No key is given here: Propose uses the one in GEMINI_API_KEY, from the environment "
                           "(both GEMINI_API_KEY and GOOGLE_API_KEY are set: the key of GEMINI_API_KEY is used, "
                           "GOOGLE_API_KEY is ignored)"), said
    assert ENV_KEY not in said and OTHER_ENV_KEY not in said
    assert gemini_key(FakeKeyStore()) == ENV_KEY


def test_a_stored_key_is_said_to_win_until_it_is_forgotten(qtbot, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", ENV_KEY)
    keys = FakeKeyStore("STORED-KEY-NOT-REAL-8180")
    dialog = shown(qtbot, restarted_on(tmp_path / "annotator.json"), keys)
    assert dialog.key_in_use.text().startswith("The stored key is used: a key given here wins over the one in "
                                               "GEMINI_API_KEY")
    dialog.clear_key.setFocus()
    QTest.keyClick(dialog.clear_key, Qt.Key.Key_End)  # "forget the stored key"
    assert dialog.key_in_use.text().startswith("No key is given here: Propose uses the one in GEMINI_API_KEY")
    press_ok(dialog)
    dialog.apply()
    assert gemini_key(keys) == ENV_KEY


def test_nothing_is_said_of_the_environment_when_it_holds_no_key(qtbot, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "  ")  # blank: no key
    dialog = shown(qtbot, restarted_on(tmp_path / "annotator.json"))
    assert dialog.key_in_use.isHidden() and not dialog.key_in_use.text()


# 3. a refusal of the endpoint, as the endpoint is edited


def test_the_endpoints_refusal_goes_once_it_is_corrected_and_follows_each_edit(qtbot, tmp_path: Path) -> None:
    dialog = shown(qtbot, restarted_on(tmp_path / "annotator.json"))
    qtbot.keyClicks(dialog.endpoint, "127.0.0.1:8585")
    press_ok(dialog)
    assert dialog.isVisible() and not dialog.problem.isHidden()
    assert "'127.0.0.1:8585' is not an http:// or https:// address" in dialog.problem.text()
    retype(qtbot, dialog.endpoint, "ftp://127.0.0.1:8585")
    said = dialog.problem.text()
    assert not dialog.problem.isHidden() and "'ftp://127.0.0.1:8585' is not an http://" in said, said
    retype(qtbot, dialog.endpoint, "http://127.0.0.1:8585")
    assert dialog.problem.isHidden(), f"still said: {dialog.problem.text()}"
    press_ok(dialog)
    assert not dialog.isVisible() and dialog.result() == 1
