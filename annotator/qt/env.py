"""The one place that prepares the process for QtWebEngine, before any QApplication exists.

Chromium reads its flags and Qt its platform once, when the application object is created, and custom URL
schemes must be registered before that too. Calling `prepare()` later than that has no effect, so every entry
point (the app, the tests) goes through `create_application()` or calls `prepare()` first.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from collections.abc import Mapping

# The scheme that serves page HTML from memory with its charset stated (see page_loader).
PAGE_SCHEME = b"recordlens-page"

# Replay must be offline and identical every time: no GPU process quirks on headless machines, and none of
# Chromium's own traffic (component updates, safe browsing, DNS prefetch, metrics, pings).
_BASE_FLAGS = (
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--disable-sync",
    "--dns-prefetch-disable",
    "--no-pings",
    "--no-first-run",
    "--metrics-recording-only",
    # Every connection Chromium opens goes to a closed local port. The request interceptor never sees
    # `<link rel=preconnect>`, which opens a TCP connection (after a DNS lookup) to the page's hosts:
    # through this "proxy" it reaches nothing, and no remote name is ever resolved. `<-loopback>` removes
    # Chromium's implicit proxy bypass for localhost, so 127.0.0.1 is no exception.
    "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
)

_prepared = False


def chromium_flags(existing: str = "") -> str:
    """`existing` plus the flags RecordLens needs, each added once."""
    flags = existing.split()
    wanted = list(_BASE_FLAGS)
    # Chromium's sandbox refuses to start as root (CI and containers run as root).
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        wanted.insert(0, "--no-sandbox")
    for flag in wanted:
        name = flag.split("=", 1)[0]
        if not any(f in (flag, name) or f.startswith(name + "=") for f in flags):
            flags.append(flag)
    return " ".join(flags)


def prepare() -> None:
    """Everything that must happen before the QApplication exists: environment, page scheme, GL sharing.

    Idempotent."""
    global _prepared
    if _prepared:
        return
    os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] = chromium_flags(os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", ""))
    # A user's explicit platform choice wins; only a machine with no display at all gets offscreen (a program with
    # no window to show, a screenshot: the annotator's window refuses first, see `display_problem`).
    if not os.environ.get("QT_QPA_PLATFORM") and not has_its_own_screen() and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    _register_page_scheme()
    # QtWebEngine shares GL contexts with the widgets; it must be imported and this set before QApplication.
    import PySide6.QtWebEngineWidgets  # noqa: F401
    from PySide6.QtCore import QCoreApplication, Qt

    QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
    _prepared = True


def has_its_own_screen() -> bool:
    """Whether the system shows windows without DISPLAY or WAYLAND_DISPLAY naming a server (macOS, Windows)."""
    return sys.platform in ("darwin", "win32")


def display_problem(environ: Mapping[str, str] = os.environ, *, headless_allowed: bool = False) -> str | None:
    """Why a window cannot be shown here, said before Qt is asked (None: it can). With no display Qt would fall
    back to its offscreen platform (see `prepare`) and an interactive app would wait for ever for keys nobody can
    press; with an X display it cannot reach, Qt aborts with advice to reinstall. A platform chosen explicitly
    (QT_QPA_PLATFORM: the tests', a CI's) is left to Qt, and `headless_allowed` (a screenshot) takes offscreen."""
    if environ.get("QT_QPA_PLATFORM") or has_its_own_screen():
        return None
    display, wayland = environ.get("DISPLAY"), environ.get("WAYLAND_DISPLAY")
    if not (display or wayland):
        return None if headless_allowed else "no display (DISPLAY is not set)"
    if display and not wayland and not _x_display_reachable(display):
        return f"cannot connect to display {display} (a stale DISPLAY, or an `ssh -X` session that has ended?)"
    return None


def _x_display_reachable(display: str) -> bool:
    """Whether an X connection to `display` opens, asked of libxcb as Qt's xcb platform asks it (its address,
    its authorisation). Without libxcb nothing can be told: Qt is left to say what it says."""
    library = ctypes.util.find_library("xcb")
    if library is None:
        return True
    try:
        xcb = ctypes.CDLL(library)
    except OSError:
        return True
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = (ctypes.c_char_p, ctypes.c_void_p)
    xcb.xcb_connection_has_error.argtypes = (ctypes.c_void_p,)
    xcb.xcb_disconnect.argtypes = (ctypes.c_void_p,)
    connection = xcb.xcb_connect(display.encode(), None)
    try:
        return xcb.xcb_connection_has_error(connection) == 0
    finally:
        xcb.xcb_disconnect(connection)  # an error connection is freed the same way


def _register_page_scheme() -> None:
    from PySide6.QtWebEngineCore import QWebEngineUrlScheme

    if QWebEngineUrlScheme.schemeByName(PAGE_SCHEME).name() == PAGE_SCHEME:
        return
    scheme = QWebEngineUrlScheme(PAGE_SCHEME)
    scheme.setSyntax(QWebEngineUrlScheme.Syntax.Path)
    # Secure and local: a served page is treated like a file on disk, not like a remote origin.
    # `cid:` is deliberately NOT registered: inside MHTML Chromium resolves it from the archive, and a
    # registered cid scheme made those parts "local resources" that the page was not allowed to load.
    flag = QWebEngineUrlScheme.Flag
    scheme.setFlags(flag.SecureScheme | flag.LocalScheme)
    QWebEngineUrlScheme.registerScheme(scheme)


def create_application(argv: list[str] | None = None):
    """The process's QApplication (the existing one if there is one), prepared for QtWebEngine."""
    prepare()
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is not None:
        return app
    # Chromium takes argv[0] as its program name and misbehaves with an empty argv.
    args = list(argv) if argv else []
    if not args:
        args = [sys.argv[0] if sys.argv and sys.argv[0] else "recordlens"]
    app = QApplication(args)
    _give_the_windows_their_icon(app)
    from .fonts import no_fonts
    from .main_thread_gc import collect_in_the_gui_thread

    collect_in_the_gui_thread(app)  # never in a job's thread, where freeing a Qt object crashes the process
    no_fonts()  # before any window or page: on a machine with none it is said, and the font carried is added
    return app


def _give_the_windows_their_icon(app) -> None:  # noqa: ANN001 - a QApplication, imported late
    """The app's icon on every window (title bar, task switcher; Qt's generic one otherwise), and the desktop
    entry's name, which a Wayland desktop matches the windows with."""
    from PySide6.QtGui import QIcon

    from ...core.resource_files import resource_path

    app.setWindowIcon(QIcon(str(resource_path("icons", "recordlens.png"))))
    app.setDesktopFileName("recordlens")
