"""A cover over the whole view that shows nothing is looked through, as a see-through backdrop is
(tests/app/test_backdrop_looked_through.py): hostile markup lays a positioned box over the page whose text is
drawn transparent (`color: transparent`, or rgba(..., 0)), or that is transparent as a whole (opacity: 0), above
the content. Its text made it no backdrop, so it took every click in the labelling view: a click on a card made
a record of the cover, or of a paragraph of its unseen text. Still taken as they are: a cover whose text shows,
a cover that holds something seen (a link in a link's own colour), and a dialog on a cover, clicked."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.page_helpers import click_at
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

CARDS = "".join(f"<div class='card'><h3>Item {k}</h3><p>Price {k}.99</p></div>" for k in range(1, 7))
CARD = "/body[1]/div[1]/div[2]/h3[1]"
COVER_AT = "position:fixed;left:0;top:0;width:100%;height:100%;z-index:99;font-size:28px;line-height:30px;"
WORDS = " ".join(["Continue reading"] * 120)  # fills the view: the click lands on the cover's words


def page(cover: str) -> str:
    return ("<!doctype html><html><head><meta charset='utf-8'><title>cover</title><style>.card{margin:6px;"
            "padding:6px;width:360px}</style></head><body><div class='list'>" + CARDS + "</div>" + cover +
            "</body></html>")


LOOKED_THROUGH = {
    "its own text transparent": f"<div style='{COVER_AT}color:transparent'>{WORDS}</div>",
    "its paragraphs' text rgba(..., 0)": (f"<div style='{COVER_AT}color:rgba(255, 0, 0, 0)'><p style='margin:0'>"
                                          f"{WORDS}</p></div>"),
    "its text unseen, its link's too": (f"<section style='{COVER_AT}color:rgba(0,0,0,0)'><a href='#x' "
                                        f"style='color:inherit'><span>{WORDS}</span></a></section>"),
    "the cover transparent as a whole": f"<div style='{COVER_AT}opacity:0;background:#fff'>{WORDS}</div>",
}
TAKEN_AS_IS = {
    "a cover whose text shows": (f"<div style='{COVER_AT}color:#333'>{WORDS}</div>", "/body[1]/div[2]"),
    "a cover whose text shows by its shadow": (f"<div style='{COVER_AT}color:transparent;text-shadow:0 0 2px #000'>"
                                               f"{WORDS}</div>", "/body[1]/div[2]"),
    "a cover whose link shows in a link's colour": (f"<section style='{COVER_AT}color:transparent'><a href='#x'>"
                                                    f"<span>{WORDS}</span></a></section>",
                                                    "/body[1]/section[1]/a[1]/span[1]"),
}


def _window(qtbot, tmp_path: Path, cover: str) -> MainWindow:
    folder = imported_project(tmp_path, {"html/1.html": page(cover)})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    window.wait_until_drawn()
    return window


def records(window: MainWindow) -> list[tuple[str, ...]]:
    return [label.xpaths for label in window.project.labels("1")]


@pytest.mark.parametrize("case", list(LOOKED_THROUGH))
def test_a_click_through_a_cover_that_shows_nothing_takes_the_card_beneath(qtbot, tmp_path, case):
    window = _window(qtbot, tmp_path, LOOKED_THROUGH[case])
    try:
        assert click_at(window.page_view, CARD).startswith("/body[1]/")  # the cover (or its words) is on top there
        qtbot.waitUntil(lambda: records(window) == [(CARD,)], timeout=10_000)
    finally:
        window.close()


@pytest.mark.parametrize("case", list(TAKEN_AS_IS))
def test_a_cover_that_shows_something_is_what_the_click_is_on(qtbot, tmp_path, case):
    cover, on_top = TAKEN_AS_IS[case]
    window = _window(qtbot, tmp_path, cover)
    try:
        assert click_at(window.page_view, CARD) == on_top
        qtbot.waitUntil(lambda: records(window) == [(on_top,)], timeout=10_000)
    finally:
        window.close()


def test_a_dialog_on_a_cover_whose_own_text_is_unseen_is_still_clicked(qtbot, tmp_path):
    dialog = "/body[1]/div[2]/div[1]"
    cover = (f"<div style='{COVER_AT}color:transparent;font-size:12px'>Unseen words<div style='background:#fff;"
             "color:#000;margin:260px auto 0;width:300px;padding:20px'>We use cookies <button>Accept</button></div>"
             "</div>")
    window = _window(qtbot, tmp_path, cover)
    try:
        assert click_at(window.page_view, dialog, 10, 10) == dialog
        qtbot.waitUntil(lambda: records(window) == [(dialog,)], timeout=10_000)
    finally:
        window.close()
