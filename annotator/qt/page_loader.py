"""Load a saved page into QtWebEngine offline, privately and without running its scripts.

`OfflinePage` owns an off-the-record profile, a page and (optionally) a view. It serves HTML from memory
through the `recordlens-page:` scheme with its charset stated (setHtml would cap pages at 2 MB and let Chromium
guess the encoding), opens MHTML files by their file:// URL (Chromium only treats MHTML as an archive there; an
archive made in memory is written to a private temporary folder of the page's own first), and blocks every
other request: the snapshot's remote images, scripts, frames and fetches never leave the
process. Injected JavaScript runs in ApplicationWorld, the only world that works once page scripts are off.
A saved page never navigates itself away: a `<meta http-equiv=refresh>` (which Chromium follows with scripts
off), a link or a form may not take the main frame anywhere but the page being shown, and a client redirect
(a refresh of the page itself, in a loop) is refused too; refused URLs are kept in `refused_navigations`. Chromium
goes to `about:blank` without asking the guard: the snapshot is then put back, and that navigation counted as refused.
Qt reports each refused navigation as a failed load, at times after the next load began: a load's outcome is the one
Qt reports for its own URL.
No download ever starts: Chromium fetches a download past RequestBlocker (a `file:` one straight from the disk),
so each way a page has to start one is closed before it asks (`SANDBOX`, `DOWNLOAD_GUARD`), and the address of
one refused is counted as blocked when it leaves the snapshot.

Every object handed to Qt (interceptor, scheme handler, web channel) is held here until `close()`: Qt keeps raw
pointers to them, and one that Python collects while the profile still calls it crashes the process.

On a machine with no fonts (see `fonts`) the view says so over the page, and a load that fails there is put down to
the fonts, not to the page (`wait_until_loaded` raises NoFontsError).
"""

from __future__ import annotations

import itertools
import json
import logging
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QEventLoop, QIODevice, QObject, QTimer, QUrl, Signal, Slot
from PySide6.QtWebChannel import QWebChannel
from PySide6.QtWebEngineCore import (
    QWebEngineDownloadRequest,
    QWebEngineLoadingInfo,
    QWebEngineNavigationRequest,
    QWebEnginePage,
    QWebEngineProfile,
    QWebEngineScript,
    QWebEngineSettings,
    QWebEngineUrlRequestInfo,
    QWebEngineUrlRequestInterceptor,
    QWebEngineUrlRequestJob,
    QWebEngineUrlSchemeHandler,
)

from .env import PAGE_SCHEME
from .event_loop import run_until_quit
from .fonts import NoFontsError, NoFontsNote, no_fonts
from .signals import emit

APPLICATION_WORLD = QWebEngineScript.ScriptWorldId.ApplicationWorld
_LOAD = QWebEngineLoadingInfo.LoadStatus
HTML_CONTENT_TYPE = b"text/html;charset=utf-8"
# Every document served is sandboxed without `allow-downloads`, so Chromium refuses, before any request, the
# downloads a page starts without a modifier key: a link marked `download` to the page's own address or to a
# `data:` one, and a frame whose address turns out a file to download (a `data:` frame of a binary type, an
# archived part served as a PDF). The rest is allowed as it was: scripts (the settings keep the page's off; a
# `<meta http-equiv=refresh>` must still be seen to be refused), forms, new windows and a frame's link to the
# top (each a person's action the site browser follows), the page's own origin (its archived resources).
SANDBOX = (b"sandbox allow-same-origin allow-scripts allow-forms allow-popups "
           b"allow-top-navigation-by-user-activation")
