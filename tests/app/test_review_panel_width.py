"""The right panel's width is the window's to give (README: "the right panel a quarter, 350–520 px"): nothing the
Review tab says, however long (an annotator's long name, the take-all offer naming what it leaves out, a run's
line), sets the panel's least width, nor grows the window when Review opens."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize

from recordlens.annotator.labelling.main_window import SIDE_PANELS, MainWindow
from recordlens.annotator.labelling.review_panel import ReviewPanel
from tests.app.demo_project import HEADER
from tests.app.gui_waits import queued_work_done
from tests.app.review_helpers import kinds

pytestmark = pytest.mark.app

LONG_NAME = "beatrice.lindqvist-second-round-of-the-autumn-labelling-campaign-2026"
LEAST = SIDE_PANELS[2].least  # the right panel's least width (350 px)


def test_a_long_name_and_what_take_all_leaves_out_never_widen_the_panel(qtbot) -> None:
    panel = ReviewPanel()
    qtbot.addWidget(panel)
    panel.set_runs([], annotators=[LONG_NAME])  # listed before the panel is first shown, as the window does
    panel.show()
    panel.offer_take_all(LONG_NAME, 326, "1 rejected in the project; T accepts it, 2 kept (O), 3 in the project "
                                         "already, 4 repeating another of theirs")
    panel.score_button.show()
    assert panel.minimumSizeHint().width() <= LEAST
    # The offer is all there: the button short, what it takes in words beside it and in its tip
    assert panel.take_all.text() == "Take all 326"
    assert LONG_NAME in panel.take_all_words.text() and "left out: 1 rejected" in panel.take_all_words.text()
    assert panel.take_all.toolTip().startswith(f"Take all 326 of {LONG_NAME}'s records the project lacks")
    panel.runs.setCurrentIndex(1)
    assert panel.runs.toolTip() == f"annotator {LONG_NAME} against the project's labels"  # whole, where it is cut


def test_opening_review_on_an_annotator_with_a_long_name_leaves_the_window_as_it_was(qtbot,
                                                                                      window: MainWindow) -> None:
    project = window.project
    rejected = project.labels("1")[0]
    project.reject(rejected.id, window.person)
    window.reload_labels()
    project.annotators.set_page(LONG_NAME, "1", [*project.true_records("1"), list(rejected.xpaths), [HEADER],
                                                 ["/body[1]/div[1]/footer[1]"]])
    window.resize(QSize(900, 800))
    qtbot.waitUntil(lambda: window.width() == 900)
    window.start_review(f"annotator:{LONG_NAME}")
    qtbot.waitUntil(lambda: LONG_NAME in window.reviewing.agreements and window.job is None, timeout=20_000)
    window.tabs.setCurrentWidget(window.review_panel)
    assert kinds(window).count("spurious") == 3 and window.review_panel.take_all.isVisible()
    queued_work_done()  # any growth the layout asks for happens on the next events
    assert window.width() == 900
    assert window.tabs.minimumSizeHint().width() <= LEAST
    assert window.minimumSizeHint().width() <= 900
    assert "left out: 1 rejected in the project" in window.review_panel.take_all_words.text()
