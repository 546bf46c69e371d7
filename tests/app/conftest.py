"""One QApplication for the whole session, created the way the app creates it (see annotator/qt_env.py).

Chromium reads its flags (`--no-sandbox` as root, no GPU, no background networking) and Qt its platform once,
when the QApplication is created, and the page scheme must be registered before that: so this runs at import
time, before pytest-qt's `qapp` fixture can create the application.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from recordlens.core.store.project import Project

if not os.environ.get("QT_QPA_PLATFORM"):
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
# The app remembers the project and page last open in the user's settings: tests keep theirs in a folder of
# their own, so that no test reads what another (or the developer's own use of the app) left there.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="recordlens-test-config-")
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="recordlens-test-data-")  # the demo project, built once
# The app shows times in the local zone: the tests' own, whatever the machine's, so that a time shown is known.
os.environ["TZ"] = "UTC"
time.tzset()

from recordlens.annotator.qt import env as qt_env  # noqa: E402  (environment first)

qt_env.prepare()

from recordlens.annotator.labelling import main_window  # noqa: E402

# A window looks at its project on a timer; the tests call `check_project` where the timer would, so that what a
# test sees never depends on when a tick falls (and the windows of hundreds of tests do not poll the database).
main_window.WATCH_MS = 0


@pytest.fixture(scope="session")
def qapp_args() -> list[str]:
    # Chromium takes argv[0] as the program name; an empty argv breaks it.
    return ["recordlens-tests"]


@pytest.fixture(autouse=True)
def collect_in_the_gui_thread(qapp):
    """Cycles collected in the GUI thread only, as the app collects them (`create_application`): pytest-qt makes
    the session's QApplication itself. The root conftest collects after each test and hands collection back for
    tests outside tests/app."""
    from recordlens.annotator.qt.main_thread_gc import collect_in_the_gui_thread as collector_of

    collector_of(qapp)


@pytest.fixture(scope="module")
def offline_page(qapp):
    """A page with a view, shared by a module's tests (loading into one view is what the app does)."""
    from recordlens.annotator.qt.page_loader import OfflinePage

    page = OfflinePage(with_view=True)
    page.view.resize(1280, 900)
    page.view.show()
    yield page
    page.close()


@pytest.fixture(scope="module")
def page_view(qapp):
    """The annotator's page view, shared by a module's tests (one view, pages opened into it as the app does)."""
    from recordlens.annotator.labelling.page_view import PageView

    view = PageView()
    view.resize(1280, 900)
    view.show()
    yield view
    view.dispose()


@pytest.fixture
def project_dir(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test's own copy of the demo project (tests/app/demo_project.py), in `tmp_path`; a module that opens
    another project defines a `project_dir` of its own."""
    from tests.app.demo_project import demo_project_in

    return demo_project_in(tmp_path, tmp_path_factory)


@pytest.fixture
def window(qtbot, tmp_path: Path, project_dir: Path) -> Iterator[main_window.MainWindow]:
    """The main window on `project_dir`, its first page loaded; closed after the test."""
    from tests.app.window_helpers import open_window

    win = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    yield win
    win.close()


@pytest.fixture
def project(window: main_window.MainWindow) -> Project:
    """The project the `window` has open."""
    return window.project


@pytest.fixture
def in_newfoundland(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test in a zone 3.5 hours behind UTC in December (NST), and 2.5 in July (NDT); in UTC again after."""
    monkeypatch.setenv("TZ", "America/St_Johns")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()
