"""A Type committed by a click on the form's button (the usual login: a password typed, then Sign in) was stored
with its "after" taken before the typing: the password field empty in both its pictures and in the click's
"before". The recorder now observes the page once the typing pauses, and that picture, showing the password's
bullets, is the Type's "after" and the Sign-in click's "before". A Type committed by Tab still gets the page after
it. A click within the pause is held until that picture is taken
(tests/app/test_recorder_click_right_after_typing.py)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.agent.recorder import TYPED_PAUSE_MS, Recorder
from recordlens.annotator.qt.event_loop import spin
from recordlens.core.agent.actions import format_action
from recordlens.core.agent.model import Task
from tests.app.agent_helpers import BANK_LOGIN, click, element, field_pixels, make_login_site, shown_browser, type_text

pytestmark = pytest.mark.app

LOGIN = BANK_LOGIN




@pytest.fixture
def browser(qapp, tmp_path):
    make_login_site(tmp_path / "site", username=True)
    yield from shown_browser(tmp_path / "site", (900, 600))




@pytest.mark.timeout(180)
def test_a_password_committed_by_sign_in_has_an_after_with_its_bullets(qtbot, browser) -> None:
    recorder = Recorder(browser, actor="person:test")
    recorder.start(Task(id="login", instruction="Sign in", answer="x", start_url=LOGIN))
    user, password, sign_in = (element(recorder.observation, name) for name in ("Username", "Password", "Sign in"))
    type_text(browser, user, "alice", enter=False)
    QTest.keyClick(browser.view.focusProxy(), Qt.Key.Key_Tab)  # commits alice; the focus goes to Password
    qtbot.waitUntil(lambda: len(recorder.steps) >= 1, timeout=10_000)
    QTest.keyClicks(browser.view.focusProxy(), "Hunter2xQ9")
    spin(TYPED_PAUSE_MS + 1500)  # a person pausing before the button
    click(browser, sign_in)
    qtbot.waitUntil(lambda: len(recorder.steps) >= 3, timeout=10_000)
    recorder.stop()

    by_tab, typed, clicked = recorder.steps
    shots = recorder.trajectory.screenshots
    assert format_action(typed) == f"Type [{password.label}]; ••••••••••" and typed.submit is False
    assert format_action(clicked) == f"Click [{sign_in.label}]"
    # Committed by Tab: the page after it shows alice, as before the fix.
    assert by_tab.screenshot_after != by_tab.screenshot_before
    assert field_pixels(shots[by_tab.screenshot_after], user) != field_pixels(shots[by_tab.screenshot_before], user)
    # Committed by the click: the "after" is a picture of its own, the password field filled in it ...
    assert typed.screenshot_after and typed.screenshot_after != typed.screenshot_before
    assert field_pixels(shots[typed.screenshot_after], password) \
        != field_pixels(shots[typed.screenshot_before], password)
    # ... and the click was made on that page.
    assert clicked.screenshot_before == typed.screenshot_after
    assert clicked.url == LOGIN and clicked.target.xpath == sign_in.xpath
