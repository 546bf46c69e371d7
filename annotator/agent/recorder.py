"""Recording a person's trajectory on a snapshot site: every action on the page becomes a step of the grammar.

The page reports what the user does (resources/js/site_events.js): a click, a field typed into and committed
(Enter, change or leaving it), a burst of scrolling, Back. The recorder turns each report into a core `Step`
with the target's identities, the URL, the set-of-mark screenshot the user saw before the action and the one
after it, and the time the user took. Wait and ANSWER come from the recording panel's buttons.

Reports are queued and handled one at a time outside the web channel's callback: handling one waits for the
page to settle and takes a screenshot, which runs the event loop, and another report must not start meanwhile.
"""

from __future__ import annotations

import hashlib
import time
from collections import deque
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from ...core.agent import SCROLL_DIRECTIONS, Observation, Step, Target, Task, Trajectory
from ..qt.event_loop import spin
from ..qt.signals import emit
from .site_browser import SiteBrowser, target_from_json

WAIT_MS = 1000  # a recorded Wait gives the page this long, as replay does


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Recorder(QObject):
    """Records on `browser` while `recording`. Signals: `step_recorded(index)`, `recording_changed(on)`,
    `finished(trajectory)` (after ANSWER or stop), `message(text)`."""

    step_recorded = Signal(int)
    recording_changed = Signal(bool)
    finished = Signal(object)
    message = Signal(str)

    def __init__(self, browser: SiteBrowser, *, actor: str = "person", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.browser = browser
        self.actor = actor
        self.trajectory: Trajectory | None = None
        self.observation: Observation | None = None
        self._shot: str | None = None  # hash of the screenshot the user is looking at
        self._seen_at = 0.0            # when that observation was ready
        self._queue: deque[dict[str, Any]] = deque()
        self._busy = False
        browser.page_event.connect(self._on_page_event)

    @property
    def recording(self) -> bool:
        return self.browser.recording

    @property
    def steps(self) -> list[Step]:
        return list(self.trajectory.steps) if self.trajectory else []

    # -- controls ---------------------------------------------------------------------------------------------

    def start(self, task: Task | None = None, start_url: str | None = None) -> None:
        """Open the task's start page (or `start_url`, or the site's first page) and record from there."""
        url = start_url or (task.start_url if task else "") or self.browser.start_page()
        if not url:
            raise ValueError("nothing to record on: no start URL and no site page")
        self.trajectory = Trajectory(task_id=task.id if task else "", actor=self.actor)
        self._queue.clear()
        self.browser.set_recording(True)
        self.browser.open(url, fresh=True)
        self.browser.settle()
        self._observe()
        emit(self.recording_changed, True)

    def stop(self) -> Trajectory | None:
        """Stop recording; the trajectory so far (a field still being typed into is committed first)."""
        if not self.recording:
            return self.trajectory
        self._commit_typing()
        self._drain()
        self.browser.set_recording(False)
        self.browser.clear_marks()
        emit(self.recording_changed, False)
        emit(self.finished, self.trajectory)
        return self.trajectory

    def wait(self) -> None:
        """Record `Wait`."""
        self._commit_typing()
        self._enqueue({"kind": "wait"})

    def answer(self, text: str) -> None:
        """Record `ANSWER; text` and stop: the answer ends the episode."""
        if not text.strip():
            emit(self.message, "an answer needs some text")
            return
        self._commit_typing()
        self._enqueue({"kind": "answer", "value": text.strip()})

    def _commit_typing(self) -> None:
        if self.recording:
            self.browser.commit_typing()
            spin(30)  # the report travels through the web channel; it must be queued before what follows

    # -- reports from the page --------------------------------------------------------------------------------

    def _on_page_event(self, data: dict[str, Any]) -> None:
        if self.recording and data.get("kind") in ("click", "type", "scroll", "back"):
            self._enqueue(data)

    def _enqueue(self, data: dict[str, Any]) -> None:
        if not self.recording or self.trajectory is None:
            return
        self._queue.append(data)
        # Not from inside the web channel's callback: handling runs the event loop.
        QTimer.singleShot(0, self._drain)

    def _drain(self) -> None:
        if self._busy:
            return
        self._busy = True
        try:
            while self._queue and self.recording:
                self._handle(self._queue.popleft())
        finally:
            self._busy = False

    def _handle(self, data: dict[str, Any]) -> None:
        kind = data.get("kind")
        assert self.observation is not None and self.trajectory is not None
        step = Step(action="", url=self.observation.url, screenshot_before=self._shot,
                    seconds=round(time.monotonic() - self._seen_at, 3), at=now_iso())
        if kind == "click":
            step = replace(step, action="click", target=self._target(data))
        elif kind == "type":
            step = replace(step, action="type", target=self._target(data), value=str(data.get("value") or ""))
        elif kind == "scroll":
            direction = data.get("direction")
            step = replace(step, action="scroll", value=direction if direction in SCROLL_DIRECTIONS else "down")
        elif kind == "back":
            step = replace(step, action="go_back")
            self.browser.back()
        elif kind == "wait":
            step = replace(step, action="wait")
            spin(WAIT_MS)
        elif kind == "answer":
            step = replace(step, action="answer", value=str(data["value"]), screenshot_after=self._shot)
            self._append(step)
            self.trajectory.answer = step.value
            self.trajectory.stop = "answer"
            self._queue.clear()
            self.stop()
            return
        else:
            return
        self.browser.settle()
        self._observe()
        self._append(replace(step, screenshot_after=self._shot))

    def _append(self, step: Step) -> None:
        assert self.trajectory is not None
        self.trajectory.steps.append(step)
        emit(self.step_recorded, len(self.trajectory.steps) - 1)

    def _target(self, data: dict[str, Any]) -> Target:
        """The element as the screenshot showed it (its number and box there), else as the page reported it.

        The page's number can be stale (a scroll hides the marks before the new ones are taken), so the element
        is matched to the observation by XPath."""
        live = target_from_json(data.get("target") or {})
        shown = next((e for e in self.observation.elements if live.xpath and e.xpath == live.xpath), None) \
            if self.observation else None
        return shown if shown is not None else replace(live, label=None)

    def _observe(self) -> None:
        assert self.trajectory is not None
        self.observation = self.browser.observe()
        shot = self.observation.screenshot
        self._shot = None
        if shot:
            self._shot = hashlib.sha256(shot).hexdigest()
            self.trajectory.screenshots.setdefault(self._shot, shot)
        self._seen_at = time.monotonic()