# A document put back after the page went to about:blank (see `OfflinePage._on_emptied`) is served without
# `allow-scripts`: Chromium then follows no `<meta http-equiv=refresh>` of it (a sandboxed document's refresh needs
# scripts allowed), so a page whose refresh goes to about:blank is put back once, not reloaded in a loop. The app's
# own scripts, in ApplicationWorld, still run.
PUT_BACK_SANDBOX = SANDBOX.replace(b" allow-scripts", b"")
# Chromium downloads a link's or a form's target on an Alt+click (or Alt+Enter), sandbox or not, fetched past
# RequestBlocker. DOWNLOAD_GUARD, in every frame, prevents such a click's default action and reports the address
# as a console line starting DOWNLOAD_REFUSED (the console is the one channel every frame has; the page's own
# scripts, which could write one too, never run). A plain click on a link marked `download` is reported as well
# where Chromium would download it (SANDBOX alone would refuse it unsaid). A click already prevented (the
# overlay's while annotating) starts nothing and is left alone.
DOWNLOAD_REFUSED = "recordlens: a download was refused: "
DOWNLOAD_GUARD = r"""
((refused) => {
  const XLINK = "http://www.w3.org/1999/xlink";
  const formAction = Object.getOwnPropertyDescriptor(HTMLFormElement.prototype, "action").get;
  const addressOf = (raw, el) => { try { return new URL(raw, el.baseURI).href; } catch { return null; } };
  const isSubmit = (el) => el.form && !el.disabled &&
    (el.localName === "button" ? el.type === "submit" : el.localName === "input" && /^(submit|image)$/.test(el.type));
  // The element whose activation the click is (the first link or submit button on its path) and its address.
  const activated = (event) => {
    for (const el of event.composedPath()) {
      if (!(el instanceof Element)) continue;
      if (el.localName === "a" || el.localName === "area") {
        const raw = el.getAttribute("href") ?? el.getAttributeNS(XLINK, "href");
        if (raw !== null) return { el, link: true, address: addressOf(raw, el) };
      } else if (isSubmit(el)) {
        // formAction falls back to the document's address, not the form's, when the button names none.
        // The form's action through its own getter: a control of the form named "action" shadows the property.
        return { el, link: false, address: el.hasAttribute("formaction") ? el.formAction : formAction.call(el.form) };
      }
    }
    return null;
  };
  // Alt alone, as Chromium reads a click for "download the target" (Ctrl, Shift or the middle button open it in a
  // new window, which the page's navigation guard decides on).
  const altOnly = (event) => event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.button === 0;
  // Chromium honours `download` on a link it may read: the page's own origin, a data: or blob: address.
  const readable = (address) => {
    const url = new URL(address);
    return url.protocol === "data:" || url.protocol === "blob:" ||
      (url.protocol === location.protocol && url.host === location.host);
  };
  window.addEventListener("click", (event) => {
    if (event.defaultPrevented) return;
    const target = activated(event);
    if (target === null || target.address === null) return;
    const marked = target.link && target.el.hasAttribute("download") && readable(target.address);
    if (!altOnly(event) && !marked) return;
    event.preventDefault();
    console.info(refused + target.address);
  });
})(""" + json.dumps(DOWNLOAD_REFUSED) + ");"

_page_numbers = itertools.count(1)
_log = logging.getLogger(__name__)


def _without_fragment(url: QUrl) -> str:
    return url.toString().partition("#")[0]


_SRCSET_URL = re.compile(r"[\s,]*(\S+)")  # a candidate's URL: no blank in it (commas ending it are not of it)
_DESCRIPTORS = re.compile(r"(?:[^,(]|\([^)]*\))*")  # up to the comma that ends the candidate


def srcset_urls(value: str) -> list[str]:
    """The URLs of a `srcset`'s candidates, read as the HTML standard reads them (their descriptors skipped)."""
    urls: list[str] = []
    at = 0
    while (match := _SRCSET_URL.match(value, at)) is not None:
        url, at = match.group(1), match.end()
        if url.endswith(","):  # "a.jpg, b.jpg": the comma ends the candidate, it has no descriptors
            url = url.rstrip(",")
        else:
            at = _DESCRIPTORS.match(value, at).end()  # type: ignore[union-attr] - it matches "" at worst
        if url:
            urls.append(url)
    return urls


