"""A person's recording said when it began and when each action came as `+00:00` while the store and an agent's
episode say `Z`: it now writes the store's one form (`core.moments`), UTC to the millisecond ending in `Z`."""

from __future__ import annotations

import re

import pytest

from recordlens.annotator.agent.recorder import Recorder
from recordlens.core.agent.model import Task
from tests.app.agent_helpers import DEMO_SITE, HOME, short_waits, shown_browser

pytestmark = pytest.mark.app

STORE_FORM = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


@pytest.fixture(scope="module")
def browser(qapp):
    yield from shown_browser(DEMO_SITE, (1280, 720))


@pytest.mark.timeout(120)
def test_a_recording_says_its_moments_as_the_store_does(qtbot, browser, monkeypatch) -> None:
    short_waits(monkeypatch)
    recorder = Recorder(browser, actor="person:test")
    recorder.start(Task(id="t", instruction="Wait, then answer.", answer="x", start_url=HOME))
    recorder.wait()
    with qtbot.waitSignal(recorder.finished, timeout=20_000):
        recorder.answer("x")
    trajectory = recorder.trajectory
    moments = [trajectory.started_at, *(step.at for step in trajectory.steps)]
    assert len(moments) == 3 and all(STORE_FORM.fullmatch(at or "") for at in moments), moments
