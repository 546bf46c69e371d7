"""`agent run --browser qt` on a login form of two fields: the model fills each field with the grammar's Type
without Enter (`Type [1]; ada (no Enter)`), clicks Log in and answers. The Qt browser types the text alone (not the
words "(no Enter)") and presses no Enter, so the form is sent once, by the button, with both fields filled: the
account page is saved only at that URL. Before, the first Type typed "ada (no Enter)" and pressed Enter, sending
the form with the password empty ("Not in this snapshot")."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.cli import main
from recordlens.core.agent.actions import password_bullets
from tests.login_form_site import (
    ACCOUNT,
    ACCOUNT_NUMBER,
    LOGIN,
    PASSWORD,
    USER,
    login_episode,
)

pytestmark = pytest.mark.app


def test_an_agent_logs_in_with_the_qt_browser_typing_without_enter(
        qapp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    episode = login_episode(main, tmp_path, capsys, "qt")
    assert [s.error for s in episode.steps] == [None] * 4
    user, password, click, answered = episode.steps
    assert [user.url, password.url, click.url] == [LOGIN] * 3  # neither Type sent the form
    assert (user.value, user.submit, password.value, password.submit) == (USER, False, password_bullets(PASSWORD),
                                                                          False)
    assert answered.url == ACCOUNT and episode.answer == ACCOUNT_NUMBER and episode.success
