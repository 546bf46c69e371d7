"""Each Propose runs in a job of its own (a QThread), and the window connects closures to its signals that hold
the job itself (which run its Gemini session stored) and the job's tally. Qt keeps those connections, out of the
collector's sight, so every ended job, with its thread object and what the closures held, stayed in memory for
the app's life: over a day of pressing P, the app grew lap after lap. An ended job is let go."""

from __future__ import annotations

import gc

import pytest
from PySide6.QtCore import QCoreApplication, QEvent

from recordlens.annotator.labelling.propose import ProposeWorker
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app

PROPOSES = 6


def _workers_alive() -> int:
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # what the event loop does in the app
    gc.collect()
    return sum(isinstance(thing, ProposeWorker) for thing in gc.get_objects())


def test_proposing_again_and_again_keeps_no_ended_job(qtbot, window) -> None:
    before = _workers_alive()
    for _ in range(PROPOSES):
        key(window, "P")
        qtbot.waitUntil(lambda: window.job is None and said(window).startswith("done"), timeout=60_000)
    # the last one may still be held by what its end said (its `done`), none of the others
    assert _workers_alive() - before <= 1
