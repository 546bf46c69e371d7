"""Capturing a site from the web (`recordlens site capture`): the crawl of core/agent/capture.py, rendered by
this process's own online Chromium, and the app's way of running it in the background.

Like "Save a page from the web" (site_saver.py), capturing goes online, so it runs in a process of its own,

    python -m recordlens.annotator.cli site capture URL... --site DIR [--depth N] [--max-pages N] ...

(the same as `recordlens site capture`), with the app's Chromium flags minus the offline proxy and an
off-the-record profile. The page is loaded in a view of the stated viewport (1920x1080 by default); once it
has loaded and settled, DevTools (on a loopback port of this process only) gives what is kept:
`Accessibility.getFullAXTree` and `DOM.getDocument` (the tree and its elements' XPaths),
`Page.captureScreenshot` with `captureBeyondViewport` (the full page, not just the viewport),
`Page.captureSnapshot` (the MHTML, Blink's writer, the same the saver uses), and the Network domain's events
(the HTTP status and every redirect followed). Links and GET forms (submitted with their default values) are
read by a script in the ApplicationWorld, which runs even with page scripts off.

Every main-frame navigation (each redirect's hop, a script's or meta refresh's navigation) is put to the crawl's
`refuse_redirect` before it is followed (the page's `navigationRequested`: Chromium holds a redirect until it is
answered; a request interceptor would be asked only while the redirect's request is already being sent): a URL
the capture's rules refuse (another host under --same-host, ...) is never requested, and the page is reported
as a redirect refused (`PageFailed(..., redirected_to=URL)`), never as loaded.

Progress lines go to stderr as `recordlens: [done/total] text`; SIGTERM stops after the page being loaded (that
page is dropped, never half-written) and leaves capture.json ready to resume.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import signal
import struct
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

from PySide6.QtCore import QProcess, Signal

from ...core.agent import (
    CAPTURE_SOME_FAILED,
    CaptureError,
    CaptureRules,
    CaptureSummary,
    PageFailed,
    RedirectCheck,
    RenderedPage,
    capture_site,
    normalise_url,
)
from ...core.agent import CAPTURE_VIEWPORT as DEFAULT_VIEWPORT
from ..qt.online_page import OnlinePage
from ..qt.online_process import OnlineProcess
from ..qt.signals import emit
from .devtools import DevToolsError, DevToolsSession, enable_remote_debugging
from .site_saver import HTML_TYPES, chromium_flags, explained_network_error, status_phrase

DEFAULT_TIMEOUT_S = 60.0
SETTLE_MS = 500
STOP_WAIT_S = 5.0        # how long a stopped load may take to say it ended
ABORTED = "net::ERR_ABORTED"  # how a load that turned into a download fails
DOWNLOAD_GRACE_S = 1.0   # how long after a failed load its download request may still come
MAX_SCREENSHOT_HEIGHT = 16384  # Chromium's texture limit; longer pages are cut there (the meta says the size)
_PROGRESS = re.compile(r"^\[(\d+)/(\d+)\] (.*)$")

_LINKS_JS = """(() => {
  const out = [];
  for (const a of document.querySelectorAll('a[href], area[href]')) out.push(a.href);
  for (const form of document.querySelectorAll('form')) {
    if ((form.getAttribute('method') || 'get').toLowerCase() !== 'get') continue;
    try {
      const target = new URL(form.getAttribute('action') || document.baseURI, document.baseURI);
      target.search = new URLSearchParams(new FormData(form)).toString();
      out.push(target.href);
    } catch (e) { /* a form that cannot be serialised is not followed */ }
  }
  return JSON.stringify({links: out, title: document.title, contentType: document.contentType});
})()"""


def engine_version() -> str:
    from PySide6.QtWebEngineCore import qWebEngineChromiumVersion, qWebEngineVersion

    return f"QtWebEngine {qWebEngineVersion()} (Chromium {qWebEngineChromiumVersion()})"


class ChromiumRenderer(OnlinePage):
    """Loads pages one at a time in an off-the-record profile and captures them over DevTools.

    Needs the QApplication made by `run_capture` (remote debugging on, online flags)."""

    def __init__(self, port: int, *, viewport: tuple[int, int] = DEFAULT_VIEWPORT, scripts: bool = True,
                 timeout_s: float = DEFAULT_TIMEOUT_S, cancelled: Callable[[], bool] = lambda: False) -> None:
        from PySide6.QtCore import QUrl

        self.viewport = viewport
        self.timeout_s = timeout_s
        self.cancelled = cancelled
        self._downloads: list[tuple[str, str]] = []  # (URL, MIME type) of the downloads asked for this page
        super().__init__(viewport=viewport, scripts=scripts, cancelled=cancelled, error=PageFailed)
        self.guard = _NavigationGuard()
        self.page.navigationRequested.connect(self.guard.on_navigation)
        marker = "about:blank"
        self.page.load(QUrl(marker))
        self._wait(lambda: self._finished is not None, 20)
        self.devtools = DevToolsSession.for_page(port, marker)
        self.devtools.call("Network.enable")
        self.devtools.call("Page.enable")
        self.frame_id = str(self.devtools.call("Page.getFrameTree")["frameTree"]["frame"]["id"])
        self.engine = engine_version()

    def _on_download(self, request) -> None:  # noqa: ANN001 - QWebEngineDownloadRequest
        # Kept with its URL: a download requested late, for the page before, must not be taken for this one's.
        self._downloads.append((request.url().toString(), request.mimeType() or "a file"))
        request.cancel()

    def _download_of(self, url: str) -> str:
        """The MIME type of the download this page's navigation (`url` and its redirects) turned into, or ""."""
        chain = self._chain(url)
        return next((mime for where, mime in self._downloads if _same_url(where, chain)), "")

    def render(self, url: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
        from PySide6.QtCore import QUrl

        self._finished = None
        self._downloads = []
        self.devtools.events.clear()
        self.guard.watch(url, refuse_redirect)
        try:
            self.page.load(QUrl(url))
            loaded = self._wait(lambda: self._finished is not None or bool(self._download_of(url))
                                or self.guard.refused is not None, self.timeout_s)
        finally:
            refused = self.guard.refused
            self.guard.watch("", None)  # what the page does once loaded is no navigation of this capture
        if refused is not None:
            if self._finished is None:
                self._stop()
            raise PageFailed(refused[1], redirected_to=refused[0])
        if not loaded:
            self._stop()
            raise PageFailed(f"did not finish loading within {self.timeout_s:g} s", unreachable=True)
        redirects, status, failure, failed_at = self._navigation()
        download = self._download_of(url)
        if not self._finished and not download and (not failure or ABORTED in failure):
            # A response turned into a download ends the load as failed (net::ERR_ABORTED, when the network's
            # events say it first); its download request may come after.
            self._wait(lambda: bool(self._download_of(url)), DOWNLOAD_GRACE_S)
            download = self._download_of(url)
        if download:
            raise PageFailed(f"not an HTML page (the server sent {download} to download)")
        if failure:
            raise PageFailed(failure, at=failed_at if not _same_url(failed_at, [url]) else "")
        if status is not None and status >= 400:
            raise PageFailed(f"HTTP {status}{status_phrase(status)}")
        if not self._finished:
            raise PageFailed("the page failed to load")
        self._wait(lambda: False, SETTLE_MS / 1000)  # what scripts render right after the load
        found = json.loads(self._js(_LINKS_JS) or "{}")
        content_type = str(found.get("contentType") or "")
        if content_type not in HTML_TYPES:
            raise PageFailed(f"not an HTML page (it is {content_type or 'of an unknown type'})")
        try:
            return self._capture(url, redirects, status, content_type, found)
        except DevToolsError as error:
            raise PageFailed(f"DevTools could not capture it: {error}") from None

    def _stop(self) -> None:
        """Stop a load that ran out of time and take its loadFinished(False) now: arriving late, it would end
        the next page's wait at once and give that page this one's failure."""
        self.page.triggerAction(self.page.WebAction.Stop)
        self._wait(lambda: self._finished is not None, STOP_WAIT_S)

    def _chain(self, url: str) -> list[str]:
        """`url` and the URLs of this page's main-frame document requests (redirects included, in Chromium's
        spelling), from this page's Network events: the requests of the page before were sent before them."""
        return [url, *(str(e["params"].get("request", {}).get("url") or "") for e in self._documents())]

    def _documents(self) -> list[dict[str, Any]]:
        return [e for e in self.devtools.events if e.get("method") == "Network.requestWillBeSent"
                and e.get("params", {}).get("type") == "Document"
                and e["params"].get("frameId") in (None, self.frame_id)]

    def _navigation(self) -> tuple[list[dict[str, Any]], int | None, str, str]:
        """The main frame's redirects, final status, network failure and the URL that failed (a redirect's
        target, maybe on another host), from the Network domain's events of this page's own document requests
        (a late response or failure of the page before is not this one's)."""
        redirects: list[dict[str, Any]] = []
        status: int | None = None
        failure = failed_at = ""
        documents = {e["params"].get("requestId") for e in self._documents()}
        asked: dict[str, str] = {}  # request id -> the URL it asked for last (a redirect keeps the id)
        for event in self.devtools.events:
            params = event.get("params", {})
            method = event.get("method")
            if params.get("requestId") not in documents:
                continue
            if method == "Network.requestWillBeSent":
                asked[params["requestId"]] = str(params.get("request", {}).get("url") or "")
            if method == "Network.requestWillBeSent" and params.get("redirectResponse"):
                hop = params["redirectResponse"]
                redirects.append({"url": hop.get("url"), "status": hop.get("status"),
                                  "location": params.get("request", {}).get("url")})
            elif method == "Network.responseReceived":
                status = int(params.get("response", {}).get("status") or 0) or None
            elif method == "Network.loadingFailed":
                text = str(params.get("errorText") or "")
                if params.get("canceled") and not text:
                    continue
                failure = f"cannot load it: {_network_error(text)}"
                failed_at = asked.get(params["requestId"], "")
        return redirects, status, failure, failed_at

    def _capture(self, url: str, redirects: list[dict[str, Any]], status: int | None, content_type: str,
                 found: dict[str, Any]) -> RenderedPage:
        final_url = self.page.url().toString()
        ax_nodes = self.devtools.call("Accessibility.getFullAXTree", timeout_s=60).get("nodes", [])
        dom = self.devtools.call("DOM.getDocument", {"depth": -1}, timeout_s=60).get("root")
        metrics = self.devtools.call("Page.getLayoutMetrics")
        content = metrics.get("cssContentSize") or metrics.get("contentSize") or {}
        page_height = int(content.get("height") or 0)
        height = min(max(page_height, self.viewport[1]), MAX_SCREENSHOT_HEIGHT)
        shot = self.devtools.call("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True, "fromSurface": True,
            "clip": {"x": 0, "y": 0, "width": self.viewport[0], "height": height, "scale": 1}}, timeout_s=60)
        png = base64.b64decode(shot["data"])
        size = struct.unpack(">II", png[16:24]) if png[:8] == b"\x89PNG\r\n\x1a\n" else (0, 0)
        mhtml = self.devtools.call("Page.captureSnapshot", {"format": "mhtml"}, timeout_s=60)["data"]
        return RenderedPage(
            requested_url=url, final_url=final_url, status=status, redirects=redirects,
            content_type=content_type, title=str(found.get("title") or self.page.title() or ""),
            mhtml=mhtml.encode("utf-8"), ax_nodes=ax_nodes, dom=dom, screenshot=png,
            screenshot_size=(int(size[0]), int(size[1])), links=[str(u) for u in found.get("links") or []],
            engine=self.engine, viewport=self.viewport, page_height=page_height)

    def close(self) -> None:
        """Close the DevTools session, then delete view, page and profile."""
        self.devtools.close()
        super().close()


