"""Where the user was in a project (its page, selection, scroll, zoom) is remembered by the project's folder, and
follows the project when its folder is moved or renamed: its database is the same file, so the app knows it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from recordlens.annotator.settings import Settings
from recordlens.core.store.project import PROJECT_DB
from tests.app.demo_project import LIST_PAGE
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app


def left_on_page_2(project_dir: Path, settings_file: Path, zoom: float | None = None) -> None:
    """A window on the project left on its page 2 (at `zoom`, if given), then closed: its place remembered."""
    window = open_window(project_dir, settings_file, settings=Settings.load(settings_file))
    try:
        window.open_page("2")
        assert window.page_view.wait_until_loaded()
        if zoom is not None:
            window.settings.remember_zoom(window.project_key(), zoom)
    finally:
        window.close()


def test_a_moved_project_reopens_where_it_was_left(qtbot, tmp_path: Path, project_dir: Path):
    settings_file = tmp_path / "settings.json"
    first = open_window(project_dir, settings_file, settings=Settings.load(settings_file))
    try:
        first.open_page("1")
        assert first.page_view.wait_until_loaded()
        chosen = first.labels[2].id
        first.zoom.zoom_to(1.5)  # the page left at that zoom, and scrolled there (a zoom since would move it)
        view = first.page_view.view
        qtbot.waitUntil(lambda: first.page_view.offline.run_js("innerWidth") == round(view.width() / 1.5),
                        timeout=10_000)
        first.select_records([chosen])
        first.page_view.scroll_to_y(240)
        qtbot.waitUntil(lambda: first.page_view.scroll_y == 240, timeout=5_000)
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
    left_on_page_2(project_dir, settings_file)
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


def test_a_new_project_given_a_deleted_projects_database_inode_starts_with_no_remembered_place(
        qtbot, tmp_path: Path, project_dir: Path):
    # ext4 gives a deleted file's inode to the next file made: a new project's database can have the identity
    # ("DEVICE:INODE") a deleted project's had. Faked here (which inode a file gets is not the test's to choose).
    settings_file = tmp_path / "settings.json"
    left_on_page_2(project_dir, settings_file, zoom=1.5)
    deleted = str(project_dir.resolve())
    shutil.rmtree(project_dir)
    new = imported_project(tmp_path / "new", {"html/1.html": LIST_PAGE + "<!-- new -->", "html/2.html": LIST_PAGE})
    noted = json.loads(settings_file.read_text(encoding="utf-8"))
    files = json.loads(noted["project_files"])
    files[deleted]["file"] = f"{os.stat(new / PROJECT_DB).st_dev}:{os.stat(new / PROJECT_DB).st_ino}"
    noted["project_files"] = json.dumps(files)
    settings_file.write_text(json.dumps(noted), encoding="utf-8")

    fresh = open_window(new, settings_file, settings=Settings.load(settings_file))
    try:
        assert fresh.page_name == "1"
        assert fresh.settings.zoom(fresh.project_key()) == 1.0
    finally:
        fresh.close()
    kept = Settings.load(settings_file)
    # the deleted project's place and its note went with it: the settings do not grow for ever
    assert deleted not in json.loads(kept.project_files)
    assert deleted not in json.loads(kept.last_pages)
    assert deleted not in json.loads(kept.zooms)


def test_a_project_without_pages_never_takes_over_a_place():
    settings = Settings()
    settings.remember_page("/gone/empty", "3")
    settings.follow_move("/gone/empty", "1:2", None, lambda folder: None)
    settings.follow_move("/elsewhere/empty", "1:2", None, lambda folder: None)
    assert settings.last_page("/elsewhere/empty") is None


def test_a_moved_project_known_by_its_file_and_fingerprint_takes_its_place_over():
    settings = Settings()
    settings.remember_page("/gone/project", "3")
    settings.follow_move("/gone/project", "1:2", "abc@then", lambda folder: None)
    settings.follow_move("/moved/project", "1:2", "abc@then", lambda folder: None)
    assert settings.last_page("/moved/project") == "3"
    assert list(json.loads(settings.project_files)) == ["/moved/project"]
