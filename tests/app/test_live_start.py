"""How the app starts and stops around the user's project and settings: a project last open that is gone is said
and stays remembered, one that cannot be opened gets a dialog only where nobody reads a terminal, a screenshot
leaves the settings alone and shows no start-up notice, and SIGTERM saves what Ctrl+Q saves, also sent to the
app's process while its event loop is idle."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from recordlens.annotator import app
from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.program import PROG
from recordlens.annotator.settings import Settings
from recordlens.core.store import open_project
from tests.app.window_helpers import FakeKeyStore, imported_project, keep_app_state_private, open_window

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>One</title></head><body><ul>
<li><b>Camera</b> <i>$399</i></li><li><b>Lens</b> <i>$129</i></li></ul></body></html>"""


@pytest.fixture
def settings_file(monkeypatch, tmp_path: Path) -> Path:
    """The app's settings in the test's folder, and no real keyring."""
    return keep_app_state_private(monkeypatch, tmp_path)


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    return imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps([["/body[1]/ul[1]/li[1]"]])})


def test_a_project_last_open_that_is_gone_is_said_and_stays_the_one_last_open(qapp, tmp_path, settings_file):
    gone = str(tmp_path / "moved-away")
    Settings(last_project=gone).save(settings_file)
    window = app.open_window(app.parse_args([]))
    try:
        assert window.project.root.name.startswith("demo-project")
        assert f"the project last open, {gone}, is not open: it is gone" in window.statusBar().currentMessage()
        assert "open yours with Ctrl+O" in window.messages.text()
        window.open_page(window.project.pages()[-1].name)
    finally:
        window.close()
    assert Settings.load(settings_file).last_project == gone


def test_a_project_that_cannot_be_opened_gets_a_dialog_unless_it_is_a_screenshot(qapp, tmp_path, monkeypatch,
                                                                                 settings_file, project_dir, capsys):
    with (project_dir / "project.db").open("r+b") as database:
        database.write(b"not a database at all, " * 8)
    shown: list[str] = []
    monkeypatch.setattr(app, "show_start_error", shown.append)
    assert app.main([str(project_dir)]) == 2
    assert len(shown) == 1 and "cannot open the project database (file is not a database)" in shown[0]
    assert "cannot open the project database" in capsys.readouterr().err
    assert app.main([str(project_dir), "--screenshot", str(tmp_path / "x.png")]) == 2
    assert len(shown) == 1  # a script's run says it on stderr only


def test_a_screenshot_leaves_the_settings_as_they_were(qapp, tmp_path, settings_file, project_dir):
    Settings(last_project="/somewhere/else", last_pages=json.dumps({"/somewhere/else": "7"})).save(settings_file)
    before = settings_file.read_bytes()
    assert app.main([str(project_dir), "--screenshot", str(tmp_path / "shot.png"), "--page", "1",
                     "--record", "1", "--size", "900x600"]) == 0
    assert (tmp_path / "shot.png").is_file()
    assert settings_file.read_bytes() == before


def test_sigterm_closes_the_window_as_ctrl_q_does(qtbot, tmp_path, project_dir):
    settings_file = tmp_path / "settings.json"
    window = open_window(project_dir, settings_file, qtbot=qtbot)
    try:
        window.select_records([window.labels[0].id])
        handler = signal.getsignal(signal.SIGTERM)
        with app.closed_on_terminate(window):
            signal.raise_signal(signal.SIGTERM)
            qtbot.waitUntil(lambda: not window.isVisible())
    finally:
        window.close()
    kept = Settings.load(settings_file)
    assert kept.last_selection(str(project_dir.resolve()), "1") == [window.labels[0].id]
    assert kept.window_geometry
    assert signal.getsignal(signal.SIGTERM) is handler  # given back as it was


class Stream(io.StringIO):
    """stdin or stderr, a terminal or not."""

    def __init__(self, terminal: bool) -> None:
        super().__init__()
        self.terminal = terminal

    def isatty(self) -> bool:
        return self.terminal


