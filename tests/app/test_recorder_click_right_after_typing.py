"""A click on the form's button within 0.3 s of the last key (TYPED_PAUSE_MS: no pause to picture the page with
what was typed) stored the screenshot from before the typing, unmarked, as the Type's "after" and the click's
"before": the password field empty in the picture of the very step that signs in with it. The recorder now holds
such a press until the page is pictured with what was typed, then lets it through: both are that picture, as
after a pause (tests/app/test_recorder_typed_picture_before_sign_in.py)."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from recordlens.annotator.agent.recorder import Recorder
from recordlens.core.agent.actions import format_action
from recordlens.core.agent.model import Task
from tests.app.agent_helpers import (
    BANK_ACCOUNT,
    BANK_LOGIN,
    click,
    element,
    field_pixels,
    make_login_site,
    shown_browser,
)

pytestmark = pytest.mark.app

LOGIN = BANK_LOGIN
ACCOUNT = BANK_ACCOUNT




@pytest.fixture
def browser(qapp, tmp_path):
    make_login_site(tmp_path / "site")
    yield from shown_browser(tmp_path / "site", (900, 600))




@pytest.mark.timeout(180)
def test_a_click_right_after_the_last_key_is_stored_on_the_page_showing_what_was_typed(qtbot, browser) -> None:
    recorder = Recorder(browser, actor="person:test")
    recorder.start(Task(id="login", instruction="Sign in", answer="x", start_url=LOGIN))
    password, sign_in = (element(recorder.observation, name) for name in ("Password", "Sign in"))
    click(browser, password)  # only focuses it: no step
    QTest.keyClicks(browser.view.focusProxy(), "Hunter2xQ9")
    click(browser, sign_in)  # at once: well within the pause that would picture the typing
    qtbot.waitUntil(lambda: len(recorder.steps) >= 2, timeout=10_000)
    qtbot.waitUntil(lambda: browser.url.startswith(ACCOUNT), timeout=10_000)  # the click still signs in
    recorder.stop()

    typed, clicked = recorder.steps
    shots = recorder.trajectory.screenshots
    assert format_action(typed) == f"Type [{password.label}]; ••••••••••" and typed.submit is False
    assert format_action(clicked) == f"Click [{sign_in.label}]"
    assert clicked.url == LOGIN and clicked.target.xpath == sign_in.xpath
    # The Type's "after" is a picture of its own, the password's bullets in the field ...
    assert typed.screenshot_after and typed.screenshot_after != typed.screenshot_before
    assert field_pixels(shots[typed.screenshot_after], password) \
        != field_pixels(shots[typed.screenshot_before], password)
    # ... and the click was made on that page; its "after" is the account page.
    assert clicked.screenshot_before == typed.screenshot_after
    assert clicked.screenshot_after and clicked.screenshot_after != clicked.screenshot_before