class _NavigationGuard:
    """Asks `check` about every main-frame navigation of the page (its `navigationRequested`, which Chromium's
    navigation throttle emits before a redirect is followed, the request held until it is answered) but the
    page's own, and rejects those refused. `refused`: (URL, reason) of the first it rejected since `watch`.
    Between two pages (`watch("", None)`) every navigation but about:blank is rejected: what a page does once it
    was captured is no page of the capture's."""

    def __init__(self) -> None:
        self.watch("", None)

    def watch(self, url: str, check: RedirectCheck | None) -> None:
        self.url, self.check = url, check
        self.refused: tuple[str, str] | None = None

    def on_navigation(self, request) -> None:  # noqa: ANN001 - QWebEngineNavigationRequest
        if not request.isMainFrame():
            return  # the page's frames: part of the page, wherever they come from
        target = request.url().toString()
        if self.check is None:
            if self.url == "" and not target.startswith("about:"):
                request.reject()
            return
        if _same_url(target, [self.url]):
            return
        reason = self.check(target)
        if reason is not None:
            request.reject()
            if self.refused is None:
                self.refused = (target, reason)


def _same_url(url: str, chain: list[str]) -> bool:
    """Whether `url` is one of `chain`'s, compared as the crawl compares URLs (Chromium writes them its way)."""
    try:
        return normalise_url(urldefrag(url)[0]) in {normalise_url(urldefrag(u)[0]) for u in chain}
    except ValueError:
        return False


