"""`recordlens-annotator [PROJECT] [--screenshot PATH [--page NAME] [--review RUN]]`: the desktop app.

Without a project it reopens the project last open (on the page last open), or else the demo project (built on
first use in the user data folder); `--demo` opens the demo project whatever was open last. With `--screenshot`
it shows the window, opens the page (the first in the list unless named) and, with `--review`, a run's
review, waits until the page and its overlays are drawn, saves the window as PNG and quits: the way to get a
picture of the app on a machine without a display.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from ..core.errors import RecordLensError

PROG = "recordlens-annotator"


class UsageError(RecordLensError):
    pass


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=PROG, description="Label and review data records on saved web pages.")
    parser.add_argument("project", nargs="?", type=Path, help="a RecordLens project folder (default: the demo)")
    parser.add_argument("--demo", action="store_true", help="open the demo project, not the project last open")
    parser.add_argument("--demo-dir", type=Path, help=argparse.SUPPRESS)  # tests: build the demo elsewhere
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help="save the window as PNG, then quit")
    parser.add_argument("--page", metavar="NAME", help="with --screenshot: the page to show")
    parser.add_argument("--review", metavar="RUN", help="with --screenshot: review this run (id or method name)")
    parser.add_argument("--size", default="1530x920", metavar="WxH", help="with --screenshot: window size")
    parser.add_argument("--record", type=int, metavar="K",
                        help="with --screenshot: select the page's K-th record and scroll it into view")
    args = parser.parse_args(argv)
    if (args.page or args.review or args.record) and not args.screenshot:
        parser.error("--page, --review and --record go with --screenshot")
    try:
        args.width, args.height = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size takes WIDTHxHEIGHT, not {args.size!r}")
    return args


def open_project_for(args: argparse.Namespace):  # noqa: ANN201 - a core Project
    """The project named, else the one last open (when it is still a project), else the demo project."""
    from ..core.store import open_project
    from .labelling.demo_project import open_demo_project
    from .settings import Settings, settings_path

    if args.project is not None:
        return open_project(args.project)
    last = Settings.load(settings_path()).last_project
    if last and not (args.demo or args.demo_dir) and (Path(last) / "project.db").is_file():
        try:
            return open_project(last)
        except RecordLensError as error:  # moved, damaged, from a newer RecordLens: the demo still opens
            logging.getLogger(__name__).warning("the project last open cannot be opened (%s); the demo opens", error)
    return open_demo_project(args.demo_dir)


def find_run(project, wanted: str) -> int:  # noqa: ANN001
    """A run by id, or the latest run of a method."""
    runs = project.runs.all()
    if wanted.isdigit() and any(r.id == int(wanted) for r in runs):
        return int(wanted)
    of_method = [r.id for r in runs if r.method == wanted]
    if not of_method:
        known = ", ".join(f"{r.id} ({r.method})" for r in runs) or "none"
        raise UsageError(f"no run {wanted!r} in {project.root}; runs: {known}")
    return of_method[-1]


def take_screenshot(window, args: argparse.Namespace) -> Path:  # noqa: ANN001 - a MainWindow
    window.resize(args.width, args.height)
    window.show()
    if args.page:
        if not window.project.has_page(args.page):
            raise UsageError(f"no page {args.page!r} in {window.project.root}")
        window.open_page(args.page)
    if args.review:
        window.start_review(find_run(window.project, args.review))
    if window.page_name is None:
        raise UsageError(f"{window.project.root} has no page to show")
    window.wait_until_drawn()
    if args.record:
        labels = window.project.labels(window.page_name)
        if not 1 <= args.record <= len(labels):
            raise UsageError(f"page {window.page_name} has {len(labels)} record(s), no record {args.record}")
        window.select_records([labels[args.record - 1].id])
        window.wait_until_drawn()
    args.screenshot.parent.mkdir(parents=True, exist_ok=True)
    if not window.snapshot().save(str(args.screenshot), "PNG"):
        raise OSError(f"could not write {args.screenshot}")
    return args.screenshot


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.WARNING, format=f"{PROG}: %(levelname)s: %(message)s")
    from .qt import env as qt_env

    app = qt_env.create_application([sys.argv[0] if sys.argv and sys.argv[0] else PROG])
    from .labelling.main_window import MainWindow

    try:
        project = open_project_for(args)
    except RecordLensError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    window = MainWindow(project)
    try:
        if args.screenshot:
            path = take_screenshot(window, args)
            print(f"screenshot saved to {path}")
            return 0
        window.restore_geometry()  # where the last quit left it; the window's own size the first time
        window.show()
        return app.exec()
    except (RecordLensError, OSError, TimeoutError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    finally:
        window.close()  # closeEvent shuts down; a window left open would keep taking input in a host process
        window.shutdown()


if __name__ == "__main__":
    sys.exit(main())
