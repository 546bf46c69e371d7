"""The window's title names the page as the page list shows it: a name saved decomposed (macOS writes `Zoë` as
`Zoe` and a combining diaeresis) reads `Zoë`, not `Zoe\\u0308`; what a reader cannot see (a zero-width space) is
still escaped there."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.list_projects import PLAIN_LIST
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

DECOMPOSED = "Zoe\u0308"  # Zoë in NFD
HIDDEN = "x\u200by"  # a zero-width space inside


def test_the_title_shows_a_decomposed_page_name_as_the_page_list_does(qtbot, tmp_path: Path) -> None:
    folder = imported_project(tmp_path, {f"html/{HIDDEN}.html": PLAIN_LIST,
                                         f"html/{DECOMPOSED}.html": PLAIN_LIST.replace("List", "Zoë")})  # other bytes
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        assert DECOMPOSED in window.page_list.all_names()
        window.open_page(DECOMPOSED)
        assert window.page_view.wait_until_loaded()
        assert window.windowTitle() == "RecordLens — project — page Zoë"
        assert "Zoe\\u0308" not in window.windowTitle()
        window.open_page(HIDDEN)
        assert window.page_view.wait_until_loaded()
        assert window.windowTitle() == "RecordLens — project — page x\\u200by"
    finally:
        window.close()
