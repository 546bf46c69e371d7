"""Where the user is on the page (its scroll, the records selected) is kept as it changes, a second after the last
change, not only at quit: an app killed (`kill -9`, a crash, the power gone) reopens the project on its page
scrolled as it was and with those records selected, as a quit leaves it. A run of scroll events makes one write, not
one each. The kill is stood for by a second window opened on the project while the first is still open: its quit
has not run, so what the second finds is what was on disk."""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import pytest

from recordlens.annotator.labelling import main_window
from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.settings import Settings
from tests.app.window_helpers import TALL_TRUTH, tall_project, window_as_started

pytestmark = pytest.mark.app

RECORD = 40  # the record selected, left AT px below the top of the view
AT = 120
BURST = 12  # scroll events in a row, as a wheel turned makes


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    return tall_project(tmp_path)


def scrolled_to(qtbot, window: MainWindow, y: int) -> None:  # noqa: ANN001
    window.page_view.scroll_to_y(y)
    qtbot.waitUntil(lambda: window.page_view.scroll_y == y, timeout=10_000)


def on_disk(settings_file: Path, folder: Path) -> tuple[list[int], int | None]:
    """The selection and scroll the settings file keeps for page 1 of the project in `folder`."""
    kept, key = Settings.load(settings_file), str(folder.resolve())
    return kept.last_selection(key, "1"), kept.last_scroll(key, "1")


def test_the_scroll_and_selection_survive_a_kill(qtbot, tmp_path: Path, project_dir: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    settings_file = tmp_path / "settings.json"
    saves: list[Path] = []
    real_save = Settings.save

    def counted_save(self: Settings, path: Path) -> None:
        saves.append(path)
        real_save(self, path)

    monkeypatch.setattr(Settings, "save", counted_save)
    first = window_as_started(qtbot, project_dir, settings_file)
    second = None
    try:
        chosen = first.labels[RECORD - 1].id
        first.select_records([chosen], scroll=False)
        top = first.page_view.locate(TALL_TRUTH[RECORD - 1])[0].rect[1]
        y = round(top - AT)
        heard: list[float] = []  # when each scroll reached the window
        first.page_view.scrolled.connect(lambda _y: heard.append(time.monotonic()))
        saves.clear()
        for step in range(BURST, 0, -1):  # a wheel's run of scrolls, each one heard by the window
            scrolled_to(qtbot, first, y - 10 * step)
        scrolled_to(qtbot, first, y)
        # kept within seconds of the last change, with no quit
        qtbot.waitUntil(lambda: on_disk(settings_file, project_dir) == ([chosen], y), timeout=15_000)
        qtbot.wait(2 * main_window.PLACE_KEPT_MS)
        # one write for the run; another only where a busy machine let a scroll come a whole wait after the last
        wait_s = main_window.PLACE_KEPT_MS / 1000
        pauses = sum(later - earlier >= wait_s for earlier, later in itertools.pairwise(heard))
        assert len(heard) > BURST and 1 <= len(saves) <= 1 + pauses, f"{len(saves)} writes for {len(heard)} scrolls"
        # the app killed: its quit never runs, and the next start finds the page as it was left
        second = window_as_started(qtbot, project_dir, settings_file)
        assert second.record_panel.selected_ids() == [second.labels[RECORD - 1].id]
        qtbot.waitUntil(lambda: second.page_view.scroll_y == y, timeout=10_000)
        assert second.page_view.offline.run_js("window.scrollY") == y
    finally:
        if second is not None:
            second.close()
        first.close()


def test_what_the_last_quit_kept_is_not_written_over_before_the_first_page_is_put_back(
        qtbot, tmp_path: Path, project_dir: Path) -> None:
    """The window's first page scrolls and selects as it is put back: only then is its place its own to keep."""
    settings_file = tmp_path / "settings.json"
    first = window_as_started(qtbot, project_dir, settings_file)
    try:
        chosen = first.labels[RECORD - 1].id
        first.select_records([chosen])
        qtbot.waitUntil(lambda: on_disk(settings_file, project_dir)[0] == [chosen], timeout=15_000)
    finally:
        first.close()
    kept = on_disk(settings_file, project_dir)
    again = window_as_started(qtbot, project_dir, settings_file)
    try:
        assert again.record_panel.selected_ids() == [chosen]
        qtbot.wait(2 * main_window.PLACE_KEPT_MS)
        assert on_disk(settings_file, project_dir) == kept
    finally:
        again.close()
