"""An answer a cancelled Propose already asked Gemini for (and is paid for) is kept in its run when the app quits
while it is on its way: quitting waits for it, with a Quit now that does not."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QProgressDialog

from recordlens.annotator.labelling import main_window
from recordlens.annotator.qt.jobs import answers_on_their_way
from recordlens.core.store import open_project
from tests.app.gemini_helpers import SHOP_PAGE, SHOP_RECORDS, with_gemini
from tests.app.window_helpers import imported_project, open_window
from tests.fake_gemini import FakeGemini, answer_with

pytestmark = pytest.mark.app


ANSWER_HELD_S = 120  # the longest the answer is held, for a test that fails before it lets it go


def held_answer(asked: threading.Event, released: threading.Event):  # noqa: ANN201
    """A fake server's step: the answer comes once `released` is set (at most ANSWER_HELD_S)."""
    def respond(_body: dict) -> str:
        asked.set()
        released.wait(ANSWER_HELD_S)
        return SHOP_RECORDS
    return answer_with(respond)


def quit_while_the_answer_is_on_its_way(qtbot, tmp_path: Path, released: threading.Event,
                                        press_quit_now: bool = False) -> tuple[Path, list[str], float]:
    """The window quit while Propose's answer is on its way, held until `released`: the project, what the quit's
    dialog said, and how long the quit took. Without Quit now pressed, the answer is let go once the dialog is on
    show (not after a fixed time, which a busy machine could outlast before the quit even began)."""
    folder = imported_project(tmp_path, {"html/1.html": SHOP_PAGE.format(1)})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    asked = threading.Event()
    shown: list[str] = []

    def watch_the_dialog() -> None:
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, QProgressDialog) and widget.isVisible():
                shown.append(widget.labelText())
                if press_quit_now:
                    widget.cancel()
                else:
                    released.set()  # the answer comes while the quit waits for it

    with FakeGemini([held_answer(asked, released)]) as server:
        with_gemini(window, server)
        window.jobs.propose(["1"])
        qtbot.waitUntil(asked.is_set, timeout=20_000)
        from PySide6.QtCore import QTimer
        timer = QTimer()
        timer.timeout.connect(watch_the_dialog)
        timer.start(100)
        started = time.monotonic()
        try:
            window.close()  # what Ctrl+Q does: the job is cancelled, its call goes on
        finally:
            timer.stop()
        took = time.monotonic() - started
    return folder, shown, took


def test_quitting_waits_for_an_answer_on_its_way_and_its_run_keeps_it(qtbot, tmp_path: Path) -> None:
    folder, shown, _ = quit_while_the_answer_is_on_its_way(qtbot, tmp_path, threading.Event())
    assert shown and "1 answer already asked of the model (and paid for) on the way" in shown[0]
    assert answers_on_their_way() == 0
    with open_project(folder) as project:
        (run,) = project.runs.all()
        assert run.status == "cancelled"
        assert project.runs.predictions(run.id)["1"] == json.loads(SHOP_RECORDS)  # the paid answer, kept
        assert run.cost["page_costs"]["1"]["status"] == "done"


def test_quit_now_does_not_wait(qtbot, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(main_window, "ANSWERS_WAIT_S", 60.0)
    released = threading.Event()
    _, shown, took = quit_while_the_answer_is_on_its_way(qtbot, tmp_path, released, press_quit_now=True)
    assert shown and took < 30.0  # waiting for the answer (held until released below) would take 60 s
    assert answers_on_their_way() == 1  # the quit did not wait for it: it is still on its way
    released.set()  # the answer comes now
    qtbot.waitUntil(lambda: answers_on_their_way() == 0, timeout=20_000)  # no call left for the next test