@pytest.mark.parametrize(("platform", "terminal", "dialog"), [
    ("xcb", False, True),  # started from a desktop menu: nobody reads stderr
    ("xcb", True, False),  # started from a shell: the terminal says it
    ("offscreen", False, False),  # nobody would see the dialog to close it
])
def test_a_start_error_gets_a_dialog_only_where_nobody_reads_a_terminal(qapp, monkeypatch, settings_file,
                                                                        project_dir, platform, terminal, dialog):
    from PySide6.QtWidgets import QMessageBox

    with (project_dir / "project.db").open("r+b") as database:
        database.write(b"not a database at all, " * 8)
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: shown.append(box.text()) or 0)
    monkeypatch.setattr(app, "_platform", lambda: platform)
    monkeypatch.setattr(sys, "stdin", Stream(terminal))
    monkeypatch.setattr(sys, "stderr", Stream(terminal))
    assert app.main([str(project_dir)]) == 2
    assert "cannot open the project database" in sys.stderr.getvalue()
    assert bool(shown) == dialog


def test_a_screenshot_shows_no_start_up_notice(qtbot, tmp_path, settings_file, project_dir):
    open_first = open_window(project_dir, tmp_path / "first.json", qtbot=qtbot)
    shot = MainWindow(open_project(project_dir), settings_file=settings_file, key_store=FakeKeyStore(),
                      saves_settings=False)
    try:
        assert "open in another RecordLens window" not in shot.messages.text()
    finally:
        shot.close()
        open_first.close()
    Settings(last_project=str(tmp_path / "moved-away")).save(settings_file)
    window = app.open_window(app.parse_args(["--screenshot", str(tmp_path / "x.png")]))
    try:
        assert "is not open" not in window.messages.text()
    finally:
        window.close()


def said(stderr: Path) -> str:
    """The end of what the app wrote to its stderr (Chromium's lines included), kept in a file as it runs."""
    return repr(stderr.read_text(encoding="utf-8", errors="replace")[-3000:])


def wait_for(condition, what: str, process: subprocess.Popen, stderr: Path, timeout_s: float = 60.0) -> None:
    """Until `condition()` holds, the app's process still running (else what it wrote to `stderr` is shown)."""
    end = time.monotonic() + timeout_s
    while not condition():
        if process.poll() is not None:
            raise AssertionError(f"the app ended (exit {process.returncode}) before {what}: {said(stderr)}")
        if time.monotonic() > end:
            raise AssertionError(f"no {what} within {timeout_s:.0f} s; the app's stderr: {said(stderr)}")
        time.sleep(0.1)


