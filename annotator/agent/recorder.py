"""Recording a person's trajectory on a snapshot site: every action on the page becomes a step of the grammar.

The page reports what the user does (resources/js/site_events.js): a click, a field typed into and committed
(Enter, change or leaving it), a burst of scrolling, Back. The recorder turns each report into a core `Step`
with the target's identities, the URL, the set-of-mark screenshot the user saw before the action and the one
after it, when the action came and the time since the step before it (the first step's: since the start page was
on show). The recording began at ● Record (its `started_at`), before its start page opened. Wait and ANSWER come
from the recording panel's buttons. What is typed into a password field is recorded masked, a bullet for each
character (core's actions.masked_password).

Not every report is a step: a click on text or empty space (no element an agent could click: it has no number)
and a scroll that moved nothing are said in `message` and left out, since no agent could take such a step and a
reference holding one fails its own replay. A step recorded by mistake can be deleted while recording.

A burst of scrolling (wheel turns, scrolling keys) that moved the window is recorded as the agent's Scroll steps
that move it about as far: an agent's Scroll moves two thirds of the view (som.js `scroll`, which replay and the agent
run carry out), and the page is brought to where that many of them take it from where the burst began, the number
of steps whose end lies nearest to where the person stopped (one at least; at the page's end or top, those that
reach it). Each step is carried out as replay carries it out and pictured before and after, as an agent's step is.
So a replay ends where the recording did, the page the person answered on is the one replay shows, and the
reference's step count is what an agent needs to scroll about as far, not how hard the wheel was spun: one Scroll
for any burst would have a replay stop a screen or more above where the person read the answer, though it said
every step was replayed. The page then rests at most half a step (a third of the view) from where the person let
go of the wheel; but a burst shorter than half a step is still one Scroll step, the least an agent can scroll (a
scroll the person made is a step), and that takes the page further than the wheel went, by up to two thirds of the
view: the panel's message says which, with how far the steps moved the page. Input to the page while the burst is
handled (a click on a link, a key, more wheel turns) is held back until its steps are all carried out, then let
through in order: let through at once, a click landed on the page mid-way through the steps (the person sees it
move) and, on a link, sent the page away, the steps after it carried out on the next page.

Reports are queued and handled one at a time outside the web channel's callback: handling one waits for the
page to settle and takes a screenshot, which runs the event loop, and another report must not start meanwhile.

The page reports a Type only when it is committed. Committed by a click on the form's button, the click may be
sending the page away already, too late for a picture of the filled field. So the recorder hears the key presses
typed into the browser itself (Qt's, not the page's) and, once the typing pauses for TYPED_PAUSE_MS, observes the
page with what was typed: that picture is the Type's "after" and the click's "before". A key that edits pressed
again drops it (the next pause takes another); a key that edits nothing (an arrow, Escape, a copy) neither drops it
nor starts a pause (`_edits_a_field`). A press that comes within the pause (no picture of the typing yet) is held back
from the page, with whatever input follows it, until the page is pictured with what was typed, and then let through
in order: the person's click lands a moment later, but the step it makes (and the Type it commits) is stored on a
picture that shows what it depends on, not on the one from before the typing. That is what a researcher reading
the trajectory needs (a model trained or judged on it sees the filled field it clicks after); a mark saying the
picture is stale would only say the step cannot be trusted. Only where no such picture can be had (a report still
being handled after HOLD_LIMIT_MS, the page changing while it was taken) is the "after" the picture before the
typing. A Type committed otherwise (Tab, Enter, a Wait) gets the page observed after it, as every step does.
"""

from __future__ import annotations

import hashlib
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any, NamedTuple

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence

from ...core.agent import (
    SCROLL_DIRECTIONS,
    Observation,
    Step,
    Target,
    Task,
    Trajectory,
    masked_password,
    shows_as_password,
)
from ...core.moments import now
from ...core.wording import counted
from ..qt.event_loop import spin
from ..qt.signals import emit
from ..qt.widgets import web_input_widget
from .qt_browser import QtSiteBrowser
from .site_browser import SiteBrowser, target_from_json
from .trajectory_replay import describe

