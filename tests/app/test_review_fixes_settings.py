"""Two windows (two processes) share the settings file: what one changes is not undone by the other's next save,
since each writes only what it changed, onto the file as it is then."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.settings import Settings
from recordlens.core.store import open_project
from tests.app.window_helpers import FakeKeyStore, imported_project

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head><body><ul>
<li><b>Camera</b> <i>$399</i></li><li><b>Lens</b> <i>$129</i></li></ul></body></html>"""


def test_a_save_keeps_what_another_process_saved_meanwhile(tmp_path: Path):
    path = tmp_path / "annotator.json"
    Settings(annotator="ann", last_project="/p").save(path)
    first, second = Settings.load(path), Settings.load(path)
    first.annotator = "bea"  # the settings dialog of the first window
    first.remember_zoom("/p", 1.5)
    first.save(path)
    second.remember_page("/q", "3")  # the second window moves on in its own project
    second.remember_zoom("/q", 2.0)
    second.save(path)
    kept = Settings.load(path)
    assert kept.annotator == "bea"
    assert kept.zoom("/p") == 1.5 and kept.zoom("/q") == 2.0
    assert kept.last_page("/q") == "3" and kept.last_project == "/q"
    second.annotator = "cy"  # a later change of the second's own still goes in
    second.save(path)
    assert Settings.load(path).annotator == "cy" and Settings.load(path).zoom("/p") == 1.5


def window_on(folder: Path, title: str, settings_file: Path) -> MainWindow:
    project = imported_project(folder, {"html/1.html": PAGE.format(title=title),
                                        "html/2.html": PAGE.format(title=title * 2)})
    return MainWindow(open_project(project), settings=Settings.load(settings_file), settings_file=settings_file,
                      key_store=FakeKeyStore())


def test_a_run_chosen_in_one_window_does_not_undo_the_page_another_window_moved_to(qapp, tmp_path: Path):
    settings_file = tmp_path / "annotator.json"
    first = window_on(tmp_path / "a", "A", settings_file)
    second = window_on(tmp_path / "b", "B", settings_file)
    try:
        first.open_page("2")
        second.reviewing.on_run_chosen(second.reviewing.run_id)  # saves the review's state, as a run chosen does
        kept = Settings.load(settings_file)
        assert kept.last_page(first.project_key()) == "2"
        assert kept.last_page(second.project_key()) == "1"
    finally:
        second.close()
        first.close()