def catches_sigterm(pid: int) -> bool:
    """Whether the process has a handler for SIGTERM (Linux: the caught signals' mask in /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) & (1 << (signal.SIGTERM - 1)))
    return False


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads /proc to know the handler is in place")
def test_sigterm_to_the_app_process_saves_its_settings_and_exits_0(tmp_path, project_dir):
    """The real path: SIGTERM to `recordlens-annotator PROJECT` while its Qt loop is idle wakes the loop through
    the signal's wakeup socket, and the window closes as Ctrl+Q does."""
    home = tmp_path / "home"
    environment = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
                   "XDG_DATA_HOME": str(home / "data"), "QT_QPA_PLATFORM": "offscreen",
                   "QTWEBENGINE_CHROMIUM_FLAGS": "--no-sandbox"}
    settings_file = home / "config" / "recordlens" / "annotator.json"
    # `recordlens-annotator PROJECT` as its script runs it, with the window's watch timer and the GUI thread's
    # collector (`main_thread_gc.CHECK_MS`) off: a tick of either runs Python, which would also take the signal,
    # without the wakeup socket under test (with the collector on, the test passed without the socket).
    # The page's records drawn (its last Python callback: the loop idles after it) are told by a file.
    drawn = tmp_path / "drawn"
    start = ("import sys; from recordlens.annotator.labelling import main_window; main_window.WATCH_MS = 0; "
             "from recordlens.annotator.qt import main_thread_gc; main_thread_gc.CHECK_MS = 3_600_000; "
             "from recordlens.annotator.labelling.page_view import PageView; told = PageView._announce_drawn; "
             f"PageView._announce_drawn = lambda self: (told(self), open({str(drawn)!r}, 'w').close()); "
             "from recordlens.annotator.app import main; sys.argv[0] = 'recordlens-annotator'; sys.exit(main())")
    # Its stderr goes to a file: a pipe nobody reads while the app runs fills (64 KB of Chromium's lines) and the
    # app, blocked writing to it, would never get up
    stderr = tmp_path / "app-stderr.txt"
    with stderr.open("wb") as written:
        process = subprocess.Popen([sys.executable, "-c", start, str(project_dir)], env=environment,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=written)
    try:
        wait_for(settings_file.is_file, "settings file (the window is up)", process, stderr)
        wait_for(lambda: catches_sigterm(process.pid), "SIGTERM handler (the loop is about to run)", process, stderr)
        # The page loaded and drawn: the loop then idles in Qt, where only the wakeup socket brings Python back (a
        # signal sent sooner would be taken by the page's own Python callbacks). Not an assertion: sent sooner,
        # the test still passes, it only proves less.
        wait_for(drawn.is_file, "page drawn", process, stderr)
        time.sleep(0.5)  # the callbacks that came with the drawing over
        process.send_signal(signal.SIGTERM)
        try:
            ended = process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"SIGTERM did not end the idle app: its handler never ran; its stderr: "
                                 f"{said(stderr)}") from None
        assert ended == 0, said(stderr)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    kept = Settings.load(settings_file)
    assert kept.window_geometry  # what a quit saves
    assert kept.last_project == str(project_dir.resolve())


def test_a_project_of_an_earlier_schema_is_said_upgraded_in_the_status_bar_and_on_stderr(qapp, tmp_path,
                                                                                         settings_file, capsys):
    """The app brought an older project up to date and said nothing: the RecordLens that made it then refused it."""
    from recordlens.core.store import take_upgrades
    from tests.core.old_projects import a_version_3_project

    take_upgrades()  # those of other tests of this process
    old = a_version_3_project(tmp_path / "old")
    window = app.open_window(app.parse_args([str(old)]))
    try:
        message = window.statusBar().currentMessage()
        assert message.startswith(f"{old}: project brought up from schema 3 to ")
        assert "removed/project-schema-3." in message
        assert "put it back as" in window.messages.text()
        assert "recordlens-annotator: " + message in capsys.readouterr().err
    finally:
        window.close()
    assert not take_upgrades()  # said once


def test_the_notice_that_the_demo_is_open_instead_is_not_hidden_by_an_upgrade(qapp, tmp_path, settings_file, capsys):
    # The status bar showed the notice, then each upgrade over it: "the demo project is open instead" was gone.
    from recordlens.core.store import open_project, take_upgrades
    from tests.core.old_projects import a_version_3_project

    take_upgrades()  # those of other tests of this process
    open_project(a_version_3_project(tmp_path / "old")).close()  # brought up, not said yet: the window says it
    gone = str(tmp_path / "moved-away")
    Settings(last_project=gone).save(settings_file)
    window = app.open_window(app.parse_args([]))
    try:
        shown = window.statusBar().currentMessage()
        assert shown.startswith(f"the project last open, {gone}, is not open") and "open instead" in shown
        recent = window.messages.text()
        assert "project brought up from schema 3 to " in recent and "open instead" in recent
        assert f"{PROG}: {tmp_path / 'old'}: project brought up from schema 3" in capsys.readouterr().err
    finally:
        window.close()