WAIT_MS = 1000  # a recorded Wait gives the page this long, as replay does
TYPED_PAUSE_MS = 300  # typing paused this long: the page is observed with what was typed (see the module's text)
_COMMITTING_KEYS = (Qt.Key.Key_Tab, Qt.Key.Key_Backtab, Qt.Key.Key_Return, Qt.Key.Key_Enter)
# A press held back for the picture of the typing waits at most this long for a report being handled (a page loading)
# before it is let through without one: a person's click is never lost, nor held for long.
HOLD_LIMIT_MS = 5000
# Input to the page held back, with the press, while the typing is pictured: all of it reaches the page afterwards,
# in the order it came (a release before its press, or a key before the click, would be another action).
_HELD_INPUT = (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick,
               QEvent.Type.MouseMove, QEvent.Type.KeyPress, QEvent.Type.KeyRelease, QEvent.Type.Wheel)
_DELETING_KEYS = (Qt.Key.Key_Backspace, Qt.Key.Key_Delete)
# Shortcuts that change a field's text without typing a character (their key events carry a control character).
_EDITING_SHORTCUTS = (QKeySequence.StandardKey.Paste, QKeySequence.StandardKey.Cut, QKeySequence.StandardKey.Undo,
                      QKeySequence.StandardKey.Redo)
_FIELD_FOCUSED_JS = "(() => { const el = document.activeElement; return !!el && __recordlens.som.isTextField(el); })()"
# Where the agent's Scrolls of the window take the page from `start` towards `end`, one position a step, until one
# reaches `end` or moves nothing (the page's end or top): tried where the person does not see it (the page is put
# back before it is drawn again). The scroll is the agent's own (som.js), so its length is set in one place.
_AGENT_SCROLLS_JS = """JSON.stringify((() => {{
  const back = scrollY, reached = [], direction = {direction}, end = {end};
  scrollTo(scrollX, {start});
  while (reached.length < {most} && (direction === "down" ? scrollY < end : scrollY > end)
         && __recordlens.som.scroll(null, direction)) reached.push(scrollY);
  scrollTo(scrollX, back);
  return reached;
}})())"""
MOST_AGENT_SCROLLS = 500  # a burst is never taken as more of the agent's steps than this


