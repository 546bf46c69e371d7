"""W in an annotator's review chose the page's first open disagreement whatever the page drew of it: one at the
<head>'s <title>, or in a block hidden with display: none, has no box on the page, so the reviewer landed on a
page with nothing shown as the reason W brought them there, unsaid. W now chooses the first open disagreement
the page displays, and says those before it the page does not display, with where they are and why; a page none
of whose open disagreements is displayed is said so (its first is chosen still: T, Shift+T and O decide it).

On a tall page of four cards far apart under a <head> with a title and a hidden block, the project labelled the
four cards; bea labelled them too, and more."""

from __future__ import annotations

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.review_helpers import kinds
from tests.app.test_review_first_mistake_is_one_the_page_shows import (
    CARD_XPATHS,
    FOOTER_XPATH,
    HIDDEN,
    PAGE,
    TITLE,
    TRUTH,
)
from tests.app.window_helpers import imported_project, key, said

pytestmark = pytest.mark.app


@pytest.fixture
def project_dir(tmp_path):
    import json

    return imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps(TRUTH)})


def review_bea_with(qtbot, window: MainWindow, theirs: list[list[str]]) -> None:
    window.project.annotators.set_page("bea", "1", theirs)
    window.start_review("annotator:bea")
    qtbot.waitUntil(lambda: "bea" in window.reviewing.agreements and window.job is None, timeout=20_000)
    window.page_view.wait_until_drawn()


def chosen(window: MainWindow) -> tuple[str, tuple[str, ...]] | None:
    index = window.review_panel.current_index()
    record = window.review.records[index] if index is not None else None
    return (record.kind, record.xpaths) if record is not None else None


def in_view(window: MainWindow, xpath: str) -> bool:
    return window.page_view.top_in_view(xpath) is not None


def test_w_chooses_the_first_open_disagreement_the_page_displays(qtbot, window: MainWindow) -> None:
    # bea labelled the title, the four cards, the hidden block and the footer: three spurious records, the
    # title's first in the list and the footer's the only one the page displays
    review_bea_with(qtbot, window, [[TITLE], *TRUTH, [HIDDEN], [FOOTER_XPATH]])
    assert [k for k in kinds(window) if k != "matched"] == ["spurious"] * 3
    key(window, "W")
    qtbot.waitUntil(lambda: said(window).startswith("W: page 1,"), timeout=10_000)
    qtbot.waitUntil(lambda: chosen(window) == ("spurious", (FOOTER_XPATH,)), timeout=10_000)
    qtbot.waitUntil(lambda: in_view(window, FOOTER_XPATH), timeout=10_000)
    assert said(window) == (
        "W: page 1, 3 disagreements with bea open here; the first 2 disagreements are not displayed on the page "
        f"(P1 (spurious) at {TITLE}: its element is hidden (display: none); P6 (spurious) at {HIDDEN}: its element "
        "is hidden (display: none)); the first the page displays is chosen, P7 (spurious): T takes "
        "theirs, Shift+T merges, O keeps the project's"), said(window)


def test_w_on_a_page_none_of_whose_disagreements_is_displayed_says_why_nothing_is_drawn(qtbot, window) -> None:
    review_bea_with(qtbot, window, [[TITLE], *TRUTH, [HIDDEN]])
    key(window, "W")
    qtbot.waitUntil(lambda: said(window).startswith("W: page 1,"), timeout=10_000)
    assert chosen(window) == ("spurious", (TITLE,))  # T, Shift+T and O decide it still
    assert said(window) == (
        "W: page 1, 2 disagreements with bea open here; none of them is displayed on the page: P1 (spurious) at "
        f"{TITLE}: its element is hidden (display: none); P6 (spurious) at {HIDDEN}: its "
        "element is hidden (display: none); the first is chosen in the list: T takes theirs, Shift+T merges, O "
        "keeps the project's"), said(window)
    assert in_view(window, CARD_XPATHS[0])  # the page at its first record it shows


def test_w_on_a_page_whose_first_disagreement_is_displayed_says_nothing_more(qtbot, window) -> None:
    review_bea_with(qtbot, window, [*TRUTH[:2], *TRUTH[3:], [TITLE]])  # card 3 left out, the title after
    key(window, "W")
    qtbot.waitUntil(lambda: said(window).startswith("W: page 1,"), timeout=10_000)
    qtbot.waitUntil(lambda: chosen(window) is not None and chosen(window)[0] == "missed", timeout=10_000)
    qtbot.waitUntil(lambda: in_view(window, CARD_XPATHS[2]), timeout=10_000)
    assert said(window) == ("W: page 1, 2 disagreements with bea open here; the first is chosen: T takes theirs, "
                            "Shift+T merges, O keeps the project's"), said(window)
