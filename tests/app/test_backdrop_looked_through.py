"""A cookie banner's backdrop (a see-through box over the whole view holding the banner's dialog) is looked
through where the pointer is on none of its dialog: the card beneath is hovered and clicked, as under an empty
backdrop. The dialog itself is still what a click on it takes; an opaque cover and a card placed absolutely are
not looked through. A verifier's finding: every click on the page made a record of the banner."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.page_helpers import click_at
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

CARDS = "".join(f"<div class='card'><h3>Under {k}</h3><p>Price {k}.99</p></div>" for k in range(1, 7))
BANNER = ("<div class='cookie' style='position:fixed;left:0;top:0;width:100%;height:100%;background:{colour};"
          "z-index:9'><div style='background:#fff;margin:260px auto 0;width:300px;padding:20px'>We use cookies "
          "<button>Accept all</button></div></div>")
PLACED = ("<div style='position:relative;height:120px'><div class='placed' style='position:absolute;left:500px;"
          "top:0;width:200px;height:100px;padding:30px'><b>Placed card</b></div></div>")
PAGE = ("<!doctype html><html><head><meta charset='utf-8'><title>banner</title><style>.card{{margin:6px;"
        "padding:6px;width:360px}}</style></head><body>" + PLACED + "<div class='list'>" + CARDS + "</div>{banner}"
        "</body></html>")


def _window(qtbot, tmp_path: Path, colour: str) -> MainWindow:
    folder = imported_project(tmp_path, {"html/1.html": PAGE.format(banner=BANNER.format(colour=colour))})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    window.wait_until_drawn()
    return window


@pytest.fixture
def window(qtbot, tmp_path: Path):
    win = _window(qtbot, tmp_path, "rgba(0,0,0,0.5)")
    yield win
    win.close()


def records(window: MainWindow) -> list[tuple[str, ...]]:
    return [label.xpaths for label in window.project.labels("1")]


def test_a_click_through_a_see_through_backdrop_takes_the_card_beneath(qtbot, window):
    card = "/body[1]/div[2]/div[2]/h3[1]"
    assert click_at(window.page_view, card) == "/body[1]/div[3]"  # the backdrop is on top there
    qtbot.waitUntil(lambda: records(window) == [(card,)], timeout=10_000)


def test_the_banners_dialog_is_still_clicked(qtbot, window):
    dialog = "/body[1]/div[3]/div[1]"
    assert click_at(window.page_view, dialog, 10, 10) == dialog
    qtbot.waitUntil(lambda: records(window) == [(dialog,)], timeout=10_000)


def test_an_absolutely_placed_cards_padding_is_the_card(qtbot, tmp_path):
    win = _window(qtbot, tmp_path, "transparent; display:none")
    try:
        placed = "/body[1]/div[1]/div[1]"
        assert click_at(win.page_view, placed, 5, 5) == placed
        qtbot.waitUntil(lambda: records(win) == [(placed,)], timeout=10_000)
    finally:
        win.close()


def test_an_opaque_cover_is_not_looked_through(qtbot, tmp_path):
    win = _window(qtbot, tmp_path, "#fff")
    try:
        card = "/body[1]/div[2]/div[2]/h3[1]"
        assert click_at(win.page_view, card) == "/body[1]/div[3]"
        qtbot.waitUntil(lambda: records(win) == [("/body[1]/div[3]",)], timeout=10_000)
    finally:
        win.close()
