"""The run under review chosen again (`start_review` of it: `--review`, a caller of the window's; the chooser's
`run_chosen` of it) kept the rows chosen in its review, drawn selected, while the page was scrolled to the run's
first mistake, far from them: the row highlighted was not what the view showed. A run chosen again now keeps its
rows and brings the page to them, as a restart brings it to the rows it chooses again; with no row chosen it opens
at its first mistake, as any run chosen does. (The chooser itself says nothing when its chosen line is chosen
again: Qt's combo box reports a change of line only.)"""

from __future__ import annotations

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.qt.signals import emit
from tests.app.review_helpers import half_run

pytestmark = pytest.mark.app


def selected_drawn(window: MainWindow) -> list[object]:
    """The review records drawn selected on the page (their badges)."""
    return [drawn["label"] for drawn in window.page_view._records if drawn.get("selected")]


def scrolls_kept(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The XPaths the page is scrolled to from now on, in order."""
    scrolled: list[str] = []
    scroll_to = window.page_view.scroll_to

    def kept(xpath: str, *args: object, **kwargs: object) -> None:
        scrolled.append(xpath)
        scroll_to(xpath, *args, **kwargs)

    monkeypatch.setattr(window.page_view, "scroll_to", kept)
    return scrolled


def first_missed(window: MainWindow) -> str:
    return next(r.xpaths[0] for r in window.review.records if r.kind == "missed")


@pytest.mark.parametrize("how", ["start_review", "run_chosen"])
def test_the_run_chosen_again_keeps_its_row_and_the_page_shows_it(qtbot, window: MainWindow,
                                                                   monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    run = half_run(window.project)
    window.start_review(run)
    window.page_view.wait_until_drawn()
    panel = window.review_panel
    panel.records.setCurrentRow(2)  # record 3, matched
    qtbot.waitUntil(lambda: selected_drawn(window) == ["T3"], timeout=5_000)
    third = window.review.records[2].xpaths[0]
    scrolled = scrolls_kept(window, monkeypatch)

    if how == "start_review":
        window.start_review(run)
    else:
        emit(panel.run_chosen, run)  # as the chooser says a choice
    window.page_view.wait_until_drawn()

    assert panel.chosen_indices() == [2]
    assert selected_drawn(window) == ["T3"]
    assert scrolled and scrolled[-1] == third, (scrolled, third, first_missed(window))  # not record 6, missed


def test_the_run_chosen_again_with_no_row_chosen_opens_at_its_first_mistake(qtbot, window: MainWindow,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    run = half_run(window.project)
    window.start_review(run)
    window.page_view.wait_until_drawn()
    scrolled = scrolls_kept(window, monkeypatch)

    window.start_review(run)
    window.page_view.wait_until_drawn()

    assert window.review_panel.chosen_indices() == [] and selected_drawn(window) == []
    assert scrolled[-1:] == [first_missed(window)]
