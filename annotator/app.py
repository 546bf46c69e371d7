"""`recordlens-annotator [PROJECT] [--screenshot PATH [--page NAME] [--review RUN] [--wait S]]`: the desktop app.

Without a project it reopens the project last open (on the page last open), or else the demo project (built on
first use in the user data folder); a project last open that is gone is said, and stays the one the app reopens
while the demo stands in for it. A file given for the project (a desktop's "Open with" gives the file it was
asked about) opens that same project: a saved page (.mhtml, .html) is imported into it, as one dropped on the
window is; another file is said, and the app stays open. `--demo` opens the demo project whatever was open
last. With `--screenshot` it shows the window, opens the page (the first in the list unless named) and, with
`--review`, a run's review, waits until the page and its overlays are drawn (`--wait` seconds at most; by
default 30 s and 2 s more per MB of the page's file), saves the window as PNG and quits, leaving the settings
(project, page, selection remembered) as they were: the way to get a picture of the app on a machine without a
display.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import signal
import socket
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.command_hints import command_name, hint_path
from ..core.errors import RecordLensError
from ..core.version import version_line
from .program import PROG

if TYPE_CHECKING:
    from ..core.store import Project
    from .labelling.main_window import MainWindow


class UsageError(RecordLensError):
    pass


# How long a screenshot waits for its page: most pages are drawn in seconds, but Chromium takes about a second per
# MB of a large one (a 30 MB text node: 10-40 s), so the wait grows with the file.
BASE_WAIT_S = 30.0
WAIT_S_PER_MB = 2.0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=PROG, description="Label and review data records on saved web pages.")
    parser.add_argument("--version", action="version", version=version_line(PROG))
    parser.add_argument("project", nargs="?", type=Path,
                        help="a RecordLens project folder (default: the one last open, else the demo)")
    parser.add_argument("--demo", action="store_true", help="open the demo project, not the project last open")
    parser.add_argument("--demo-dir", type=Path, help=argparse.SUPPRESS)  # tests: build the demo elsewhere
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help="save the window as PNG, then quit")
    parser.add_argument("--page", metavar="NAME", help="with --screenshot: the page to show")
    parser.add_argument("--review", metavar="RUN", help="with --screenshot: review this run (id or method name)")
    parser.add_argument("--size", default="1530x920", metavar="WxH", help="with --screenshot: window size")
    parser.add_argument("--record", type=int, metavar="K",
                        help="with --screenshot: select the page's K-th record and scroll it into view")
    parser.add_argument("--wait", type=float, metavar="SECONDS",
                        help=f"with --screenshot: how long the page may take to load and be drawn (default "
                             f"{BASE_WAIT_S:g} s, plus {WAIT_S_PER_MB:g} s per MB of the page's file)")
    args = parser.parse_args(argv)
    if (args.page or args.review or args.record or args.wait is not None) and not args.screenshot:
        parser.error("--page, --review, --record and --wait go with --screenshot")
    if args.wait is not None and not args.wait > 0:
        parser.error(f"--wait takes a number of seconds above 0, not {args.wait:g}")
    try:
        args.width, args.height = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size takes WIDTHxHEIGHT, not {args.size!r}")
    return args


@dataclass
class Start:
    """The project the app starts on, and, when the demo stands in for the project last open, that project
    (which stays the one last open: opening it again is the user's choice) and what to tell the user."""

    project: Project
    stands_in_for: str | None = None
    notice: str = ""
    demo: bool = False  # the project is the demo project
    page_file: Path | None = None  # a saved page given on the command line, to import into `project`
    file_notice: str = ""  # what became of a file given on the command line in place of a project


def start_for(args: argparse.Namespace) -> Start:
    """The project named, else the one last open, else the demo project; a project last open that is gone or
    cannot be opened is said, and the demo opens in its place. A file given for the project (not its project.db)
    opens what no project given would, and is said: a saved page is to be imported there (`Start.page_file`)."""
    from ..core.page import PAGE_SUFFIXES
    from ..core.store import open_project

    given = args.project
    if given is None or not _a_file_for_the_project(given, args):
        return Start(open_project(given)) if given is not None else _last_or_demo(args)
    start = _last_or_demo(args)
    if not start.demo:
        which = f"the project last open ({hint_path(start.project.root)})"
    elif start.stands_in_for is None and not args.demo:
        which = ("the demo project, as no project of yours was open before (Ctrl+O opens one, or creates one in an "
                 "empty folder)")
    else:
        which = "the demo project"
    if given.suffix.lower() in PAGE_SUFFIXES:
        start.page_file = given
        start.file_notice = f"{hint_path(given)} is a saved page: it is imported into {which}"
    else:
        start.file_notice = (f"{hint_path(given)} is a file, not a RecordLens project or a saved page (.mhtml, "
                             f".html) to import: {which} is open instead")
    return start


def _a_file_for_the_project(given: Path, args: argparse.Namespace) -> bool:
    """Whether `given` is a file (or anything there but a folder) that the start takes as a desktop's "Open with"
    gives it, not as a project: never a project's own database (`open_project` opens its folder), and never in a
    screenshot, which is a script's and pictures the project named (a wrong argument is its error, exit 2)."""
    from ..core.store import PROJECT_DB

    return not args.screenshot and given.name != PROJECT_DB and given.exists() and not given.is_dir()


def _last_or_demo(args: argparse.Namespace) -> Start:
    """The project last open, else the demo project (see `start_for`)."""
    from ..core.store import open_project
    from .labelling.demo_project import open_demo_project
    from .settings import Settings, settings_path

    last = Settings.load(settings_path()).last_project
    if not last or args.demo or args.demo_dir:
        return Start(open_demo_project(args.demo_dir), demo=True)
    if not (Path(last) / "project.db").is_file():
        why = "it is gone (moved, renamed or deleted?)"
    else:
        try:
            return Start(open_project(last))
        except RecordLensError as error:  # damaged, from a newer RecordLens: the demo still opens
            why = f"it cannot be opened: {error}"
    return Start(open_demo_project(args.demo_dir), stands_in_for=last, demo=True,
                 notice=f"the project last open, {hint_path(last)}, is not open: {why}. The demo project is open "
                        "instead; open yours with Ctrl+O (it stays the project the app reopens)")


def open_project_for(args: argparse.Namespace) -> Project:
    """The project the app starts on (see `start_for`)."""
    return start_for(args).project


def find_run(project, wanted: str) -> int:  # noqa: ANN001
    """A run by id, or the latest run of a method."""
    runs = project.runs.all()
    if wanted.isdigit() and any(r.id == int(wanted) for r in runs):
        return int(wanted)
    of_method = [r.id for r in runs if r.method == wanted]
    if not of_method:
        known = ", ".join(f"{r.id} ({r.method})" for r in runs) or "none"
        raise UsageError(f"no run {wanted!r} in {hint_path(project.root)}; runs: {known}")
    return of_method[-1]


def screenshot_wait_s(page_file: Path, wanted: float | None) -> float:
    """The seconds a screenshot waits for its page: `wanted` (--wait), else a default that grows with the file."""
    if wanted is not None:
        return wanted
    try:
        size = page_file.stat().st_size
    except OSError:
        size = 0
    return BASE_WAIT_S + WAIT_S_PER_MB * size / 1e6


def wait_until_drawn(window, args: argparse.Namespace) -> None:  # noqa: ANN001 - a MainWindow
    """Until the page and its records are drawn; a page that is not, named by its name and its file (the browser's
    own address for it is internal), with how to wait longer."""
    name = window.page_name
    page_file = window.project.snapshot_file(name)
    seconds = screenshot_wait_s(page_file, args.wait)
    try:
        window.wait_until_drawn(max(1, round(seconds * 1000)))
    except TimeoutError:
        size = page_file.stat().st_size / 1e6 if page_file.is_file() else 0.0
        raise TimeoutError(f"page {name} ({hint_path(page_file)}, {size:.1f} MB) was not drawn within {seconds:g} s; a "
                           "large page can take longer: give it more time with --wait SECONDS") from None
    except RuntimeError:  # the browser's load failed
        raise UsageError(f"page {name} ({hint_path(page_file)}) did not load in the browser") from None


def take_screenshot(window, args: argparse.Namespace) -> Path:  # noqa: ANN001 - a MainWindow
    window.resize(args.width, args.height)
    window.show()
    if args.page:
        if not window.project.has_page(args.page):
            raise UsageError(f"no page {args.page!r} in {hint_path(window.project.root)}")
        # Raises when the page cannot be shown: the window would keep the page it opened on, and the picture
        # saved would be of that page, not of the one named.
        window.show_page(args.page)
    if args.review:
        window.start_review(find_run(window.project, args.review))
    if window.page_name is None:
        if (name := window.start_page_name()) is None:
            raise UsageError(f"{hint_path(window.project.root)} has no page to show")
        # The page the window opened on could not be shown: say which and why (PageNotShown), rather than "no page",
        # and never save a picture of another page in its place
        window.show_page(name)
    wait_until_drawn(window, args)
    if args.record:
        labels = window.project.labels(window.page_name)
        if not 1 <= args.record <= len(labels):
            raise UsageError(f"page {window.page_name} has {len(labels)} record(s), no record {args.record}")
        window.select_records([labels[args.record - 1].id])
        wait_until_drawn(window, args)
    args.screenshot.parent.mkdir(parents=True, exist_ok=True)
    if not window.snapshot().save(str(args.screenshot), "PNG"):
        raise OSError(f"could not write {hint_path(args.screenshot)}")
    return args.screenshot


# What a start with no screen to show the window on is told (see `qt.env.display_problem`).
NO_DISPLAY_ADVICE = ("the window needs a screen: run it on the desktop (or over `ssh -X`), or save a picture of "
                     f"the window with `{command_name(PROG)} [PROJECT] --screenshot FILE` (`xvfb-run -a` gives it a "
                     "virtual one)")
HEADLESS_PLATFORMS = ("offscreen", "minimal", "vnc")  # Qt platforms no person looks at on this machine
START_ERROR_MS = 120_000  # a start error's dialog closes itself after this: a run nobody answers still ends


def _is_terminal(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except (OSError, ValueError):  # a closed stream
        return False


def _platform() -> str:
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.platformName()


def start_error_wanted() -> bool:
    """Whether a start error is worth a dialog as well as the line on stderr: only when nobody reads a terminal
    (neither stdin nor stderr is one: started from a desktop menu or a file manager, not from a shell) and the
    window would be on a screen a person sees (not a headless Qt platform). A script that starts the app with
    its output piped to it and an X server of its own (xvfb) can still meet the dialog: it closes itself after
    START_ERROR_MS, so the run still ends."""
    return not (_is_terminal(sys.stdin) or _is_terminal(sys.stderr)) and _platform() not in HEADLESS_PLATFORMS


def show_start_error(text: str) -> None:
    """A project that cannot be opened, said in a dialog (see `start_error_wanted`): an app started from a
    desktop menu has no terminal to print to."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QMessageBox

    if not start_error_wanted():
        return
    box = QMessageBox(QMessageBox.Icon.Critical, "RecordLens", text)
    QTimer.singleShot(START_ERROR_MS, box.reject)
    box.exec()


def open_window(args: argparse.Namespace) -> MainWindow:
    """The window on the project to start on. A screenshot leaves the settings as they were (the project, page
    and selection remembered are the user's, not a script's); a demo standing in for a project that is gone
    keeps that project the one last open."""
    from .labelling.main_window import MainWindow
    from .settings import settings_path, settings_trouble

    # Asked before any read of the settings (the start's, the window's), which would say an unreadable file again,
    # and before the window's first page saves them (a save that fails says so itself, once); a screenshot saves none
    trouble = None if args.screenshot else settings_trouble(settings_path())
    start = start_for(args)
    window = MainWindow(start.project, saves_settings=not args.screenshot, stands_in_for=start.stands_in_for)
    window.say_upgrades(on_screen=not args.screenshot)
    if trouble is not None:
        say_settings_trouble(window, trouble)
    # Last: the status bar shows one message for good, the last said (the upgrades stay under Recent messages),
    # and this one says that the project open is not the user's. Not in a screenshot: it would be in the picture.
    if start.notice and not args.screenshot:
        window.message(start.notice, 0)
    if start.file_notice:  # a file given for the project, which a screenshot never takes (`_a_file_for_the_project`)
        print(f"{PROG}: {start.file_notice}", file=sys.stderr)
        window.message(start.file_notice, 0)
    if start.page_file is not None:
        window.importing.import_paths([start.page_file])  # as a drop on the window imports it
    return window


def say_settings_trouble(window: MainWindow, said: str) -> None:
    """Settings that cannot be saved or read (`said`, `settings.settings_trouble`'s one line), said in the window
    and on stderr at the start: the window reads them and saves them at each page and at the quit without a word,
    so what it did not keep would otherwise go unsaid."""
    print(f"{PROG}: warning: {said}", file=sys.stderr)
    window.message(said, 15000)


@contextlib.contextmanager
def closed_on_terminate(window: MainWindow) -> Iterator[None]:
    """While inside, SIGTERM (`kill PID`, a session logging out) closes the window as Ctrl+Q does, so that what
    a quit saves (the selection, the window's place) is saved. Python runs a signal's handler only between its
    own steps, and Qt's event loop takes none while idle: the signal writes to a socket Qt watches, which wakes
    the loop into Python."""
    from PySide6.QtCore import QSocketNotifier, QTimer

    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(lambda *_: reader.recv(64))
    previous_fd = signal.set_wakeup_fd(writer.fileno())
    # Queued rather than done in the handler: a signal that comes before the loop runs closes the window once it
    # does, instead of before the loop starts (which would then wait for ever)
    previous = signal.signal(signal.SIGTERM, lambda *_: QTimer.singleShot(0, window.close_on_terminate))
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.set_wakeup_fd(previous_fd)
        notifier.setEnabled(False)
        reader.close()
        writer.close()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.WARNING, format=f"{PROG}: %(levelname)s: %(message)s")
    from .qt import env as qt_env

    problem = qt_env.display_problem(headless_allowed=bool(args.screenshot))
    if problem is not None:
        print(f"{PROG}: error: {problem}: {NO_DISPLAY_ADVICE}", file=sys.stderr)
        return 2
    app = qt_env.create_application([sys.argv[0] if sys.argv and sys.argv[0] else PROG])
    try:
        window = open_window(args)
    except (RecordLensError, OSError) as error:  # an OSError unforeseen is said as one too, never a traceback
        print(f"{PROG}: error: {error}", file=sys.stderr)
        if not args.screenshot:  # a script reads stderr; a person may have started the app from a menu
            # A file missing from the app's folder (the page view's scripts, the demo's pages) is no fault of the
            # project's: its heading says the install is (IncompleteInstall), as an unwritable data folder's says
            # the demo could not be built (DemoNotBuilt)
            show_start_error(f"{getattr(error, 'heading', 'The project cannot be opened.')}\n\n{error}")
        return 2
    try:
        if args.screenshot:
            path = take_screenshot(window, args)
            print(f"screenshot saved to {hint_path(path)}")
            return 0
        window.restore_geometry()  # where the last quit left it, on this screen; else a first place that fits it
        window.show()
        with closed_on_terminate(window):
            return app.exec()
    except (RecordLensError, OSError, TimeoutError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    finally:
        window.close()  # closeEvent shuts down; a window left open would keep taking input in a host process
        window.shutdown()