class Recorder(QObject):
    """Records on `browser` while `recording`. Signals: `step_recorded(index)`, `recording_changed(on)`,
    `finished(trajectory)` (after ANSWER or stop), `message(text)`, `steps_changed()` (a step deleted or
    brought back)."""

    step_recorded = Signal(int)
    steps_changed = Signal()
    recording_changed = Signal(bool)
    finished = Signal(object)
    message = Signal(str)

    def __init__(self, browser: SiteBrowser, *, actor: str = "person", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.browser = browser
        self.actor = actor
        self.trajectory: Trajectory | None = None
        self.task: Task | None = None
        self.observation: Observation | None = None
        self._shot: str | None = None  # hash of the screenshot the user is looking at
        self._last_at = 0.0            # when the last step's action came (the recording's start at first)
        self._deleted: list[tuple[int, Step]] = []  # (index, step) of deleted steps, the last one last
        # Reports with the time each came in: handling one can take a second (a Wait, a page loading) while
        # the user goes on, and a step's time is the user's, not the time it waited in this queue.
        self._queue: deque[_Report] = deque()
        self._busy = False
        # The page as it showed what was typed, observed once the typing paused (None: no such picture now).
        self._typed: tuple[Observation, str | None] | None = None
        self._presses_heard = 0  # key and mouse presses so far: one during the typed picture makes it stale
        self._typed_timer = QTimer(self, singleShot=True, interval=TYPED_PAUSE_MS, timeout=self._observe_typed)
        # Input held back from the page (the widget it was for, a copy of the event) while the typing is pictured.
        self._held: list[tuple[QObject, QEvent]] | None = None
        self._held_since = 0.0
        self._agent = QtSiteBrowser(browser=browser)  # carries out a burst's Scroll steps as replay does
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
        # Begun at ● Record, before the start page opens: its first step's seconds count from that page on show
        self.trajectory = Trajectory(task_id=task.id if task else "", actor=self.actor, started_at=now())
        self.task = task
        self._queue.clear()
        self._deleted.clear()
        self._forget_typed()
        self._held = None  # input held in a recording before this one is not this one's first
        self.browser.set_recording(True)
        self.browser.open(url, fresh=True)
        self.browser.settle()
        self._observe()
        self._last_at = time.monotonic()
        emit(self.recording_changed, True)

    def stop(self) -> Trajectory | None:
        """Stop recording; the trajectory so far (a field still being typed into is committed first)."""
        if not self.recording:
            return self.trajectory
        self._commit_typing()
        self._drain()
        self._forget_typed()
        self.browser.set_recording(False)
        # A click held for a picture of the typing reaches the page now, not recorded: the recording has ended.
        self._let_held_through()
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

    def answer_mismatch(self, text: str) -> str | None:
        """Why `text` would be a wrong reference answer (it does not equal the task's gold answer after the
        task's normalisation), or None when it matches or there is no task to judge by."""
        if self.task is None or not text.strip() or self.task.accepts(text.strip()):
            return None
        rules = ", ".join(self.task.normalise) or "no normalisation"
        return (f"the answer “{text.strip()}” does not match the task's gold answer “{self.task.answer}” "
                f"(compared after: {rules})")

    def delete_step(self, index: int) -> bool:
        """Take step `index` out of the recording (only while recording: a finished one is saved already).
        Its time goes to the step after it, so the times still add up to the recording's length."""
        if not self.recording or self.trajectory is None or not 0 <= index < len(self.trajectory.steps):
            return False
        steps = self.trajectory.steps
        step = steps.pop(index)
        if index < len(steps):
            steps[index] = replace(steps[index], seconds=_added(steps[index].seconds, step.seconds))
        else:
            self._last_at -= step.seconds or 0.0  # the next step's time counts from the step before it again
        self._deleted.append((index, step))
        emit(self.steps_changed)
        emit(self.message, f"step {index + 1} ({describe(step)}) deleted; the page stays as it is")
        return True

    def undo_delete(self) -> bool:
        """Put back the step deleted last, where it was."""
        if not self.recording or self.trajectory is None or not self._deleted:
            return False
        index, step = self._deleted.pop()
        steps = self.trajectory.steps
        index = min(index, len(steps))
        if index < len(steps):
            steps[index] = replace(steps[index], seconds=_added(steps[index].seconds, -(step.seconds or 0.0)))
        else:
            self._last_at += step.seconds or 0.0
        steps.insert(index, step)
        emit(self.steps_changed)
        emit(self.message, f"step {index + 1} ({describe(step)}) is back")
        return True

    def _commit_typing(self) -> None:
        if self.recording:
            self.browser.commit_typing()
            spin(30)  # the report travels through the web channel; it must be queued before what follows

    # -- typing heard from the keyboard --------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        """Listens: a key that edits a field pressed in the browser (typing, a paste, a Backspace: `_edits_a_field`)
        drops the typed picture and restarts the pause before the next; a click or a committing key ends the pause
        (the picture taken stays for the Type they commit); other keys leave both as they are. Holds back only a
        press within the pause, and the input after it, until the typing is pictured (see the module's text)."""
        if self._held is not None and event.type() in _HELD_INPUT:
            self._held.append((watched, event.clone()))
            return True
        if self.recording and event.type() == QEvent.Type.MouseButtonPress and self._typed_timer.isActive():
            self._hold(watched, event)
            return True
        if self.recording and event.type() in (QEvent.Type.KeyPress, QEvent.Type.MouseButtonPress):
            self._presses_heard += 1
            if not isinstance(event, QKeyEvent) or event.key() in _COMMITTING_KEYS:
                self._typed_timer.stop()
            elif _edits_a_field(event):
                self._forget_typed()
                self._typed_timer.start()
        return False

    def _listen_to_keys(self) -> None:
        """Hear the keys typed into the page: they reach the view's focus proxy, which a new page may replace
        (installing the filter again on the same widget keeps one)."""
        view = self.browser.view
        proxy = web_input_widget(view)
        if proxy is not None:
            proxy.installEventFilter(self)

    def _forget_typed(self) -> None:
        self._typed_timer.stop()
        self._typed = None

    def _observe_typed(self) -> None:
        """The typing paused: picture it (`_picture_typing`). While a report waits or is handled (the page may be
        changing) the pause starts again, so that typing done meanwhile is pictured once the report is handled."""
        if not self.recording or self.trajectory is None:
            return
        if self._busy or self._queue:
            self._typed_timer.start()
            return
        self._picture_typing()
        self._drain()

    def _hold(self, watched: QObject, press: QEvent) -> None:
        """Hold `press` (and the input after it) back from the page until the typing before it is pictured."""
        self._typed_timer.stop()
        held = self._held = [(watched, press.clone())]
        self._held_since = time.monotonic()
        # Not inside the event's delivery: picturing runs the loop.
        QTimer.singleShot(0, self, lambda: self._picture_held_typing(held))

    def _picture_held_typing(self, held: list[tuple[QObject, QEvent]]) -> None:
        """Picture the typing a held press follows, once no report is being handled; then let the input through.
        Nothing once `held` is no longer what is held (let through by `stop`, or dropped by `start`)."""
        if self._held is not held:
            return
        waited_ms = (time.monotonic() - self._held_since) * 1000
        if self._busy and self.recording and waited_ms < HOLD_LIMIT_MS:
            # A report is being handled: the page may be changing
            QTimer.singleShot(20, self, lambda: self._picture_held_typing(held))
            return
        try:
            if self.recording and not self._busy:
                self._drain()  # reports of what came before the press: the typing is pictured after them
                self._picture_typing()
        finally:
            self._let_held_through()

    def _let_held_through(self) -> None:
        """The held input reaches the page, in the order it came (to the widget each was for, where it still is)."""
        held, self._held = self._held or [], None
        # Each copy passes this filter again on its way (sendEvent runs the widget's filters), now with nothing
        # held: so each press is counted once, here, as none was counted while held. A copied key that edits starts
        # the pause again: a copied press after it is then held anew, and the rest of this batch goes in behind it,
        # in order.
        for watched, event in held:
            if shiboken6.isValid(watched):
                QCoreApplication.sendEvent(watched, event)
        QTimer.singleShot(0, self._drain)

    def _picture_typing(self) -> None:
        """The page with what was typed, kept for a Type the form's button commits. Not when no text field has the
        focus (keys that scroll), nor when the page changed while it was observed."""
        if not self.recording or self.trajectory is None:
            return
        self._busy = True  # observing runs the event loop: reports coming meanwhile wait for it
        try:
            navigations, presses = self.browser.navigations, self._presses_heard
            if self.browser.run_js(_FIELD_FOCUSED_JS) is True:
                observation = self.browser.observe()
                # A report, a page load, a key or a click meanwhile: the picture may be of the page changing.
                if not self._queue and (navigations, presses) == (self.browser.navigations, self._presses_heard) \
                        and not self.browser.loading:
                    self._typed = _seen(observation)
        finally:
            self._busy = False

    def _look_at(self, seen: tuple[Observation, str | None]) -> None:
        """`seen` (an observation and its screenshot's hash) is the page the user is looking at now."""
        assert self.trajectory is not None
        self.observation, self._shot = seen
        if self._shot and self.observation.screenshot:
            self.trajectory.screenshots.setdefault(self._shot, self.observation.screenshot)

    # -- reports from the page --------------------------------------------------------------------------------

    def _on_page_event(self, data: dict[str, Any]) -> None:
        if self.recording and data.get("kind") in ("click", "type", "scroll", "back"):
            self._enqueue(data)

    def _enqueue(self, data: dict[str, Any]) -> None:
        if not self.recording or self.trajectory is None:
            return
        self._queue.append(_Report(time.monotonic(), now(), data))
        # Not from inside the web channel's callback: handling runs the event loop.
        QTimer.singleShot(0, self._drain)

    def _drain(self) -> None:
        if self._busy:
            return
        self._busy = True
        try:
            while self._queue and self.recording:
                self._handle(*self._queue.popleft())
        finally:
            self._busy = False

    def _handle(self, came_at: float, came_moment: str, data: dict[str, Any]) -> None:
        kind = data.get("kind")
        assert self.observation is not None and self.trajectory is not None
        step = Step(action="", url=self.observation.url, screenshot_before=self._shot,
                    seconds=round(max(came_at - self._last_at, 0.0), 3), at=came_moment)
        typed, self._typed = self._typed, None  # a picture of typing is for this report only
        self._typed_timer.stop()
        if kind == "click" and not data.get("target"):
            emit(self.message, f"not recorded: {_missed(data)}")
            return
        if kind == "click":
            step = replace(step, action="click", target=self._target(data))
        elif kind == "type":
            # Enter pressed, or the field left (Tab, a click elsewhere, a Wait, an answer, Stop): replay presses
            # Enter only where the person did, so that it submits no form the person did not
            step = _kept_typing(replace(step, action="type", target=self._target(data),
                                        value=str(data.get("value") or ""), submit=data.get("submit") is True), data)
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
            self._append(step, came_at)
            self.trajectory.answer = step.value
            # A reference whose answer is not the gold one is kept (the person chose to), marked as not matching.
            self.trajectory.success = self.task.accepts(step.value) if self.task is not None else None
            self.trajectory.stop = "answer"
            self._queue.clear()
            self.stop()
            return
        else:
            return
        if kind == "type" and self._click_follows():
            # Typing committed by the click on the form's button (leaving the field): the page may be loading the
            # result already. The click is a step on the page as it was, with its number and screenshot there:
            # the page observed when the typing paused or the click was held for it (`_hold`), else (no text field
            # had the focus, or the page changed meanwhile) the one before the typing.
            self._look_at(typed or (self.observation, self._shot))
            self._append(replace(step, screenshot_after=self._shot), came_at)
            return
        if kind == "scroll":
            self._holding_input(lambda: self._record_scroll(step, came_at))
            return
        before, before_shot = self.observation, self._shot
        self.browser.settle()
        self._observe()  # also numbers the page again where a scroll hid the numbers, moved or not
        if kind == "type" and self._click_follows():
            # The click came while the Type was handled: what was observed may be the click's next page.
            self._look_at(typed or (before, before_shot))
            self._append(replace(step, screenshot_after=self._shot), came_at)
            return
        self._append(replace(step, screenshot_after=self._shot), came_at)

    def _holding_input(self, handle: Callable[[], None]) -> None:
        """`handle()` with the input to the page held back meanwhile, then let through in order (the module's
        notes: a burst's steps). Input held already, for a picture of the typing (`_hold`), stays so: what holds it
        lets it through."""
        if self._held is not None:
            handle()
            return
        held = self._held = []
        try:
            handle()
        finally:
            if self._held is held:  # not let through by `stop` meanwhile
                self._let_held_through()

    def _record_scroll(self, step: Step, came_at: float) -> None:
        """Record a burst of scrolling: as the agent's Scroll steps that move the page about as far, else (the page
        changed in place) as reported; not when it moved nothing."""
        assert self.observation is not None
        before = self.observation
        self.browser.settle()
        self._observe()  # also numbers the page again where a scroll hid the numbers, moved or not
        # As the agent loop judges it: a scroll that loaded more of the page in place moved it.
        if self.observation.moved_since(before) is False:
            emit(self.message, f"not recorded: the scroll {step.value} moved nothing (the page is at its "
                               f"{'end' if step.value == 'down' else 'top'} or does not scroll)")
            return
        if not self._as_agent_scrolls(step, before, came_at):
            self._append(replace(step, screenshot_after=self._shot), came_at)

    def _as_agent_scrolls(self, step: Step, before: Observation, came_at: float) -> bool:
        """Record the burst of scrolling `step` reports, which moved the window from where `before` saw it to where
        it is now, as the agent's Scroll steps that move it about as far (module notes): carried out one by one from
        where the burst began, each pictured. False when the window did not move up or down (the page changed in
        place): the burst is then one step, as reported."""
        assert self.observation is not None and self.trajectory is not None
        ended, ended_shot = self.observation, self._shot
        reached = self._agent_scrolls(before, ended)
        if reached is None:
            return False
        count = len(reached)
        start, end = before.scroll[1], ended.scroll[1]  # type: ignore[index]
        direction = "down" if end > start else "up"
        self.browser.run_js(f"scrollTo(scrollX, {start})")
        for index in range(count):
            shown_before = self._shot if index else step.screenshot_before
            self._agent.perform(Step("scroll", None, direction))
            self._observe()
            # The burst's time is its first step's: the steps after it took the person none
            self._append(replace(step, value=direction, screenshot_before=shown_before, screenshot_after=self._shot,
                                 seconds=step.seconds if index == 0 else 0.0), came_at)
        self._forget_unshown(ended_shot)
        last = len(self.trajectory.steps)
        steps = f"step {last}" if count == 1 else f"steps {last - count + 1}-{last}"
        # Said after the steps' own lines (the panel's "step N recorded"), which it stands for
        emit(self.message, f"recording: {steps} ({describe(self.trajectory.steps[-1])}"
                           f"{f' ×{count}' if count > 1 else ''}) recorded: {_as_steps_said(start, end, reached)}")
        return True

    def _agent_scrolls(self, before: Observation, ended: Observation) -> list[float] | None:
        """Where the agent's Scroll steps that move the window from where `before` saw it nearest to where `ended`
        sees it (one at least) take it, one position a step; None when it did not move up or down on one page."""
        if before.scroll is None or ended.scroll is None or before.url != ended.url:
            return None
        start, end = before.scroll[1], ended.scroll[1]
        if start == end:
            return None
        reached = self.browser.js_json(_AGENT_SCROLLS_JS.format(
            start=start, end=end, direction='"down"' if end > start else '"up"', most=MOST_AGENT_SCROLLS))
        if not isinstance(reached, list) or not reached:
            return None
        # The nearest; of two as near, the further one (the person's stop lies within the view it shows)
        nearest = min(range(len(reached)), key=lambda i: (abs(float(reached[i]) - end), -i))
        return [float(position) for position in reached[:nearest + 1]]

    def _forget_unshown(self, shot: str | None) -> None:
        """Drop the screenshot `shot` from the recording when no step shows it (the page where the person let go
        of the wheel, which the agent's steps moved on from)."""
        assert self.trajectory is not None
        steps = [*self.trajectory.steps, *(deleted for _, deleted in self._deleted)]  # a deleted one may come back
        shown = {s.screenshot_before for s in steps} | {s.screenshot_after for s in steps} | {self._shot}
        if shot not in shown:
            self.trajectory.screenshots.pop(shot or "", None)

    def _click_follows(self) -> bool:
        """Whether the next report waiting is a click on an element (one that may be navigating away)."""
        waiting = self._queue[0].data if self._queue else {}
        return waiting.get("kind") == "click" and bool(waiting.get("target"))

    def _append(self, step: Step, came_at: float) -> None:
        assert self.trajectory is not None
        self.trajectory.steps.append(step)
        self._last_at = came_at
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
        self._listen_to_keys()
        self._look_at(_seen(self.browser.observe()))


class _Report(NamedTuple):
    """A report from the page (or a panel button) with when it came: on the monotonic clock, for its step's
    `seconds`, and as its step's `at` says it."""

    came_at: float
    came_moment: str
    data: dict[str, Any]


def _edits_a_field(key: QKeyEvent) -> bool:
    """Whether `key` would change the text of a field that has the focus: a printable character typed (not with
    Ctrl or Meta as a shortcut; with Alt too it is AltGr's on Windows), Backspace or Delete, or a paste, cut, undo
    or redo. Keys that scroll or move the caret, Escape, Ctrl+C and lone modifiers edit nothing."""
    if key.key() in _DELETING_KEYS or any(key.matches(shortcut) for shortcut in _EDITING_SHORTCUTS):
        return True
    modifiers = key.modifiers()
    shortcut = bool(modifiers & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.MetaModifier)) \
        and not modifiers & Qt.KeyboardModifier.AltModifier
    return bool(key.text()) and key.text().isprintable() and not shortcut


def _seen(observation: Observation) -> tuple[Observation, str | None]:
    """An observation with its screenshot's hash (None: it has none), as the recorder keeps the page looked at."""
    shot = observation.screenshot
    return observation, hashlib.sha256(shot).hexdigest() if shot else None


def _kept_typing(step: Step, data: dict[str, Any]) -> Step:
    """The Type step as it is recorded: typed into a password field, its password masked (core's `masked_password`).
    The report tells: the field's text, taken as the value was, shows the value's bullets. Asked of the report, not
    of the page, which a submitted form may have replaced by the time the report is handled."""
    shown = target_from_json(data.get("target") or {}).text
    return masked_password(step) if shows_as_password(shown, step.value or "") else step


def _as_steps_said(start: float, end: float, reached: list[float]) -> str:
    """What the panel says of a burst of scrolling from `start` to `end` recorded as the agent's Scroll steps that
    take the page to each of `reached`: the steps that move it about as far, or, for a burst shorter than half a
    step, the one step that is the least an agent can scroll, which moves the page further than the wheel went."""
    went, moved = abs(end - start), abs(reached[-1] - start)
    if abs(reached[-1] - end) > went:  # nearer where the burst began than one step is: fewer than one step
        return (f"the scroll of {went:.0f} px as one Scroll step, the least an agent can scroll: it moves the page "
                f"{moved:.0f} px, further than the wheel went (an agent's Scroll moves two thirds of the view, where "
                "the page goes on so far); the page is where it takes it")
    return (f"the scroll of {went:.0f} px as the {counted(len(reached), 'Scroll step')} an agent takes to move about "
            f"as far: {moved:.0f} px (an agent's Scroll moves two thirds of the view, where the page goes on so far); "
            f"the page is where {'it takes' if len(reached) == 1 else 'they take'} it")


def _added(seconds: float | None, more: float | None) -> float | None:
    return None if seconds is None else round(max(seconds + (more or 0.0), 0.0), 3)


def _missed(data: dict[str, Any]) -> str:
    """Why a click is no step, with the clicked thing as a person would name it: the page's empty space, its text,
    else where it is. On an element holding the whole page (body, a full-page wrapper) the element's text is the
    page's, not what was clicked: the page tells its own words under the pointer (`words`) or that there were none
    (`space`; see site_events.js)."""
    missed = data.get("missed") or {}
    xpath = str(missed.get("xpath") or "")
    words = str(data.get("words") or "")
    if data.get("space") is True:  # the page says it of body, html and a full-page wrapper alike
        return "the click was on the page's empty space, where there is no element an agent can click"
    text = " ".join((words or str(missed.get("text") or "")).split())
    if text:
        return f"the click on “{text[:60]}{'…' if len(text) > 60 else ''}” is no element an agent can click"
    return f"the click on {xpath or 'the page'} is no element an agent can click"
