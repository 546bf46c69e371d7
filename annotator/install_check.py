"""The files of its own the app reads as it starts, and those QtWebEngine cannot start without, looked for before it
starts: one missing from the app's folder (a file deleted, an install or an unpacking cut short) is said in one line
that names it and says how to install again, where reading it deep inside the start would end in a traceback (or
QtWebEngine would abort the process in Qt's words, or show blank pages). The words are core's
(`core/incomplete_install.py`), which a command says of the shipped model too."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..core.incomplete_install import IncompleteInstall, missing_file
from ..core.incomplete_install import how_to_install_again as how_to_install_again  # the app's modules say it too
from ..core.resource_files import resource_path
from .program import PROG

# QtWebEngine's data files, in its resources folder, that it cannot start without: without the .pak or ICU's data
# Chromium aborts the process (SIGABRT, SIGTRAP) in its own words; without V8's snapshot every page stays blank.
WEBENGINE_RESOURCES = ("qtwebengine_resources.pak", "icudtl.dat", "v8_context_snapshot.bin")
WEBENGINE_PROCESS = "QtWebEngineProcess"  # its helper program: without it, Qt aborts the process (SIGABRT)


def check_files(paths: Iterable[Path]) -> None:
    """IncompleteInstall for the first of `paths` (files of the app's folder) that is not there."""
    for path in paths:
        if not path.exists():
            raise missing_file(path)


def start_files() -> list[Path]:
    """What the app reads as it starts, from its own folder: the scripts every page view injects, and the demo
    project's folders and pages (it opens the demo when no project was open before); and the shipped selector
    model, read only at the first Propose, but one missing is the install's fault as much (`recordlens extract`
    says so at its start): said at the app's start too, not as Propose's failure later."""
    from ..core.extract import shipped_model
    from .labelling.demo_project import demo_dataset, demo_page_files, demo_synthetic
    from .labelling.page_view import FIELDS_TAKE_NO_KEYS, OVERLAY
    from .qt.page_scripts import BRIDGE, DOM_RULES, SHADOW_HOST

    return [*(resource_path("js", name) for name in (DOM_RULES, BRIDGE, SHADOW_HOST, OVERLAY,
                                                                    FIELDS_TAKE_NO_KEYS)),
            demo_dataset(), demo_synthetic(), *demo_page_files(), shipped_model()]


def webengine_files(environ: Mapping[str, str] = os.environ) -> list[Path]:
    """QtWebEngine's own files that it cannot start without, where Qt looks for them: where PySide6's Qt says its
    helper programs and data are (its folder in a venv or in the packaged folder alike), unless the variables that
    Qt reads instead name other places. Only on Linux, the one system whose layout this was tried on."""
    if not sys.platform.startswith("linux"):
        return []
    from PySide6.QtCore import QLibraryInfo

    where = QLibraryInfo.LibraryPath
    process = environ.get("QTWEBENGINEPROCESS_PATH") or os.path.join(
        QLibraryInfo.path(where.LibraryExecutablesPath), WEBENGINE_PROCESS)
    resources = environ.get("QTWEBENGINE_RESOURCES_PATH") or os.path.join(QLibraryInfo.path(where.DataPath),
                                                                           "resources")
    return [Path(process), *(Path(resources, name) for name in WEBENGINE_RESOURCES)]


def check_start_files() -> None:
    """IncompleteInstall for the first file the app reads at start that is not there: QtWebEngine's own first, then
    RecordLens's, then Qt's qwebchannel.js."""
    check_files(webengine_files())  # before any module of QtWebEngine is loaded
    check_files(start_files())
    from .qt import page_scripts

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