def _network_error(text: str) -> str:
    """Chromium's error code (`net::ERR_...`) said once: explained when it is a known one."""
    return explained_network_error(text) or text or "the load failed"


def _only_critical(kind: object, _context: object, message: str) -> None:
    """Qt's messages in the capture process: its notes on the GL context it falls back from and the DevTools
    server it starts are left out of a log that promises a line per URL; a critical one is still said."""
    from PySide6.QtCore import QtMsgType

    if kind in (QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg):
        print(message, file=sys.stderr)


# Start-up notes of Chromium and Qt written straight to the process's stderr (not through Qt's message handler):
# the DevTools server's address (and the blank line before it), no D-Bus on a server, the GL/RHI back end.
_NOISE = re.compile(r"^\s*$|^DevTools listening on ws://|Failed to connect to the bus|dbus|QRhi|qt\.qpa\.|"
                    r"Fontconfig (warning|error)")
_END_MARK = b"\x00recordlens-stderr-end\x00\n"


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """File descriptor 2 (this process's and its Chromium helpers', which inherit it) through a pipe whose
    lines are passed on unless they are start-up noise (`_NOISE`); real errors and the progress lines pass."""
    try:
        sys.stderr.flush()
        terminal = os.dup(2)
    except (OSError, ValueError):  # no stderr of its own (a test's capture): nothing to filter
        yield
        return
    reader, writer = os.pipe()
    drained = threading.Event()

    def pump() -> None:
        with os.fdopen(reader, "rb") as lines:
            for line in lines:
                if line.endswith(_END_MARK):  # alone, or after a helper's line that had no end
                    line = line.removesuffix(_END_MARK)
                    drained.set()
                if line.strip(b"\n") and not _NOISE.search(line.decode("utf-8", "replace")):
                    os.write(terminal, line if line.endswith(b"\n") else line + b"\n")

    threading.Thread(target=pump, daemon=True).start()
    os.dup2(writer, 2)
    os.close(writer)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.write(2, _END_MARK)
        drained.wait(2)  # what was written before is passed on before the summary's own lines
        os.dup2(terminal, 2)
        # `terminal` stays open: the helpers still hold the pipe, and the pump passes their lines on until they end.


