"""W chooses the first open disagreement's row of the page it opens, once that page is shown; the choice is for
that page alone: when the page fails to load, or another page is opened by hand before it is shown, the next page
opened is shown as any page is, with no row chosen."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from tests.app.demo_project import ITEM
from tests.app.gui_waits import queued_work_done
from tests.app.review_helpers import review_bea

pytestmark = pytest.mark.app


def two_pages_that_disagree(qtbot, window) -> None:  # noqa: ANN001
    """Page 2 (the list: bea labelled 1 of its 4 items) disagrees most, so W opens it; page 1 (bea left out one of
    its records) disagrees too. Reviewed against bea, on page 1."""
    project = window.project
    for k in range(1, 5):
        project.add_record("2", [ITEM.format(k)], window.person, status="accepted")
    project.set_status("2", "labelled", window.person)
    project.annotators.set_page("bea", "2", [[ITEM.format(1)]])
    project.annotators.set_page("bea", "1", project.true_records("1")[1:])
    review_bea(qtbot, window)
    assert window.page_name == "1"


def w_opens_page_2_which_does_not_load(window, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    """W pressed, the page it opens never shown: the browser is asked nothing (its load is what fails)."""
    with monkeypatch.context() as patch:
        patch.setattr(window.page_view, "open", lambda path: None)
        QTest.keySequence(window, "W")
    assert window.page_name == "2"


def opened_by_hand(qtbot, window, name: str) -> None:  # noqa: ANN001
    window.open_page(name)  # as the page list opens it
    assert window.page_view.wait_until_loaded()
    # The window's load handler ran (where W's choice is taken up), then whatever it queued is done
    qtbot.waitUntil(lambda: window.review is not None and window.page_name == name and window.page_loaded,
                    timeout=10_000)
    queued_work_done()


def test_a_page_w_opened_that_fails_to_load_leaves_no_choice_for_the_next(qtbot, window, monkeypatch):
    two_pages_that_disagree(qtbot, window)
    w_opens_page_2_which_does_not_load(window, monkeypatch)
    window.page_view.loaded.emit(False)
    opened_by_hand(qtbot, window, "2")  # the same page, now by hand
    assert window.review_panel.current_index() is None, "a row chosen as if W had opened the page"


def test_another_page_opened_by_hand_before_w_s_page_is_shown_has_no_row_chosen(qtbot, window, monkeypatch):
    two_pages_that_disagree(qtbot, window)
    w_opens_page_2_which_does_not_load(window, monkeypatch)
    opened_by_hand(qtbot, window, "1")
    assert window.review_panel.current_index() is None, "a row chosen as if W had opened the page"


def test_the_page_w_opens_still_has_its_first_open_row_chosen(qtbot, window):
    two_pages_that_disagree(qtbot, window)
    QTest.keySequence(window, "W")
    assert window.page_name == "2" and window.page_view.wait_until_loaded()
    qtbot.waitUntil(lambda: window.review_panel.current_index() is not None, timeout=5_000)
    assert window.review.records[window.review_panel.current_index()].kind == "missed"
