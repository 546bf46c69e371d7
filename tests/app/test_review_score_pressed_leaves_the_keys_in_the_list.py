"""The Score button pressed with the keys (Space) is hidden once the run is scored, and Qt handed the keys on to the
next control in the Tab chain, the "matched" tick box: the next Space hid the page's matched records unasked. The
keys now go to the review's list. W on a run not scored yet says how to score it, where it only said it was not."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.review_helpers import half_run
from tests.app.window_helpers import said

pytestmark = pytest.mark.app


def test_the_keys_go_to_the_review_list_once_the_score_button_is_gone(qtbot, window: MainWindow) -> None:
    window.start_review(half_run(window.project))
    window.page_view.wait_until_drawn()
    panel = window.review_panel
    button = panel.score_button
    assert button.isVisible()
    button.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(button.hasFocus, timeout=5_000)

    QTest.keyClick(button, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: window.job is None and not button.isVisible(), timeout=30_000)
    assert window.focusWidget() is panel.records

    QTest.keyClick(window.focusWidget(), Qt.Key.Key_Space)  # a Space more hides nothing
    assert panel.shown_kinds() == {"matched", "partial", "missed", "spurious"}


def test_w_on_a_run_not_scored_says_how_to_score_it(qtbot, window: MainWindow) -> None:
    window.start_review(half_run(window.project))
    window.page_view.wait_until_drawn()
    window.message("")
    QTest.keySequence(window, "W")
    assert said(window) == ("this run is not scored yet: W goes through its pages from the worst once it is (Score "
                            "this run against the labels, in the Review tab)")
