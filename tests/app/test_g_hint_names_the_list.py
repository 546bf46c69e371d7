"""G after a click on a field (a title alone in its card): the hint names the level whose siblings make the page's
list, and U that many times, then G, makes it (a verifier's finding on nexteval-synth-dev page 21, where the hint
named a wrapper two levels up with one sibling instead of the `li` eight levels up with 249)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.window_helpers import click, imported_project, key, open_window, said, wait_for_labels

pytestmark = pytest.mark.app

ITEMS = 6
CARD = ("<li><div><div><a href='#{k}'><h3>{k}. Film number {k}</h3></a></div><div><span>{k} hours</span></div>"
        "</div></li>")
PAGE = ("<!doctype html><html><head><meta charset='utf-8'><title>Films</title></head><body><ul>"
        + "".join(CARD.format(k=k) for k in range(1, ITEMS + 1)) + "</ul></body></html>")
TITLE = "/body[1]/ul[1]/li[2]/div[1]/div[1]/a[1]/h3[1]"


def test_g_after_a_click_on_a_title_names_the_list_item_and_u_then_g_makes_the_list(qtbot, tmp_path: Path):
    folder = imported_project(tmp_path, {"html/1.html": PAGE})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        click(window, TITLE)
        wait_for_labels(qtbot, window, lambda labels: len(labels) == 1)
        key(window, "G")
        assert said(window).endswith(f"; U 4 times, then G, would add {ITEMS - 1} records, one per sibling of the "
                                     "enclosing li (4 levels up)"), said(window)
        for _ in range(4):
            key(window, "U")
        wait_for_labels(qtbot, window, lambda labels: labels[0].xpaths == ("/body[1]/ul[1]/li[2]",))
        key(window, "G")
        wait_for_labels(qtbot, window, lambda labels: len(labels) == ITEMS)
    finally:
        window.close()