def responsive_images(html: str, page_url: QUrl) -> dict[str, str]:
    """Each address a responsive image may be fetched from (a `<picture>`'s sources and image, an `<img
    srcset>`'s candidates) -> the image's first one, as absolute URLs. Chromium picks a candidate for the width
    the view has when it reads the element, and a page opened in a fresh renderer is sometimes read before the
    view's width reaches it: it then fetches a second candidate once it does. The blocked count takes the image
    once, however many of its candidates were asked for."""
    if "srcset" not in html:  # no responsive image (the common page): not parsed again
        return {}
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(html)
    base = tree.css_first("base[href]")
    base_url = page_url.resolved(QUrl(base.attributes.get("href") or "")) if base is not None else page_url
    images = [[*picture.css("source[srcset]"), *picture.css("img")] for picture in tree.css("picture")]
    images += [[img] for img in tree.css("img[srcset]") if img.parent is None or img.parent.tag != "picture"]
    firsts: dict[str, str] = {}
    for elements in images:
        urls = [_without_fragment(base_url.resolved(QUrl(url))) for element in elements
                for url in [*srcset_urls(element.attributes.get("srcset") or ""), element.attributes.get("src")]
                if url and not url.startswith("data:")]
        for url in urls:
            firsts.setdefault(url, urls[0])
    return firsts


class RequestBlocker(QWebEngineUrlRequestInterceptor):
    """Lets through only the URLs of the page being shown; records everything else it blocks."""

    blocked = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._allowed: set[str] = set()
        self.blocked_urls: list[str] = []

    def allow_only(self, *urls: QUrl) -> None:
        self._allowed = {_without_fragment(u) for u in urls}

    def allow(self, url: QUrl) -> None:
        """Also let `url` through (for example another page of the same saved site)."""
        self._allowed.add(_without_fragment(url))

    def allows(self, url: QUrl) -> bool:
        return _without_fragment(url) in self._allowed

    def leaves_snapshot(self, url: QUrl) -> bool:
        """Whether loading `url` would reach beyond the page on show (a data: URL carries its bytes inside the
        page, so loading it reaches nothing)."""
        return url.scheme() != "data" and not self.allows(url)

    def interceptRequest(self, info: QWebEngineUrlRequestInfo) -> None:  # noqa: N802 (Qt override)
        url = info.requestUrl()
        if self.leaves_snapshot(url):
            info.block(True)
            self.count(url)

    def count(self, url: QUrl) -> None:
        """Record `url` as blocked (refused here, or elsewhere before it was asked for)."""
        text = url.toString()
        self.blocked_urls.append(text)
        emit(self.blocked, text)


class MemorySchemeHandler(QWebEngineUrlSchemeHandler):
    """Serves registered bytes with a stated Content-Type (under SANDBOX); any other URL of the scheme fails at once."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._documents: dict[str, tuple[bytes, bytes, bytes]] = {}  # URL -> data, Content-Type, sandbox

    def put(self, url: QUrl, data: bytes, content_type: bytes) -> None:
        self._documents[_without_fragment(url)] = (data, content_type, SANDBOX)

    def serve_put_back(self, url: QUrl) -> None:
        """Serve `url`'s document from now on under PUT_BACK_SANDBOX (nothing when it holds none)."""
        key = _without_fragment(url)
        if key in self._documents:
            data, content_type, _sandbox = self._documents[key]
            self._documents[key] = (data, content_type, PUT_BACK_SANDBOX)

    def clear(self) -> None:
        self._documents.clear()

    def requestStarted(self, job: QWebEngineUrlRequestJob) -> None:  # noqa: N802 (Qt override)
        document = self._documents.get(_without_fragment(job.requestUrl()))
        if document is None:
            job.fail(QWebEngineUrlRequestJob.Error.UrlNotFound)
            return
        data, content_type, sandbox = document
        job.setAdditionalResponseHeaders({QByteArray(b"Content-Security-Policy"): [QByteArray(sandbox)]})
        # The job owns the buffer: Qt reads it after this method returns and deletes both together.
        buffer = QBuffer(job)
        buffer.setData(QByteArray(data))
        buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        job.reply(QByteArray(content_type), buffer)


