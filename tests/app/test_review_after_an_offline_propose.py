"""F6 with nothing to review, right after an offline Propose: it said "a run (Propose, or …)", but only a Propose
with Gemini is stored as a run, so a user who had just pressed P pressed it again and again. (Needs
/tmp/fix/onboarding-review_controller.py.patch in annotator/labelling/review_controller.py.)"""

from __future__ import annotations

import pytest

from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app


def test_f6_after_an_offline_propose_does_not_send_the_user_to_propose_again(qtbot, window) -> None:
    key(window, "P")
    qtbot.waitUntil(lambda: window.job is None and said(window).startswith("done"), timeout=30_000)
    assert window.project.runs.all() == []  # the offline Propose stored no run
    key(window, "F6")
    words = said(window)
    assert words.startswith("nothing to review yet")
    assert "only Propose with Gemini stores one" in words and "an offline Propose" in words
    assert "a run (Propose," not in words
