"""The recorder holds a click back from the page while the typing before it is pictured
(tests/app/test_recorder_click_right_after_typing.py). Reviewer's report 34, item 5:

- the pause (and so the hold) started on any key but a modifier: a click right after an arrow key, PageDown,
  Escape or Ctrl+C was held, and the picture it waited for dropped and taken again. Now only a key that edits a
  field starts it (a printable character that is no Ctrl/Meta shortcut, Backspace, Delete, a paste, cut, undo or
  redo); other keys leave the pause and the picture taken as they are;
- a recording stopped during a hold left the click held until the picture's turn came: `stop` now lets it reach
  the page at once;
- `start` kept input held in the recording before it, which then swallowed the new recording's first clicks.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtTest import QTest

from recordlens.annotator.agent import recorder as recorder_module
from recordlens.annotator.agent.recorder import Recorder
from recordlens.annotator.agent.site_browser import SiteBrowser
from recordlens.core.agent.actions import format_action
from recordlens.core.agent.model import Task
from tests.app.agent_helpers import BANK_ACCOUNT, BANK_LOGIN, click, element, make_login_site, shown_browser

pytestmark = pytest.mark.app

LOGIN = BANK_LOGIN
ACCOUNT = BANK_ACCOUNT
TASK = Task(id="login", instruction="Sign in", answer="x", start_url=LOGIN)




@pytest.fixture
def browser(qapp, tmp_path):
    make_login_site(tmp_path / "site")
    yield from shown_browser(tmp_path / "site", (900, 600))


def _key(key: Qt.Key, text: str = "", modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
         ) -> QKeyEvent:
    return QKeyEvent(QEvent.Type.KeyPress, key, modifiers, text)


CTRL, ALT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.AltModifier


@pytest.mark.parametrize(("event", "edits"), [
    (_key(Qt.Key.Key_A, "a"), True),
    (_key(Qt.Key.Key_Space, " "), True),
    (_key(Qt.Key.Key_Backspace, "\b"), True),
    (_key(Qt.Key.Key_Delete, "\x7f"), True),
    (_key(Qt.Key.Key_V, "\x16", CTRL), True),            # a paste
    (_key(Qt.Key.Key_At, "@", CTRL | ALT), True),         # AltGr as Windows sends it
    (_key(Qt.Key.Key_Right), False),
    (_key(Qt.Key.Key_PageDown), False),
    (_key(Qt.Key.Key_Escape, "\x1b"), False),
    (_key(Qt.Key.Key_C, "\x03", CTRL), False),           # a copy
    (_key(Qt.Key.Key_C, "c", CTRL), False),              # a copy as QTest sends it
    (_key(Qt.Key.Key_Shift), False),
])
def test_only_a_key_that_edits_a_field_counts_as_typing(qapp, event: QKeyEvent, edits: bool) -> None:
    assert recorder_module._edits_a_field(event) is edits


def _counted(recorder: Recorder, name: str, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Calls to the recorder's method `name` from now on (each still made)."""
    calls: list[object] = []
    method: Callable[..., object] = getattr(recorder, name)

    def counting(*args: object) -> object:
        calls.append(args)
        return method(*args)

    monkeypatch.setattr(recorder, name, counting)
    return calls


def _held_forever(recorder: Recorder, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Holds that never end by themselves (their picture never taken): the calls that would have taken it."""
    asked: list[object] = []
    monkeypatch.setattr(recorder, "_picture_held_typing", lambda *args: asked.append(args))
    return asked


class _Presses(QObject):
    """Counts the mouse presses that pass a widget's filters to reach it (one the recorder holds stops there)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.MouseButtonPress:
            self.count += 1
        return False


@pytest.mark.timeout(180)
def test_a_click_right_after_an_arrow_key_is_not_held(qtbot, browser: SiteBrowser, monkeypatch) -> None:
    recorder = Recorder(browser, actor="person:test")
    recorder.start(TASK)
    password, sign_in = (element(recorder.observation, name) for name in ("Password", "Sign in"))
    click(browser, password)
    pictures = _counted(recorder, "_picture_typing", monkeypatch)
    QTest.keyClicks(browser.view.focusProxy(), "Hunter2xQ9")
    qtbot.waitUntil(lambda: len(pictures) == 1, timeout=10_000)  # the typing paused: pictured
    QTest.keyClick(browser.view.focusProxy(), Qt.Key.Key_End)  # moves the caret: edits nothing
    click(browser, sign_in)  # at once: within what was a pause begun by the arrow key
    qtbot.waitUntil(lambda: len(recorder.steps) >= 2, timeout=10_000)
    qtbot.waitUntil(lambda: browser.url.startswith(ACCOUNT), timeout=10_000)
    recorder.stop()

    assert len(pictures) == 1  # no picture taken for the click: it was not held
    typed, clicked = recorder.steps
    assert format_action(typed) == f"Type [{password.label}]; ••••••••••"
    assert format_action(clicked) == f"Click [{sign_in.label}]"
    # The picture of the pause (not dropped by the key) is the Type's "after" and the click's "before".
    assert typed.screenshot_after and typed.screenshot_after != typed.screenshot_before
    assert clicked.screenshot_before == typed.screenshot_after


@pytest.mark.timeout(180)
def test_a_recording_stopped_during_a_hold_lets_the_click_through_at_once(qtbot, browser: SiteBrowser,
                                                                          monkeypatch) -> None:
    recorder = Recorder(browser, actor="person:test")
    recorder.start(TASK)
    password, sign_in = (element(recorder.observation, name) for name in ("Password", "Sign in"))
    click(browser, password)
    presses = _Presses()
    browser.view.focusProxy().installEventFilter(presses)
    asked = _held_forever(recorder, monkeypatch)
    QTest.keyClicks(browser.view.focusProxy(), "Hunter2xQ9")
    click(browser, sign_in)  # within the pause: held
    qtbot.waitUntil(lambda: bool(asked), timeout=10_000)
    reached = presses.count
    recorder.stop()
    assert presses.count == reached + 1  # sent on by stop itself, not left for the picture's turn
    qtbot.waitUntil(lambda: browser.url.startswith(ACCOUNT), timeout=10_000)  # the click signed in
    assert [step.action for step in recorder.steps] == ["type"]  # after the recording: no step


@pytest.mark.timeout(180)
def test_input_held_in_a_recording_is_not_the_next_recordings(qtbot, browser: SiteBrowser, monkeypatch) -> None:
    recorder = Recorder(browser, actor="person:test")
    recorder.start(TASK)
    password, sign_in = (element(recorder.observation, name) for name in ("Password", "Sign in"))
    click(browser, password)
    asked = _held_forever(recorder, monkeypatch)
    QTest.keyClick(browser.view.focusProxy(), Qt.Key.Key_Backspace)  # an edit (of nothing: no Type to commit)
    click(browser, sign_in)  # held, and its hold never ends
    qtbot.waitUntil(lambda: bool(asked), timeout=10_000)
    recorder.start(TASK)  # recorded again from the start, the held click gone with the recording it was in
    click(browser, sign_in)
    qtbot.waitUntil(lambda: len(recorder.steps) >= 1, timeout=10_000)
    qtbot.waitUntil(lambda: browser.url.startswith(ACCOUNT), timeout=10_000)
    recorder.stop()
    assert [format_action(step) for step in recorder.steps] == [f"Click [{sign_in.label}]"]