class _LoggingPage(QWebEnginePage):
    """Sends the page's console messages (blocked loads, sandbox notices) to logging, not to stderr, and
    DOWNLOAD_GUARD's to `download_refused(address)`."""

    download_refused = Signal(str)

    def javaScriptConsoleMessage(self, level, message: str, line: int, source: str) -> None:  # noqa: N802
        if message.startswith(DOWNLOAD_REFUSED):
            emit(self.download_refused, message.removeprefix(DOWNLOAD_REFUSED))
        _log.debug("page console (%s) %s:%s: %s", level.name, source, line, message)


def every_frame_script(name: str, source: str) -> QWebEngineScript:
    """`source`, run in ApplicationWorld for every document of a page, its frames' included, before the page can be
    clicked or given a key."""
    script = QWebEngineScript()
    script.setName(name)
    script.setSourceCode(source)
    script.setInjectionPoint(QWebEngineScript.InjectionPoint.DocumentCreation)
    script.setWorldId(APPLICATION_WORLD)
    script.setRunsOnSubFrames(True)
    return script


def _lock_down(settings: QWebEngineSettings) -> None:
    attribute = QWebEngineSettings.WebAttribute
    for name, value in (
        ("JavascriptEnabled", False),  # page scripts never run; ApplicationWorld scripts still do
        ("JavascriptCanOpenWindows", False),
        # Served pages count as local content. Refused here, remote loads would fail silently in the
        # renderer; allowed, each one reaches RequestBlocker, which blocks it too but also counts it.
        ("LocalContentCanAccessRemoteUrls", True),
        # The same for "local URLs": file:// and the page scheme itself (a relative reference of a page saved
        # without its files, a protocol-relative `//host/x` of a page with no host). Refused here, Chromium
        # drops them before RequestBlocker sees them and the count leaves them out; allowed, RequestBlocker
        # refuses each one (it lets through only the page on show) and counts it.
        ("LocalContentCanAccessFileUrls", True),
        ("PluginsEnabled", False),
        ("PdfViewerEnabled", False),
        ("DnsPrefetchEnabled", False),
        ("AutoLoadIconsForPage", False),  # a favicon fetch would only be blocked and counted
        ("NavigateOnDropEnabled", False),
        ("WebRTCPublicInterfacesOnly", True),
    ):
        if hasattr(attribute, name):
            settings.setAttribute(getattr(attribute, name), value)


class ScriptBridge(QObject):
    """The object a page's script calls through the web channel (see `OfflinePage.expose`). A subclass declares
    its slots with `script_slot`; each hands its value to the callable given for its name, so that emitting
    stays with the widget that owns the bridge."""

    def __init__(self, **handlers: Callable[[Any], None]) -> None:
        super().__init__()
        self._handlers = handlers


def script_slot(name: str, kind: type) -> Any:
    """A ScriptBridge slot the script calls as `name` with one value of `kind`."""

    @Slot(kind, name=name)
    def forward(bridge: ScriptBridge, value: object) -> None:
        bridge._handlers[name](value)

    return forward


