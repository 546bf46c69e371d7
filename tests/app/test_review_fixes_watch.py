"""A window's own background jobs are not changes made elsewhere: an import started from the window writes through
the job's own connection, which the window's watch on its project must not take for another window or the
command line. The watch's timer is off in the tests, which call `check_project` where it would."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.store import Provenance, open_project
from tests.app.window_helpers import imported_project, open_window, recent_messages

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head><body><ul>
<li><b>Camera {title}</b> <i>$399</i></li><li><b>Lens</b> <i>$129</i></li></ul></body></html>"""
ITEM = "/body[1]/ul[1]/li[{}]"


def test_pages_the_window_imports_are_not_said_to_come_from_elsewhere(qtbot, tmp_path: Path):
    project_dir = imported_project(tmp_path, {"html/1.html": PAGE.format(title="one")})
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        folder = tmp_path / "more"
        folder.mkdir()
        for n in range(2, 7):
            (folder / f"{n}.html").write_text(PAGE.format(title=str(n) * 3), encoding="utf-8")
        job = window.importing.import_paths([folder])
        assert job is not None
        looked: list[int] = []

        def look(done: int, _total: int, _what: str) -> None:
            if done >= 2 and not looked:  # pages imported already, through the job's connection
                looked.append(done)
                window.check_project()  # where the timer would fall while the import runs

        job.progress.connect(look)
        qtbot.waitUntil(lambda: window.job is None, timeout=30_000)
        window.check_project()  # and after it
        assert looked
        assert window.page_list.all_names() == ["1", "2", "3", "4", "5", "6"]
        assert "elsewhere" not in recent_messages(window)
        assert "imported 5 page(s)" in recent_messages(window)

        # A change made elsewhere after the job is still said.
        with open_project(project_dir) as other:
            other.add_record("1", [ITEM.format(2)], Provenance.person("cli"))
        window.check_project()
        assert "page 1 changed elsewhere (another window, or the command line)" in recent_messages(window)
        assert [label.xpaths for label in window.labels] == [(ITEM.format(2),)]
    finally:
        window.close()


def test_the_watch_timer_is_off_in_the_tests(qtbot, tmp_path: Path):
    project_dir = imported_project(tmp_path, {"html/1.html": PAGE.format(title="one")})
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        assert not window._watch_timer.isActive()  # the tests call check_project where it would look
    finally:
        window.close()
