"""The page the tests of taking an annotator's records weigh (T, Shift+T and take-all, Ctrl+T): five items whose
texts sit in one wrapper each, and a footer apart; the window on it with the project's records of it in each
state, and bea's own records; bea's rows of the review, and the project's records as they stand."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store import Provenance
from tests.app.window_helpers import imported_project, open_window

ITEMS = "".join(f"<li><div><b>Item {k}</b> <i>{k}.50</i></div></li>" for k in range(1, 6))
PAGE = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>t</title></head><body><ul>{ITEMS}</ul>"
        "<p><span>Contact</span></p></body></html>")
ITEM = "/body[1]/ul[1]/li[{}]"
WRAPPER = ITEM + "/div[1]"
FOOTER = "/body[1]/p[1]/span[1]"
MDR = Provenance.extractor("mdr", "0.3", "html")


@contextmanager
def window_on_the_page(qtbot, folder: Path, beas: Sequence[Sequence[str]]) -> Iterator[MainWindow]:
    """The window on page p, of a project in `folder`: items 1 and 2 labelled at their wrappers (accepted), item 3's
    wrapper proposed, item 4's rejected; bea's records `beas`, not yet reviewed. Closed after."""
    project_folder = imported_project(folder, {"html/p.html": PAGE,
                                               "gt/p.json": f'[["{WRAPPER.format(1)}"], ["{WRAPPER.format(2)}"]]'})
    window = open_window(project_folder, folder / "settings.json", qtbot=qtbot)
    try:
        project = window.project
        project.add_records("p", [[WRAPPER.format(3)], [WRAPPER.format(4)]], MDR)
        project.reject(project.labels("p")[3].id, window.person)
        project.annotators.set_page("bea", "p", [list(record) for record in beas])
        window.reload_labels()
        yield window
    finally:
        window.close()


def statuses(window: MainWindow) -> list[tuple[str, list[str]]]:
    """The project's records of page p, in order: each one's status and XPaths."""
    return [(label.status, list(label.xpaths)) for label in window.project.labels("p")]


def row_of(window: MainWindow, xpath: str) -> int:
    """The Review row of bea's record `xpath`, one the project lacks (every class is shown: rows are the review's
    order)."""
    return next(i for i, r in enumerate(window.review.records) if r.kind == "spurious" and list(r.xpaths) == [xpath])


def t_on(window: MainWindow, xpath: str, keys: str = "T") -> None:
    """T (or `keys`) on the Review row of bea's record `xpath`, made the current row."""
    window.review_panel.records.setCurrentRow(row_of(window, xpath))
    QTest.keySequence(window, keys)
