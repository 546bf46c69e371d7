"""A quit asks the page one question (where the selected record starts, and how tall the view is, in one call:
`PageView.top_in_view`), so a renderer that hangs at that moment (a script in a loop) holds the window for one time
limit at most, not one per question; the quit still keeps the page and its scroll."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from recordlens.annotator.settings import Settings
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

PAGE = ("<!doctype html><html><head><meta charset='utf-8'><title>list</title></head><body>"
        + "".join(f"<p>Item {n}</p>" for n in range(1, 6)) + "</body></html>")
TRUTH = [[f"/body[1]/p[{n}]"] for n in range(1, 6)]
HANG_MS = 20_000  # the page's script runs this long: longer than the quit's waits for the page together


@pytest.mark.parametrize("hangs", [False, True], ids=["answering", "hung"])
def test_a_quit_asks_the_page_once(qtbot, tmp_path: Path, hangs: bool) -> None:
    folder = imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps(TRUTH)})
    settings_file = tmp_path / "settings.json"
    window = open_window(folder, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    window.wait_until_drawn()
    window.select_records([window.labels[2].id])
    offline = window.page_view.offline
    asked: list[str] = []
    run_js = offline.run_js

    def counted(code: str, timeout_ms: int = 30_000) -> Any:
        asked.append(code)
        return run_js(code, timeout_ms)

    offline.run_js = counted  # type: ignore[method-assign]
    if hangs:
        offline.run_js_async(f"const until = Date.now() + {HANG_MS}; while (Date.now() < until) {{}}")
    window.close()
    assert len(asked) == 1, asked
    kept = Settings.load(settings_file)
    assert kept.last_scroll(str(folder.resolve()), "1") is not None
