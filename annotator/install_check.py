"""The files of its own the app reads as it starts, looked for before it starts: one missing from the app's folder (a
file deleted, an install or an unpacking cut short) is said in one line that names it and says how to install again,
where reading it deep inside the start would end in a traceback."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from ..core.command_hints import hint_path
from ..core.errors import RecordLensError
from ..core.resource_files import resource_path
from .program import PROG


class IncompleteInstall(RecordLensError):
    """A file RecordLens ships is not where its install put it; `missing` names it."""

    # What a dialog says above it, where the app would otherwise say what the user tried: the install is at fault
    heading = "RecordLens cannot start: its installation is incomplete."

    def __init__(self, missing: str) -> None:
        super().__init__(f"{missing} is missing: the RecordLens installation is incomplete; {how_to_install_again()}")


def missing_file(path: str | Path) -> IncompleteInstall:
    """IncompleteInstall of a file of the app's folder, named as a command would take it."""
    return IncompleteInstall(hint_path(path))


def how_to_install_again() -> str:
    if getattr(sys, "frozen", False):  # the packaged folder (PyInstaller)
        return "unpack its archive (RecordLens-VERSION-PLATFORM-ARCH.tar.gz) again, into an empty folder"
    return ("install it again (`pip install --force-reinstall 'recordlens[app]'`; in a source checkout, restore the "
            "file with `git checkout`)")


def check_files(paths: Iterable[Path]) -> None:
    """IncompleteInstall for the first of `paths` (files of the app's folder) that is not there."""
    for path in paths:
        if not path.exists():
            raise missing_file(path)


def start_files() -> list[Path]:
    """What the app reads as it starts, from its own folder: the scripts every page view injects, and the demo
    project's folders and pages (it opens the demo when no project was open before)."""
    from .labelling.demo_project import demo_dataset, demo_page_files, demo_synthetic
    from .labelling.page_view import OVERLAY
    from .qt.page_scripts import BRIDGE, DOM_RULES, SHADOW_HOST

    return [*(resource_path("js", name) for name in (DOM_RULES, BRIDGE, SHADOW_HOST, OVERLAY)),
            demo_dataset(), demo_synthetic(), *demo_page_files()]


def check_start_files() -> None:
    """IncompleteInstall for the first file the app reads at start that is not there (Qt's qwebchannel.js too)."""
    from .qt import page_scripts

    check_files(start_files())
    page_scripts.qwebchannel_js()


def run_if_installed() -> int:
    """The app (`app.main`), when every file it reads at start is there; else one line on stderr and status 2.
    Its arguments are read first: --help and a wrong argument are answered as ever, without the Qt modules that
    looking for the files loads (a second or more)."""
    from .app import main, parse_args

    parse_args(sys.argv[1:])  # exits on --help or a wrong argument
    try:
        check_start_files()
    except IncompleteInstall as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    return main()
