"""Two imports made elsewhere within ARRIVALS_GAP_S of each other while a window is open: the window's running total
of pages added summed both and read as the total of one import under way ("2 pages added (5, 6; 4 in all since
…)"), since it was, by its own notes, "more of the same import". The project keeps no mark of which import added a
page, so the total stays a total of what arrived meanwhile, and says it may be of more than one import; its time is
when the first page it counts was imported (the look that found it came after)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from recordlens.annotator.labelling import main_window
from recordlens.annotator.qt.local_time import stored_moment
from tests.app.list_projects import import_elsewhere, two_lists
from tests.app.window_helpers import open_window

pytestmark = pytest.mark.app


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Pages 1 and 2, each with two true records (items 1 and 2)."""
    return two_lists(tmp_path)


def test_two_imports_within_the_gap_are_totalled_as_what_they_are(qtbot, tmp_path, project_dir, monkeypatch):
    monkeypatch.setattr(main_window, "ARRIVALS_GAP_S", 1e9)  # the two imports within the gap, however slow the machine
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        import_elsewhere(tmp_path, project_dir, range(3, 5))
        window.check_project()
        first = window.statusBar().currentMessage()
        assert first.startswith("2 pages added (3, 4) elsewhere") and "in all" not in first, first
        import_elsewhere(tmp_path, project_dir, range(5, 7))  # another import, seconds later
        window.check_project()
        message = window.statusBar().currentMessage()
        found = re.search(r"^2 pages added \(5, 6; 4 in all since (\d\d:\d\d:\d\d), by one import or more\) "
                          r"elsewhere", message)
        assert found, message
        imported = stored_moment(window.project.page("3").imported_at)
        assert imported is not None and found.group(1) == imported.astimezone().strftime("%H:%M:%S")
    finally:
        window.close()
