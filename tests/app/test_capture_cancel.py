"""Cancelling a capture from the app: the dialog says it cancels (at once, not "after the page being loaded"), and
the capture process's exit once cancelled is the command line's own for SIGTERM (core.cli's `Terminated`), which
keeps the summary of the pages saved so far."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QProcess

from recordlens.annotator.agent.capture_panel import CaptureDialog
from recordlens.annotator.agent.site_capture import CaptureFromWeb
from recordlens.core.interruption import Terminated

pytestmark = pytest.mark.app


def test_cancel_says_it_cancels_at_once(qapp, monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = CaptureDialog()
    try:
        monkeypatch.setattr(CaptureFromWeb, "running", property(lambda _self: True))  # a capture under way
        sent: list[bool] = []
        monkeypatch.setattr(dialog.process, "cancel", lambda: sent.append(True))
        dialog.cancel()
        assert sent == [True] and dialog.cancelled
        assert dialog.log.toPlainText().splitlines()[-1] == "cancelling…"
    finally:
        dialog.deleteLater()


def test_a_cancelled_capture_that_exits_as_terminated_keeps_its_summary(qapp) -> None:
    assert Terminated.status == 143  # 128 + SIGTERM, as shells and schedulers read it
    process = CaptureFromWeb()
    process._cancelled = True
    summary = {"message": "site: 2 page(s) saved", "pages": 2}
    result = process._result(Terminated.status, QProcess.ExitStatus.NormalExit, [json.dumps(summary)])
    assert result == {"ok": True, "message": "cancelled: site: 2 page(s) saved", "pages": 2}
    stopped_otherwise = process._result(2, QProcess.ExitStatus.NormalExit, [json.dumps(summary)])
    assert stopped_otherwise == {"ok": False, "message": "cancelled; run the capture again to continue"}
