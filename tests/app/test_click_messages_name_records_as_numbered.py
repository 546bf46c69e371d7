"""What the status bar says after a click on the page: a new record placed in front of the record it lies inside
names that record by its number after the insertion (one higher), as the list and the badges do; a click that adds
an element to the selected record, or takes one from it, says so rather than leave the message of the step before
(two verifier's findings). Real clicks on the rendered page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.window_helpers import click, imported_project, key, open_window, said, wait_for_labels

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>nest</title>
<style>li{font-size:28px;margin:20px}</style></head><body>
<div><h1>Shop</h1><ul>
<li>Alpha item one</li>
<li>Beta item two</li>
<li>Gamma item three</li>
</ul></div></body></html>"""
ITEM = "/body[1]/div[1]/ul[1]/li[{}]"
DIV = "/body[1]/div[1]"


def opened(qtbot, tmp_path: Path, truth: list[list[str]]) -> MainWindow:
    folder = imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps(truth)})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    window.wait_until_drawn()
    return window


def test_a_new_record_in_front_of_the_record_around_it_names_that_record_by_its_number_now(qtbot, tmp_path):
    window = opened(qtbot, tmp_path, [[ITEM.format(2)], [ITEM.format(3)], [DIV]])  # record 3 holds the others
    try:
        window.select_records([])
        key(window, "N")
        click(window, ITEM.format(1))
        wait_for_labels(qtbot, window, lambda labels: len(labels) == 4)
        # The new record is first in page order: the <div> around it is record 4 now, in the list and its badge.
        assert [label.xpaths for label in window.labels] == [(ITEM.format(1),), (ITEM.format(2),),
                                                             (ITEM.format(3),), (DIV,)]
        assert said(window).startswith("new record 1 (the records after it now have numbers 1 higher). It lies "
                                       "inside record 4: labels check flags records nested in others."), said(window)
        window._on_hovered(ITEM.format(1))
        assert "[inside record 4]" in window.breadcrumb.full_text()  # the hover line agrees
    finally:
        window.close()


def test_a_click_that_adds_or_removes_an_element_of_the_selected_record_says_so(qtbot, tmp_path):
    window = opened(qtbot, tmp_path, [[ITEM.format(2)]])
    try:
        window.select_records([window.labels[0].id])
        window.message("record 1 now holds an earlier step's element")  # what the bar said before the click
        click(window, ITEM.format(1))
        wait_for_labels(qtbot, window, lambda labels: len(labels[0].xpaths) == 2)
        qtbot.waitUntil(lambda: said(window).startswith("added"), timeout=5_000)
        assert said(window) == "added to record 1: <li> “Alpha item one” (2 elements)"
        click(window, ITEM.format(2))
        wait_for_labels(qtbot, window, lambda labels: labels[0].xpaths == (ITEM.format(1),))
        assert said(window) == "removed from record 1: <li> “Beta item two” (1 element left)"
    finally:
        window.close()
