"""Proposing with Gemini in the app tests, against the loopback fake server (tests/fake_gemini.py): a small shop
page, the records the fake answers for it, and a window set to propose with that server."""

from __future__ import annotations

import json

from recordlens.annotator.labelling.main_window import MainWindow
from tests.fake_gemini import FakeGemini

SHOP_PAGE = ("<!doctype html><html><head><meta charset='utf-8'><title>Shop {}</title></head><body><ul>"
             "<li><b>Camera</b> $399</li><li><b>Lens</b> $129</li><li><b>Tripod</b> $59</li></ul></body></html>")
SHOP_RECORDS = json.dumps([[f"/html[1]/body[1]/ul[1]/li[{k}]"] for k in (1, 2, 3)])  # its three items, as answered


def with_gemini(window: MainWindow, server: FakeGemini) -> None:
    """The window proposes with Gemini, asking `server` with a key that is not real."""
    window.keys.set("test-key-not-real-789")
    window.settings.default_extractor = "gemini"
    window.settings.gemini_endpoint = server.url