def run_capture(roots: list[str], folder: str | Path, rules: CaptureRules, *,
                viewport: tuple[int, int] = DEFAULT_VIEWPORT, scripts: bool = True,
                timeout_s: float = DEFAULT_TIMEOUT_S,
                progress: Callable[[int, int, str], None] | None = None, refresh: bool = False) -> CaptureSummary:
    """Capture in this process, which must not have a QApplication yet: its Chromium is set up online (the
    app's flags minus the offline proxy) with DevTools on a loopback port. `refresh`: capture every page again
    (core's `capture_site`)."""
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is not None:
        raise CaptureError("capturing needs a process of its own (the app's Chromium is offline)")
    with _quiet_stderr():
        return _run_online(roots, folder, rules, viewport=viewport, scripts=scripts, timeout_s=timeout_s,
                           progress=progress, refresh=refresh)


def _run_online(roots: list[str], folder: str | Path, rules: CaptureRules, *, viewport: tuple[int, int],
                scripts: bool, timeout_s: float,
                progress: Callable[[int, int, str], None] | None, refresh: bool) -> CaptureSummary:
    from PySide6.QtWidgets import QApplication

    flags = chromium_flags(os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", ""))
    # The command promises a line per URL: Chromium's own errors (no D-Bus, no GPU on a server) are left out
    # unless asked for with a --log-level of one's own, and so are Qt's about the GL context it falls back from.
    os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] = flags if "--log-level=" in flags else f"{flags} --log-level=3"
    os.environ["QT_QPA_PLATFORM"] = "offscreen"  # nothing is ever shown
    port = enable_remote_debugging()
    import PySide6.QtWebEngineWidgets  # noqa: F401 - before the QApplication, for GL context sharing
    from PySide6.QtCore import QCoreApplication, Qt, qInstallMessageHandler

    qInstallMessageHandler(_only_critical)

    QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
    app = QApplication([sys.argv[0] or "recordlens-site-capture"])
    stop = {"now": False}
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.__setitem__("now", True))
    try:
        renderer = ChromiumRenderer(port, viewport=viewport, scripts=scripts, timeout_s=timeout_s,
                                    cancelled=lambda: stop["now"])
    except DevToolsError as error:
        signal.signal(signal.SIGTERM, previous)
        raise CaptureError(f"Chromium's DevTools could not be reached in this process: {error}") from None
    try:
        return capture_site(roots, folder, renderer, rules, progress=progress, cancelled=lambda: stop["now"],
                            refresh=refresh)
    finally:
        signal.signal(signal.SIGTERM, previous)
        renderer.close()
        app.processEvents()




