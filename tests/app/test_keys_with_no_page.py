"""The keys that act on the page on show, pressed with no page open (a new project): each says how to get a page.
P, A, R, L, V and Ctrl+H did nothing and said nothing, and J / K said "last record of the last page (None)"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.settings import Settings
from recordlens.core.store.project import init_project
from tests.app.window_helpers import FakeKeyStore, key, recent_messages, said

pytestmark = pytest.mark.app

KEYS = ("P", "A", "R", "L", "V", "Ctrl+H", "J", "K", "M", "S", "Del", "G", "Shift+G", "E", "U", "N")


@pytest.fixture
def empty_window(qtbot, tmp_path: Path) -> Iterator[MainWindow]:
    window = MainWindow(init_project(tmp_path / "new"), settings=Settings(annotator="tester"),
                        settings_file=tmp_path / "settings.json", key_store=FakeKeyStore())
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()


@pytest.mark.parametrize("keys", KEYS)
def test_a_key_of_the_page_with_no_page_says_to_import_pages_first(empty_window: MainWindow, keys: str) -> None:
    assert empty_window.page_name is None
    key(empty_window, keys)
    assert said(empty_window) == ("no page open: this project has no pages yet; import saved pages first (Ctrl+I, "
                                  "or a folder with Ctrl+Shift+I)")
    assert "None" not in recent_messages(empty_window)


def test_the_keys_said_nothing_to_open_no_dialog_and_start_no_job(empty_window: MainWindow) -> None:
    for keys in ("P", "Ctrl+H", "L"):
        key(empty_window, keys)
    assert empty_window.job is None
    assert empty_window.tools.history_dialog is None
    assert empty_window.project.pages() == []


def test_with_pages_in_the_project_but_none_open_it_points_to_the_page_list(
        empty_window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    # A project with pages and none on show (its first page could not be opened): only whether it has any is read.
    monkeypatch.setattr(empty_window.project, "pages", lambda: ["1"])
    assert empty_window.no_page_words() == "no page open: open one from the page list first (Ctrl+1, then Enter)"
