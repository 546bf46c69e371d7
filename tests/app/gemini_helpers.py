"""Proposing with Gemini in the app tests, against the loopback fake server (tests/fake_gemini.py): a small shop
page, the records the fake answers for it, a window on a project of such pages, and a window set to propose with
that server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.window_helpers import imported_project, keep_status_messages, open_window
from tests.fake_gemini import FakeGemini

SHOP_PAGE = ("<!doctype html><html><head><meta charset='utf-8'><title>Shop {}</title></head><body><ul>"
             "<li><b>Camera</b> $399</li><li><b>Lens</b> $129</li><li><b>Tripod</b> $59</li></ul></body></html>")
SHOP_RECORDS = json.dumps([[f"/html[1]/body[1]/ul[1]/li[{k}]"] for k in (1, 2, 3)])  # its three items, as answered


@contextmanager
def window_on_shop_pages(qtbot, folder: Path, pages: int) -> Iterator[MainWindow]:  # noqa: ANN001 - a QtBot
    """The main window on a project of `pages` shop pages (1, 2...), every status message kept
    (`keep_status_messages`); closed after."""
    project = imported_project(folder, {f"html/{n}.html": SHOP_PAGE.format(n) for n in range(1, pages + 1)})
    window = open_window(project, folder / "settings.json", qtbot=qtbot)
    keep_status_messages(window)
    try:
        yield window
    finally:
        window.close()


def with_gemini(window: MainWindow, server: FakeGemini) -> None:
    """The window proposes with Gemini, asking `server` with a key that is not real."""
    window.keys.set("test-key-not-real-789")
    window.settings.default_extractor = "gemini"
    window.settings.gemini_endpoint = server.url
