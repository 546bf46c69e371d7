"""The `recordlens` command as installed: core's commands, plus what only the app can do.

Core's command line (recordlens.core.cli.command) runs without Qt; assembled here, `agent run` also gets the `qt`
browser. Nothing from Qt is imported until a command actually drives a browser, and then under
`DeferredInterruption`: a Ctrl+C or SIGTERM raised inside PySide's first import aborts the process ("Fatal Python
error: libshiboken/signature"), so it is only noted there and handed to the command's handler once the import
is done (exit 130 or 143, as anywhere else).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .qt.interruption import DeferredInterruption  # no Qt in it


def _qt_site_browser(site):  # noqa: ANN001, ANN202 - types live on the Qt side, imported late on purpose
    with DeferredInterruption() as interruption:
        from .agent.qt_browser import QtSiteBrowser
        interruption.check()

    return QtSiteBrowser(site)


def _chromium_capture(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - run_capture's signature
    with DeferredInterruption() as interruption:
        from .agent.site_capture import run_capture
        interruption.check()

    return run_capture(*args, **kwargs)


def main(argv: Sequence[str] | None = None) -> int:
    try:  # Ctrl+C while the modules load is an interruption like any other, not a traceback
        from ..core.agent import register_browser, register_capture_runner
        from ..core.cli import main as core_main
    except KeyboardInterrupt:
        print("recordlens: interrupted", file=sys.stderr)
        return 130

    register_browser("qt", _qt_site_browser, "QtWebEngine with set-of-mark screenshots", screenshots=True)
    register_capture_runner(_chromium_capture)
    return core_main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
