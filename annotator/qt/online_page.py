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

from ...core.wording import named_and_more

_LISTED = 3  # items a note names before "and N more"


class OnlinePage:
    """An unnamed (off-the-record) profile, a page in it and a view of `viewport` on no screen.

    `scripts` turns the page's scripts on or off; windows, plugins, the PDF viewer, page icons, autoplay and
    every permission are refused, and so is what online_guards.py keeps a page from doing: its dialogs never
    wait (`dialogs` says each), no service worker registers, no request sends data, no WebSocket, WebRTC or
    WebTransport connection is made and no form its script posts is submitted (`blocked_requests` lists each);
    `guarded_notes` says them. While a load runs, `_finished` is None, then loadFinished's ok; `_download`
    is the MIME type of a response Chromium wanted to download instead of showing (the download is cancelled),
    "" otherwise. `_wait` raises `error("cancelled")` as soon as `cancelled()` is true."""

    def __init__(self, *, viewport: tuple[int, int], scripts: bool, cancelled: Callable[[], bool],
                 error: Callable[[str], BaseException]) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtWebEngineCore import QWebEngineProfile, QWebEngineSettings
        from PySide6.QtWebEngineWidgets import QWebEngineView

        from .fonts import no_fonts
        from .online_guards import QuietPage, SendNothing, refuse_sending

        # The processes that load pages online make their QApplication themselves (with the online flags), not
        # through env.create_application: asked here, before Chromium's first page, so that on a machine with no
        # fonts it is said and the page drawn with the font carried (else its screenshot is blank)
        no_fonts()
        self._cancelled = cancelled
        self._error = error
        self.profile = QWebEngineProfile()  # unnamed: off the record, nothing outlives the process
        self.profile.setHttpCacheType(QWebEngineProfile.HttpCacheType.MemoryHttpCache)
        self.profile.setPersistentCookiesPolicy(QWebEngineProfile.PersistentCookiesPolicy.NoPersistentCookies)
        self.profile.setSpellCheckEnabled(False)
        self.profile.downloadRequested.connect(self._on_download)
        # The profile's child, so that it outlives the profile's own teardown even when `close` is not called
        # (Qt keeps a raw pointer to it as long as the profile lives); held here for what it blocked
        self.guards = SendNothing(self.profile)
        self.profile.setUrlRequestInterceptor(self.guards)
        self.page = QuietPage(self.profile, self.guards.blocked)
        refuse_sending(self.page)
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
        self.forms_refused = 0  # forms the page's script posted since `forget_guarded`
        self.page.loadFinished.connect(self._on_load_finished)
        self.page.navigationRequested.connect(self._on_navigation_requested)

    @property
    def dialogs(self) -> list[str]:
        """The page's dialogs since `forget_guarded`, each with how it was answered: "alert('hi') ignored"."""
        return self.page.dialogs

    @property
    def blocked_requests(self) -> list[tuple[str, str]]:
        """What was blocked since `forget_guarded`, as (what, URL): ("POST", ...), ("WebSocket", "ws://..."),
        ("WebRTC", its servers), ("WebTransport", ...), ("form", where a form its script posted would go),
        ("service worker", ...)."""
        return self.guards.blocked

    def guarded_notes(self) -> list[str]:
        """What the guards did since `forget_guarded`, a sentence per kind ([] when nothing): for a warning."""
        from .online_guards import FORM, SERVICE_WORKER

        def listed(items: list[str]) -> str:  # a page asking again for the same is said once
            return named_and_more(list(dict.fromkeys(items)), _LISTED, sep="; ")

        workers = [url for what, url in self.blocked_requests if what == SERVICE_WORKER]
        sends = [f"a form submission (POST {url})" if what == FORM else f"{what} {url}"
                 for what, url in self.blocked_requests if what != SERVICE_WORKER]
        notes = []
        if self.dialogs:
            notes.append(f"its scripts' dialogs were answered without showing them: {listed(self.dialogs)}")
        if sends:
            notes.append(f"requests that send data were blocked (nothing is submitted to a site): {listed(sends)}")
        if workers:
            notes.append(f"its service worker was not registered (its script was blocked): {listed(workers)}")
        return notes

    def forget_guarded(self) -> None:
        """Start the lists of dialogs and blocked requests again (for the next page)."""
        self.page.dialogs.clear()
        self.guards.blocked.clear()
        self.forms_refused = 0

    def _on_navigation_requested(self, request) -> None:  # noqa: ANN001 - QWebEngineNavigationRequest
        # A form posted (by the page's script: nothing here clicks) that REFUSE_SENDING_JS did not stop (a frame's
        # original submit called) is refused before its request is made; Qt before 6.8 cannot tell, and SendNothing
        # blocks the request instead. The navigation began all the same, which ended the page's parsing there.
        from .online_guards import FORM

        if getattr(request, "hasFormData", lambda: False)():
            request.reject()
            self.forms_refused += 1
            self.guards.blocked.append((FORM, request.url().toString()))
            return
        self._on_navigation(request)

    def _on_navigation(self, request) -> None:  # noqa: ANN001 - QWebEngineNavigationRequest
        """Any other navigation of the page or its frames: a subclass's to judge (followed unless rejected)."""

    def _wait_for_load(self, condition: Callable[[], bool], timeout_s: float) -> bool:
        """`_wait` for a load to end. A form the page's script posted while it loaded, refused, ends the load as
        failed and Qt says no more of the page's own, which stays as served: `_finished` is then whether its
        document completed within the time left (None when it did not: not loaded)."""
        started = time.monotonic()
        loaded = self._wait(condition, timeout_s)
        if loaded and self._finished is False and self.forms_refused:
            deadline = started + timeout_s
            loaded = self._wait(lambda: self._js("document.readyState", deadline - time.monotonic()) == "complete",
                                max(0.05, deadline - time.monotonic()))
            self._finished = True if loaded else None
        return loaded

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

    def _js(self, code: str, timeout_s: float = 10) -> Any:
        """The value of the script `code`, or None when it gave none within `timeout_s`."""
        from PySide6.QtWebEngineCore import QWebEngineScript

        box: list[Any] = []
        # ApplicationWorld: the one world that runs with page scripts off (--no-scripts).
        self.page.runJavaScript(code, QWebEngineScript.ScriptWorldId.ApplicationWorld, box.append)
        self._wait(lambda: bool(box), max(0.05, timeout_s))
        return box[0] if box else None

    def close(self) -> None:
        """Delete view, page, then profile: the order Qt needs."""
        from shiboken6 import Shiboken

        self.view.setPage(None)
        self.profile.setUrlRequestInterceptor(None)
        for obj in (self.view, self.page, self.profile):  # the profile takes its child, the interceptor, with it
            Shiboken.delete(obj)
