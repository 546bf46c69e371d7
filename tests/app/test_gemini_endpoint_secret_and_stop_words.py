"""Propose with Gemini, as the app says and keeps it: a credential typed into the Gemini endpoint is used for the
session and never written to the settings file (said in the dialog), a quota stop names its page as stopped, never
as failed, and the answer on its way at Cancel, added to the session's run when it comes, is said as that rather
than as a change made elsewhere (the last needs /tmp/fix/gemini-review_controller.patch). Against the loopback
fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from PySide6.QtTest import QTest

from recordlens.annotator.settings import Settings
from recordlens.annotator.settings_dialog import SettingsDialog
from tests.app.gemini_helpers import SHOP_PAGE, SHOP_RECORDS, with_gemini
from tests.app.window_helpers import FakeKeyStore, imported_project, open_window, recent_messages
from tests.fake_gemini import FakeGemini, answer, answer_with, status

pytestmark = pytest.mark.app

SECRET = "ENDPOINTSECRET42"


@pytest.fixture
def window(qtbot, tmp_path: Path):
    folder = imported_project(tmp_path, {f"html/{n}.html": SHOP_PAGE.format(n) for n in (1, 2, 3)})
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    yield win
    win.close()


def wait_for_the_job(qtbot, window) -> None:
    qtbot.waitUntil(lambda: window.job is None, timeout=20_000)


# 2. a credential in the endpoint


def test_a_credential_in_the_endpoint_is_used_this_session_and_saved_as_key(qtbot, tmp_path: Path) -> None:
    settings, path = Settings(), tmp_path / "annotator.json"
    dialog = SettingsDialog(settings, FakeKeyStore())
    qtbot.addWidget(dialog)
    dialog.endpoint.setText(f"http://127.0.0.1:9/?key={SECRET}")
    note = dialog.endpoint_note.text()
    assert not dialog.endpoint_note.isHidden() and "used for this session only" in note
    assert "http://127.0.0.1:9/?key=[key]" in note and SECRET not in note, note
    dialog.apply()
    settings.save(path)
    assert settings.gemini_endpoint == f"http://127.0.0.1:9/?key={SECRET}"  # this session proposes with it
    assert SECRET not in path.read_text(encoding="utf-8")
    assert json.loads(path.read_text(encoding="utf-8"))["gemini_endpoint"] == "http://127.0.0.1:9/?key=[key]"
    settings.annotator = "someone"  # a later save of another setting does not write it either
    settings.save(path)
    assert SECRET not in path.read_text(encoding="utf-8")


def test_a_password_put_in_the_settings_file_by_hand_is_not_written_back(tmp_path: Path) -> None:
    path = tmp_path / "annotator.json"
    path.write_text(json.dumps({"gemini_endpoint": "http://user:pa55word@proxy.test/v1"}), encoding="utf-8")
    settings = Settings.load(path)
    settings.zooms = "{}"
    settings.save(path)
    kept = json.loads(path.read_text(encoding="utf-8"))["gemini_endpoint"]
    assert kept == "http://%5Bkey%5D@proxy.test/v1" and "pa55word" not in path.read_text(encoding="utf-8")


def test_an_endpoint_saved_without_its_credential_is_said_in_the_dialog_and_at_propose(qtbot, window) -> None:
    dialog = SettingsDialog(Settings(gemini_endpoint="http://127.0.0.1:9/?key=[key]"), FakeKeyStore())
    qtbot.addWidget(dialog)
    assert "[key] stands for the credential of this address" in dialog.endpoint_note.text()
    with FakeGemini(default=answer(SHOP_RECORDS)) as server:
        with_gemini(window, server)
        window.settings.gemini_endpoint = f"{server.url}/?key=[key]"
        QTest.keySequence(window, "P")
        assert window.job is None and not server.requests
    assert "holds [key] in place of its credential" in window.statusBar().currentMessage()


def test_an_endpoint_saved_without_its_user_and_password_is_refused_at_propose(qtbot, window) -> None:
    with FakeGemini(default=answer(SHOP_RECORDS)) as server:
        with_gemini(window, server)
        window.settings.gemini_endpoint = server.url.replace("//", "//%5Bkey%5D@", 1)  # as the settings file saves it
        QTest.keySequence(window, "P")
        assert window.job is None and not server.requests
    assert "in place of its credential" in window.statusBar().currentMessage()


# 3. a quota stop's page


def test_a_quota_stop_names_its_page_stopped_not_failed(qtbot, window) -> None:
    quota = status(429, "quota", headers={"Retry-After": "3600"})
    with FakeGemini([answer(SHOP_RECORDS), quota], default=answer(SHOP_RECORDS)) as server:
        with_gemini(window, server)
        QTest.keySequence(window, "Shift+P")
        wait_for_the_job(qtbot, window)
    said = window.statusBar().currentMessage()
    assert said.startswith("stopped on page 2: HTTP 429") and "not reached: 3" in said, said
    assert "failed" not in said, said
    # nor said as a page's failure, in a message of its own ("page 2: HTTP 429 …")
    assert not [line for line in recent_messages(window).splitlines() if line.split("  ", 1)[-1].startswith("page 2")]
    run = window.project.runs.all()[0]
    assert run.cost["page_costs"]["2"]["status"] == "not finished" and not window.project.runs.errors(run.id)


# 4. the answer on its way at Cancel


def test_the_answer_on_its_way_at_cancel_is_not_called_a_change_made_elsewhere(qtbot, window) -> None:
    asked, release = threading.Event(), threading.Event()

    def slow(_: dict) -> str:
        asked.set()
        release.wait(15)
        return SHOP_RECORDS

    with FakeGemini(default=answer_with(slow)) as server:
        with_gemini(window, server)
        QTest.keySequence(window, "P")
        qtbot.waitUntil(asked.is_set, timeout=10_000)
        QTest.keySequence(window, "Ctrl+.")
        wait_for_the_job(qtbot, window)
        assert window.statusBar().currentMessage().startswith("cancelled: no further Gemini call is made")
        (run,) = window.project.runs.all()
        release.set()
        qtbot.waitUntil(lambda: "1" in window.project.runs.get(run.id).cost.get("page_costs", {}), timeout=15_000)
    qtbot.waitUntil(lambda: window.project.runs.get(run.id).predicted_pages == 1, timeout=5_000)
    window.check_project()  # where the window's watch timer would look
    said = window.statusBar().currentMessage()
    assert f"run {run.id} (gemini): the answer on its way when Propose was cancelled is added to it" in said, said
    assert "elsewhere" not in said, said