# -- running it from the app ------------------------------------------------------------------------------------


class CaptureFromWeb(OnlineProcess):
    """The capture process, run in the background: `progress(done, total, text)` as it goes, then
    `finished(result)` once: the summary as a dict with `ok` True and `message`, or `{"ok": False, "message"}`.

    `cancel` stops it after the page being loaded; what was saved stays, and the capture can be resumed."""

    progress = Signal(int, int, str)
    name = "the capture"
    stop_wait_ms = 30000  # longer than the saver: it leaves capture.json ready to resume

    def start(self, roots: list[str], site: str | Path, arguments: list[str] | None = None) -> None:
        """`arguments`: more of the command's options (`--depth 2`, `--max-pages 20`, ...)."""
        if self.running:
            raise RuntimeError("a capture is running already")
        self._launch(["-m", "recordlens.annotator.cli", "site", "capture", *roots, "--site", str(site),
                      "--json", *(arguments or [])], 0, 0, f"starting to capture {', '.join(roots)}")

    def _on_progress(self, text: str) -> None:
        match = _PROGRESS.match(text)
        if match:
            emit(self.progress, int(match.group(1)), int(match.group(2)), match.group(3))

    def _result(self, code: int, status: QProcess.ExitStatus, output: list[str]) -> dict[str, object]:
        result: dict[str, object] | None = None
        if output:
            try:
                result = json.loads(output[-1])
            except ValueError:
                result = None
        if result is not None and code in (0, CAPTURE_SOME_FAILED):  # its summary, also when a page failed
            if self._cancelled:
                result["message"] = "cancelled: " + str(result.get("message", ""))
            return {"ok": True, **result}
        if self._cancelled:
            return {"ok": False, "message": "cancelled; run the capture again to continue"}
        return {"ok": False, "message": self._failure(code)}
