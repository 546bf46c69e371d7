"""Where the user was in a project (its page, selection, scroll, zoom) is remembered by the project's folder, and
follows the project when its folder is moved or renamed: its database is the same file, so the app knows it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.annotator.settings import Settings
from tests.app import test_main_window as main_tests
from tests.app.test_main_window import LIST_PAGE
from tests.app.window_helpers import imported_project, open_window

project_dir = main_tests.project_dir

pytestmark = pytest.mark.app


def test_a_moved_project_reopens_where_it_was_left(qtbot, tmp_path: Path, project_dir: Path):
    settings_file = tmp_path / "settings.json"
    first = open_window(project_dir, settings_file, settings=Settings.load(settings_file))
    try:
        first.open_page("1")
        assert first.page_view.wait_until_loaded()
        chosen = first.labels[2].id
        first.select_records([chosen])
        first.page_view.scroll_to_y(240)
        qtbot.waitUntil(lambda: first.page_view.scroll_y == 240, timeout=5_000)
        first.settings.remember_zoom(first.project_key(), 1.5)
    finally:
        first.close()
    moved = project_dir.rename(tmp_path / "renamed project")

    again = open_window(moved, settings_file, settings=Settings.load(settings_file))
    try:
        assert again.page_name == "1"
        qtbot.waitUntil(lambda: again.record_panel.selected_ids() == [chosen], timeout=10_000)
        qtbot.waitUntil(lambda: again.page_view.scroll_y == 240, timeout=10_000)
        assert again.settings.zoom(again.project_key()) == 1.5
        again.open_page("2")
        assert again.page_view.wait_until_loaded()
    finally:
        again.close()
    kept = Settings.load(settings_file)
    assert kept.last_page(str(moved.resolve())) == "2"
    # read once under the old folder: what was remembered there went with the project
    assert str(project_dir.resolve()) not in json.loads(kept.last_pages)
    assert str(project_dir.resolve()) not in json.loads(kept.zooms)


def test_a_renamed_project_reopens_on_its_page_and_a_new_project_at_its_old_folder_starts_afresh(
        qtbot, tmp_path: Path, project_dir: Path):
    settings_file = tmp_path / "settings.json"
    first = open_window(project_dir, settings_file, settings=Settings.load(settings_file))
    try:
        first.open_page("2")
        assert first.page_view.wait_until_loaded()
    finally:
        first.close()
    moved = project_dir.rename(project_dir.with_name("renamed"))
    again = open_window(moved, settings_file, settings=Settings.load(settings_file))
    try:
        assert again.page_name == "2"
    finally:
        again.close()
    other = imported_project(tmp_path / "other", {"html/1.html": LIST_PAGE, "html/2.html": LIST_PAGE + "<!-- 2 -->"})
    other.rename(project_dir)  # another project where the renamed one was
    fresh = open_window(project_dir, settings_file, settings=Settings.load(settings_file))
    try:
        assert fresh.page_name == "1"
    finally:
        fresh.close()
