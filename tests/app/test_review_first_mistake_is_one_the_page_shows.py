"""Review opens a page at the run's first mistake: one whose element the page does not draw (an extractor's record
at the <head>'s <title>, an element hidden with display: none) was taken as the first, and the page, scrolled to
nothing, stayed at its top with nothing of the run's mistakes on show, unsaid. The first mistake is now the first
one the page shows; those before it that it does not show are said, with where they are and why.

On a tall page of four cards far apart (a screen and more between each) under a <head> with a title and a hidden
block, the project labelled the four cards."""

from __future__ import annotations

import json

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.window_helpers import imported_project, said

pytestmark = pytest.mark.app

GAP = '<div style="height: 2400px">between</div>'
CARDS = [f'<div class="card"><h3>{title}</h3><p>{words}</p></div>'
         for title, words in (("One", "alpha"), ("Two", "beta"), ("Three", "gamma"), ("Four", "delta"))]
FOOTER = '<div class="foot"><b>Footer</b> <i>words</i></div>'
HIDDEN_BLOCK = '<div style="display: none"><h3>Five</h3><p>epsilon</p></div>'
PAGE = (f"<!doctype html><html><head><meta charset='utf-8'><title>Kitchen shop</title></head><body>"
        f"{GAP.join([*CARDS, FOOTER])}{HIDDEN_BLOCK}</body></html>")
CARD = "/body[1]/div[{}]"  # card k (1-based) is the body's div 2k - 1: a gap between each two
CARD_XPATHS = [CARD.format(2 * k - 1) for k in range(1, 5)]
FOOTER_XPATH = CARD.format(9)  # a screen and more below card 4
HIDDEN = CARD.format(10)
TITLE = "/head[1]/title[1]"
TRUTH = [[xpath] for xpath in CARD_XPATHS]


@pytest.fixture
def project_dir(tmp_path):
    return imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps(TRUTH)})


def run_of(window: MainWindow, predicted: list[list[str]]) -> int:
    project = window.project
    run = project.runs.add("mdr")
    project.runs.add_predictions(run, {"1": predicted})
    project.runs.finish(run)
    return run


def reviewed(qtbot, window: MainWindow, run: int) -> None:
    window.start_review(run)
    window.page_view.wait_until_drawn()
    qtbot.wait(300)  # a scroll sent meanwhile has been done


def in_view(window: MainWindow, xpath: str) -> bool:
    return window.page_view.top_in_view(xpath) is not None


def test_a_first_mistake_in_the_head_gives_way_to_the_first_the_page_shows(qtbot, window: MainWindow) -> None:
    # The run found every card, and the title and the footer besides: two spurious records, the title's first.
    reviewed(qtbot, window, run_of(window, [[TITLE], *TRUTH, [FOOTER_XPATH]]))
    assert [(r.kind, r.xpaths) for r in window.review.records if r.kind != "matched"] == [
        ("spurious", (TITLE,)), ("spurious", (FOOTER_XPATH,))]
    qtbot.waitUntil(lambda: in_view(window, FOOTER_XPATH), timeout=10_000)
    qtbot.waitUntil(lambda: "not displayed" in said(window), timeout=10_000)
    assert said(window) == (f"the first mistake, P1 (spurious) at {TITLE}, is not displayed on the page: its element "
                            "is hidden (display: none); in view: the first one the page "
                            "displays, P6 (spurious)")


def test_mistakes_the_page_does_not_show_at_all_are_said(qtbot, window: MainWindow) -> None:
    # Every card found, and the title and a hidden block besides: no mistake the page shows.
    reviewed(qtbot, window, run_of(window, [[TITLE], *TRUTH, [HIDDEN]]))
    qtbot.waitUntil(lambda: "displayed on the page" in said(window), timeout=10_000)
    assert said(window) == (f"none of the page's 2 mistakes is displayed on the page: P1 (spurious) at {TITLE}: its "
                            "element is hidden (display: none); P6 (spurious) at "
                            f"{HIDDEN}: its element is hidden (display: none); they are in the list")
    assert in_view(window, CARD_XPATHS[0])  # the page at its first record it shows


def test_a_first_mistake_the_page_shows_is_scrolled_to_unsaid(qtbot, window: MainWindow) -> None:
    reviewed(qtbot, window, run_of(window, [*TRUTH[:2], *TRUTH[3:], [TITLE]]))  # card 3 missed, the title after
    qtbot.waitUntil(lambda: in_view(window, CARD_XPATHS[2]), timeout=10_000)
    assert "not displayed" not in said(window)