class OfflinePage(QObject):
    """An off-the-record profile + page (+ view when `with_view`) that show one saved page and nothing else.

    Typical use::

        page = OfflinePage(with_view=True)
        page.load_html(html_text)            # or page.load_mhtml(path)
        page.wait_until_loaded()             # tests and scripts; the app listens to `loaded` instead
        result = page.run_js("document.title")
        page.close()                         # before the QApplication goes away
    """

    loaded = Signal(bool)
    request_blocked = Signal(str)

    def __init__(self, *, with_view: bool = False, parent: QObject | None = None) -> None:
        super().__init__(parent)
        # An unnamed profile is off the record: no cookies, cache or storage on disk.
        self.profile = QWebEngineProfile()
        self.profile.setHttpCacheType(QWebEngineProfile.HttpCacheType.MemoryHttpCache)
        self.profile.setPersistentCookiesPolicy(QWebEngineProfile.PersistentCookiesPolicy.NoPersistentCookies)
        self.profile.setSpellCheckEnabled(False)
        self.blocker = RequestBlocker()
        self.blocker.blocked.connect(self.request_blocked)
        self.profile.setUrlRequestInterceptor(self.blocker)
        self.scheme_handler = MemorySchemeHandler()
        self.profile.installUrlSchemeHandler(PAGE_SCHEME, self.scheme_handler)
        _lock_down(self.profile.settings())

        self.page = _LoggingPage(self.profile)
        _lock_down(self.page.settings())
        self.page.scripts().insert(every_frame_script("recordlens-download-guard", DOWNLOAD_GUARD))
        self.page.download_refused.connect(self._on_download_refused)
        self.profile.downloadRequested.connect(self._on_download_requested)
        self.view = None
        if with_view:
            from PySide6.QtWebEngineWidgets import QWebEngineView

            self.view = QWebEngineView()
            self.view.setPage(self.page)
        if self.view is not None and no_fonts():
            NoFontsNote(self.view)  # the view's child: it goes with it
        # Objects Qt holds raw pointers to besides the ones above (web channels, extra handlers).
        self._kept: list[QObject] = []
        self._loading = False
        self._load_ok: bool | None = None
        self._on_show = QUrl()  # the URL of the last load started: the page on show, or on its way
        self._wait_loop: QEventLoop | None = None
        self._closed = False
        self._archive_folder: Path | None = None  # where archives made in memory are written for Chromium
        self._archive = False  # whether the page on show is an MHTML archive (of which no request is counted)
        self.refused_navigations: list[str] = []
        self._image_of: dict[str, str] = {}  # a responsive image's addresses -> its first (see `blocked_count`)
        self.page.loadingChanged.connect(self._on_loading_changed)
        self.page.navigationRequested.connect(self._guard_navigation)

    # -- what was blocked -------------------------------------------------------------------------------

    @property
    def blocked_urls(self) -> list[str]:
        return list(self.blocker.blocked_urls)

    @property
    def blocked_count(self) -> int:
        """Distinct addresses blocked: a page asking again for the same one (it does at every zoom) is counted once,
        and so is a responsive image whatever candidates of it were asked for (`responsive_images`): the count of
        one page is the same at every opening."""
        return len({self._image_of.get(url, url) for url in self.blocker.blocked_urls})

    def reset_blocked(self) -> None:
        self.blocker.blocked_urls.clear()

    # -- loading ----------------------------------------------------------------------------------------

    def load_html(self, html: str, name: str = "page.html") -> QUrl:
        """Show `html` (already decoded text); it is served as UTF-8 with that charset stated."""
        # A fresh path per load, so Chromium never shows a cached earlier page; the name only helps reading.
        safe_name = re.sub(r"[^A-Za-z0-9._-]", "_", name) or "page.html"
        url = QUrl(f"{PAGE_SCHEME.decode()}:/{next(_page_numbers)}/{safe_name}")
        # Only the page on show is kept: a 10 MB page per visit would otherwise pile up.
        self.scheme_handler.clear()
        self.scheme_handler.put(url, html.encode("utf-8", errors="surrogatepass"), HTML_CONTENT_TYPE)
        self._image_of = responsive_images(html, url)
        self._archive = False
        self._start(url)
        return url

    def load_mhtml(self, path: str | Path) -> QUrl:
        """Show an MHTML snapshot; its own parts load from the archive, nothing else loads."""
        url = QUrl.fromLocalFile(str(Path(path).resolve()))
        self._image_of = {}  # Chromium drops an archive's requests for what it does not hold: none is counted
        self._archive = True
        self._start(url)
        return url

    def load_mhtml_bytes(self, data: bytes, name: str = "page.mhtml") -> QUrl:
        """Show an MHTML archive held in memory. Chromium opens an archive only from a file, so it is written to
        this page's private temporary folder (removed at `close`): a fresh file per load, so Chromium never shows
        a cached earlier one, the file of the previous load removed."""
        if self._archive_folder is None:
            self._archive_folder = Path(tempfile.mkdtemp(prefix="recordlens-archive-"))  # readable by us alone
        for earlier in self._archive_folder.iterdir():
            earlier.unlink(missing_ok=True)
        stem = re.sub(r"[^A-Za-z0-9._-]", "_", Path(name).stem) or "page"
        path = self._archive_folder / f"{next(_page_numbers)}-{stem}.mhtml"
        path.write_bytes(data)
        return self.load_mhtml(path)

    def _start(self, url: QUrl) -> None:
        self._on_show = url
        self.blocker.allow_only(url)
        self._loading = True
        self._load_ok = None
        self.page.load(url)

    def _guard_navigation(self, request: QWebEngineNavigationRequest) -> None:
        # Connected first, so a browser built on this page (site_browser) still has the last word on its own.
        if not request.isMainFrame():
            return  # a frame's load reaches RequestBlocker, which lets only the archive's parts through
        redirect = request.navigationType() == QWebEngineNavigationRequest.NavigationType.RedirectNavigation
        if redirect or not self.blocker.allows(request.url()):
            request.reject()  # Qt still reports it as a load that failed, of its URL (see _on_loading_changed)
            self.refused_navigations.append(request.url().toString())
            _log.debug("refused a navigation away from the snapshot to %s", request.url().toString())

    def _on_download_refused(self, address: str) -> None:
        self._count_if_leaving(QUrl(address))

    def _count_if_leaving(self, url: QUrl) -> None:
        """A download refused before it was asked for: counted as blocked, as its request would have been (on an
        archive, whose requests Chromium drops before the blocker sees them, none is: its parts' addresses are
        not the blocker's to tell from others)."""
        if not self._archive and self.blocker.leaves_snapshot(url):
            self.blocker.count(url)

    def _on_download_requested(self, request: QWebEngineDownloadRequest) -> None:
        """A download the guards did not foresee is cancelled (the site browser's own `save` is let be): Qt
        would drop it anyway once no handler accepts it, but it is counted where it leaves the snapshot."""
        if not request.isSavePageDownload():
            request.cancel()
            _log.warning("cancelled a download no guard refused: %s", request.url().toString())
            self._count_if_leaving(request.url())

    def _on_loading_changed(self, info: QWebEngineLoadingInfo) -> None:
        if info.url().scheme() == "about":
            self._on_emptied(info)
        elif info.status() != _LOAD.LoadStartedStatus:
            self._on_load_ended(info)

    def _on_load_ended(self, info: QWebEngineLoadingInfo) -> None:
        ok = info.status() == _LOAD.LoadSucceededStatus
        if not ok and not self._is_the_load(info.url()):
            # A refused navigation's "failed load", which Qt may report after the next load began (one to mailto:
            # followed by the site browser): the load under way, or the page on show, is not what failed.
            return
        self._finish(ok)

    def _is_the_load(self, url: QUrl) -> bool:
        """Whether `url` is that of the load under way (once it has ended, no failure is: the page on show stays)."""
        return self._loading and _without_fragment(url) == _without_fragment(self._on_show)

    def _on_emptied(self, info: QWebEngineLoadingInfo) -> None:
        """The page went to about:blank (a link to it, a form sent to it, a refresh or a script going there), which
        Chromium does without a navigation request: refused as the guard refuses others, by putting the snapshot
        back, meanwhile loading as far as callers know. Only once the empty page is in: Chromium may start such a
        navigation and drop it, the page left as it was."""
        url = QUrl(self._on_show)
        if url.isEmpty() or info.status() == _LOAD.LoadStartedStatus or self.page.url().scheme() != "about":
            return  # nothing was ever shown (an empty page is what there is), or the snapshot is still on show
        self.refused_navigations.append(info.url().toString())
        _log.debug("put the snapshot back after a navigation to %s", info.url().toString())
        self._loading = True
        self._load_ok = None
        QTimer.singleShot(0, self, lambda: self._put_back(url))  # not inside Qt's loading callback

    def _put_back(self, url: QUrl) -> None:
        if self._closed or url != self._on_show:
            return  # closed, or another page was asked for meanwhile
        self.scheme_handler.serve_put_back(url)
        self.page.load(url)

    def _finish(self, ok: bool) -> None:
        """The load under way (or an accepted navigation's) ended: say so once."""
        self._loading = False
        self._load_ok = ok
        if self._wait_loop is not None:
            self._wait_loop.quit()
        emit(self.loaded, ok)

    def wait_until_loaded(self, timeout_ms: int = 30_000) -> bool:
        """Spin the event loop until the current load finishes; its success. TimeoutError if it does not, and
        NoFontsError if it failed on a machine with no fonts (where Chromium's renderer crashes on the page)."""
        if self._loading:
            # _finish quits the loop held in _wait_loop.
            run_until_quit(timeout_ms, lambda loop: setattr(self, "_wait_loop", loop))
            if self._loading:
                raise TimeoutError(f"page did not finish loading within {timeout_ms} ms: {self.page.url()}")
        if self._load_ok is False and no_fonts():
            raise NoFontsError
        return bool(self._load_ok)

    # -- injected JavaScript ----------------------------------------------------------------------------

    def run_js_async(self, code: str, callback: Callable[[Any], None] | None = None) -> None:
        """Run `code` in ApplicationWorld; `callback` gets its completion value (None when it threw)."""
        if callback is None:
            self.page.runJavaScript(code, APPLICATION_WORLD)
        else:
            self.page.runJavaScript(code, APPLICATION_WORLD, callback)

    def run_js(self, code: str, timeout_ms: int = 30_000) -> Any:
        """Run `code` in ApplicationWorld and return its completion value, spinning the event loop meanwhile."""
        box: list[Any] = []
        waiting: list[QEventLoop | None] = [None]

        def done(value: Any) -> None:
            box.append(value)
            if waiting[0] is not None:
                waiting[0].quit()

        self.run_js_async(code, done)
        if not box:
            run_until_quit(timeout_ms, lambda loop: waiting.__setitem__(0, loop))
        if not box:
            raise TimeoutError(f"JavaScript did not answer within {timeout_ms} ms")
        return box[0]

    # -- lifetime -------------------------------------------------------------------------------------------

    def keep(self, obj: QObject) -> QObject:
        """Hold `obj` as long as this page lives (anything handed to Qt that Qt may call back)."""
        self._kept.append(obj)
        return obj

    def expose(self, name: str, bridge: ScriptBridge) -> None:
        """Let the page's scripts reach `bridge` as the web channel's object `name`."""
        channel = QWebChannel()
        channel.registerObject(name, bridge)
        self.keep(bridge)
        self.keep(channel)
        self.page.setWebChannel(channel, APPLICATION_WORLD)

    def close(self) -> None:
        """Delete view, page, then profile, in the order Qt needs; only then let go of the handlers."""
        if self._closed:
            return
        self._closed = True
        from shiboken6 import Shiboken

        if self.view is not None:
            self.view.setPage(None)
            Shiboken.delete(self.view)
            self.view = None
        Shiboken.delete(self.page)
        Shiboken.delete(self.profile)
        # The profile is gone, so nothing calls these any more.
        self._kept.clear()
        if self._archive_folder is not None:
            shutil.rmtree(self._archive_folder, ignore_errors=True)

    def __enter__(self) -> OfflinePage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
