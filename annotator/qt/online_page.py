"""An online page for a process of its own: the off-the-record profile, page and hidden view that saving a page
from the web (agent/site_saver.py) and capturing a site (agent/site_capture.py) load pages in.

Only for a process whose Chromium was set up online (the app's flags minus the offline proxy) before its
QApplication; the app's own process stays offline. The Qt web modules are imported when a page is made, not
with this module, so that importing it does not load them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


class OnlinePage:
    """An unnamed (off-the-record) profile, a page in it and a view of `viewport` on no screen.

    `scripts` turns the page's scripts on or off; windows, plugins, the PDF viewer, page icons, autoplay and
    every permission are refused. While a load runs, `_finished` is None, then loadFinished's ok; `_download`
    is the MIME type of a response Chromium wanted to download instead of showing (the download is cancelled),
    "" otherwise. `_wait` raises `error("cancelled")` as soon as `cancelled()` is true."""

    def __init__(self, *, viewport: tuple[int, int], scripts: bool, cancelled: Callable[[], bool],
                 error: Callable[[str], BaseException]) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtWebEngineCore import QWebEnginePage, QWebEngineProfile, QWebEngineSettings
        from PySide6.QtWebEngineWidgets import QWebEngineView

        self._cancelled = cancelled
        self._error = error
        self.profile = QWebEngineProfile()  # unnamed: off the record, nothing outlives the process
        self.profile.setHttpCacheType(QWebEngineProfile.HttpCacheType.MemoryHttpCache)
        self.profile.setPersistentCookiesPolicy(QWebEngineProfile.PersistentCookiesPolicy.NoPersistentCookies)
        self.profile.setSpellCheckEnabled(False)
        self.profile.downloadRequested.connect(self._on_download)
        self.page = QWebEnginePage(self.profile)
        attribute = QWebEngineSettings.WebAttribute
        settings = self.page.settings()
        for name, value in (("JavascriptEnabled", scripts), ("JavascriptCanOpenWindows", False),
                            ("PluginsEnabled", False), ("PdfViewerEnabled", False),
                            ("AutoLoadIconsForPage", False), ("PlaybackRequiresUserGesture", True)):
            settings.setAttribute(getattr(attribute, name), value)
        if hasattr(self.page, "permissionRequested"):
            self.page.permissionRequested.connect(lambda permission: permission.deny())
        # A view on no screen: lazy images and layout-dependent content load as in a window of this size.
        self.view = QWebEngineView()
        self.view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
        self.view.setPage(self.page)
        self.view.resize(*viewport)
        self.view.show()
        self._finished: bool | None = None
        self._download = ""
        self.page.loadFinished.connect(self._on_load_finished)

    def _on_load_finished(self, ok: bool) -> None:
        self._finished = ok

    def _on_download(self, request) -> None:  # noqa: ANN001 - QWebEngineDownloadRequest
        self._download = request.mimeType() or "a file"
        request.cancel()

    def _wait(self, condition: Callable[[], bool], timeout_s: float) -> bool:
        """Run the event loop until `condition()` (True) or `timeout_s` has passed (False)."""
        from .event_loop import spin

        deadline = time.monotonic() + timeout_s
        while not condition():
            if self._cancelled():
                raise self._error("cancelled")
            if time.monotonic() >= deadline:
                return False
            spin(20)  # back in Python every 20 ms, so that SIGTERM (cancel) is noticed
        return True

    def _js(self, code: str) -> Any:
        """The value of the script `code`, or None when it gave none within 10 s."""
        from PySide6.QtWebEngineCore import QWebEngineScript

        box: list[Any] = []
        # ApplicationWorld: the one world that runs with page scripts off (--no-scripts).
        self.page.runJavaScript(code, QWebEngineScript.ScriptWorldId.ApplicationWorld, box.append)
        self._wait(lambda: bool(box), 10)
        return box[0] if box else None

    def close(self) -> None:
        """Delete view, page, then profile: the order Qt needs."""
        from shiboken6 import Shiboken

        self.view.setPage(None)
        for obj in (self.view, self.page, self.profile):
            Shiboken.delete(obj)
