"""Browsing a snapshot site in the embedded browser: saved pages by URL, nothing from the network.

`SiteBrowser` shows one page of a `Site` (core/agent/sites.py) at a time, served as HTML with its saved URL as
base (see site_page.py for why not as an MHTML archive), its scripts off. Every navigation the page starts is
intercepted. A person's (a link clicked, a form submitted, a new-window link, the page history) is followed: a
URL the site holds loads that saved page, any other URL shows the "not in this snapshot" page naming it. One the
page makes by itself (a `<meta http-equiv=refresh>`, a redirect) is not: the page stays, and the status bar says
so once. No request leaves the process: the loader's blocker refuses and counts every one that is not the page or
one of its archived resources; the count is the page's on show, started again with each page. A frame loads what
the snapshot holds: a captured page's frames are parts of its MHTML (`cid:` frames, served beside the page like
its other resources), and a `srcdoc` or `data:` frame is the page's own; a frame of the live web stays empty, and
is counted. `page_note()` says all of it in one line, so that nothing in it replaces the rest in a status bar.

The browser keeps its own history of site URLs (the page's history only knows served URLs), for GoBack.
Set-of-mark (resources/js/som.js) numbers the interactive elements in view; `observe()` returns them with a
screenshot that shows the numbers, and `settled_png()` is that picture. Its text ends with each loaded frame's
(`frame_texts`): set-of-mark reads the page alone, so a frame's links and fields get no number. Page events (the
user's actions while recording, the Back key) arrive as `page_event(dict)`. Wherever the app's scripts run, the
main frame and every frame in it, dom_rules.js has run first: they read the page's nodes through its
`__recordlens.dom`, since markup alone (a form's control named `parentElement`) can shadow what a node says of
itself.

"Save this page to the site" re-saves a page of the site as rendered (over its own file), without the app's own
set-of-mark numbers (taken off the page while Chromium writes it, and any left stripped from what it wrote); a
captured page's meta.json then says its tree and screenshot are still the capture's (`note_resaved`). A site
RecordLens ships is never written: the demo's page is saved into the user's copy of the demo site (demo_site.py),
which is the site open from then on (`site_copied`); another's save is refused. Pages from
the web are saved by a process of their own (site_saver.py: this process never reaches the network);
`reload_site()` picks up what it added.
"""

from __future__ import annotations

import itertools
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QImage
from PySide6.QtWebEngineCore import (
    QWebEngineDownloadRequest,
    QWebEngineNavigationRequest,
    QWebEngineNewWindowRequest,
    QWebEnginePage,
    QWebEngineScript,
    QWebEngineSettings,
)
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ...core.agent import (
    INERT_SCHEMES,
    Observation,
    Site,
    Target,
    build_site,
    load_site,
    loose_url,
    not_in_snapshot_html,
)
from ...core.command_hints import hint_path
from ...core.errors import RecordLensError
from ...core.page import read_snapshot, write_mhtml
from ...core.resource_files import is_shipped, never_changed
from ..labelling.page_view import parse_js_result
from ..qt.event_loop import settled_grab, spin
from ..qt.page_loader import APPLICATION_WORLD, OfflinePage, ScriptBridge, script_slot
from ..qt.page_scripts import DOM_RULES, document_script, read_script
from ..qt.signals import emit
from ..qt.widgets import button
from .demo_site import copy_demo_site, demo_site_folder, in_the_demo_copy
from .site_page import (
    PreparedPage,
    note_page_resaved,
    prepare_page,
    resaved_note,
    restore_saved,
)
from .site_saver import SCRIPT_WAIT_S, keep_hidden

_log = logging.getLogger(__name__)
COPY_IT = "copy the site's folder and open the copy (Agent → Open site…)"  # a shipped site, to be saved into
SOM = "som.js"
SCRIPTS = (SOM, "site_events.js")
CHANNEL_OBJECT = "recordlens_site"  # the name site_events.js looks the bridge up by
FIRST_LABEL = 1  # as core's HtmlSiteBrowser numbers them, so the demo's reference labels mean the same here
_served_numbers = itertools.count(1)
_NAVIGATION = QWebEngineNavigationRequest.NavigationType
_FOLLOWED = (_NAVIGATION.LinkClickedNavigation, _NAVIGATION.FormSubmittedNavigation)  # a person's doing
FRAME_TEXT_WAIT_S = 10.0  # a frame that has not answered by then has no text to give
SETTLE_QUIET_MS = 250  # once the page has handled an action, nothing new for this long: what it started is over
SETTLE_TIMEOUT_MS = 30_000  # settle gives up after this long (a renderer that never answers)
# A navigation the page says it started reaches navigationRequested in milliseconds (its request leaves the
# renderer before the page's answer saying so); one not heard of by then never will be, and is waited for once.
UNHEARD_NAVIGATION_S = 5.0
_STARTED_JS = "[location.href, globalThis.__recordlens?.site?.navigationsStarted?.() ?? 0]"  # see site_events.js


class SiteBrowserError(RuntimeError):
    pass


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data)


def _spin_until(condition: Callable[[], bool], seconds: float) -> bool:
    """Run the event loop until `condition()` (True) or `seconds` have passed (False): a page's answer."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() >= deadline:
            return False
        spin(20)
    return True


def _ms_left(deadline: float) -> int:
    return int((deadline - time.monotonic()) * 1000)


def _page_node_reads() -> str:
    """dom_rules.js, for a world where it may not have run yet (a frame's): it defines `__recordlens.dom`, through
    which the app's scripts read page nodes, and the XPath rules. Where it has run, nothing (no walk of the page)."""
    return f"if (!(globalThis.__recordlens && globalThis.__recordlens.dom)) {{\n{read_script(DOM_RULES)}\n}}"


def _frame_script() -> QWebEngineScript:
    """dom_rules.js at the creation of every frame's document: keep_hidden.js, run in every frame before a save,
    reads elements through it. It runs in the main frame too, beside `document_script`'s copy: whichever comes
    first defines `__recordlens.dom`; then `document_script`'s defines it again, the same, or this one does nothing."""
    script = QWebEngineScript()
    script.setName("recordlens-site-frames")
    script.setSourceCode(_page_node_reads())
    script.setInjectionPoint(QWebEngineScript.InjectionPoint.DocumentCreation)
    script.setWorldId(APPLICATION_WORLD)
    script.setRunsOnSubFrames(True)
    return script


def _frame_text_script() -> str:
    """A frame's shown text, asked of the frame itself (a `data:` frame's document is of another origin than the
    page), by the main page's line rules (som.js pageText), as core's text browser reads a frame. The app's scripts
    run in the main frame alone, so som.js comes along, after dom_rules.js unless the frame has it: both only define
    until asked, and a frame keeps them."""
    return f"{_page_node_reads()};\n{read_script(SOM)};\n__recordlens.som.pageText()"


def _counts(value: object) -> tuple[int, int] | None:
    """som.js's [above, below] as a pair of counts; None when it gave none (a whole page's marking)."""
    return (int(value[0]), int(value[1])) if isinstance(value, list) and len(value) == 2 else None


def _shown_frames(frame: Any) -> list[Any]:  # noqa: ANN401 - QWebEngineFrame, which PySide6 6.7 lacks
    """The frames inside `frame`, each followed by its own, that take room on the page."""
    shown: list[Any] = []
    for child in frame.children():
        if child.isValid() and not child.size().isEmpty():
            shown += [child, *_shown_frames(child)]
    return shown


def target_from_json(data: dict[str, Any]) -> Target:
    """A Target from som.js's description of an element."""
    bbox = data.get("bbox")
    label = data.get("label")
    return Target(label=int(label) if label is not None else None, xpath=data.get("xpath") or None,
                  text=str(data.get("text") or ""), role=str(data.get("role") or ""),
                  name=str(data.get("name") or ""), bbox=tuple(float(v) for v in bbox) if bbox else None)


class _Bridge(ScriptBridge):
    """The object site_events.js calls: a page event (its JSON) and a frame produced (its token); emitting
    happens in SiteBrowser."""

    event = script_slot("event", str)
    framed = script_slot("framed", int)


class SiteBrowser(QWidget):
    """A snapshot site in a web view, with a Back button, the current URL and "save this page to the site".

    Signals: `navigated(url)` (a new page was asked for: saved, or missing from the snapshot), `loaded(ok)`,
    `page_event(dict)` (see site_events.js), `blocked_count_changed(n)`, `message(text)` (for a status bar),
    `page_saved(path)` (the page on show was written to the site), `site_copied(folder)` (a save on the shipped
    demo site made the user's copy of it the site open). Call `dispose()` before the QApplication goes
    away."""

    navigated = Signal(str)
    page_saved = Signal(str)
    site_copied = Signal(str)
    loaded = Signal(bool)
    page_event = Signal(object)
    blocked_count_changed = Signal(int)
    message = Signal(str)

    def __init__(self, site: Site | str | Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.offline = OfflinePage(with_view=True)
        self.view = self.offline.view
        self.page = self.offline.page
        self.offline.expose(CHANNEL_OBJECT, _Bridge(event=self._on_page_event, framed=self._on_framed))
        self.page.scripts().insert(document_script("recordlens-site", *SCRIPTS))
        self.page.scripts().insert(_frame_script())
        # A served page may load its archived resources from the same local scheme only with this on (Qt counts
        # custom local schemes as "local URLs"); the blocker still refuses every URL it was not told about,
        # file:// included.
        self.page.settings().setAttribute(QWebEngineSettings.WebAttribute.LocalContentCanAccessFileUrls, True)
        # A link to a scheme the system would handle (mailto:, tel:) reaches navigationRequested, which refuses it
        # (nothing is launched), whether a person clicked it or a script did: by default only a person's would,
        # and settle would wait for one the page says it started (site_events.js counts every one).
        self.page.settings().setUnknownUrlSchemePolicy(
            QWebEngineSettings.UnknownUrlSchemePolicy.AllowAllUnknownUrlSchemes)
        self.page.navigationRequested.connect(self._on_navigation_requested)
        self.page.newWindowRequested.connect(self._on_new_window)
        self.page.renderProcessTerminated.connect(self._on_renderer_ended)
        self.offline.loaded.connect(self._on_loaded)
        self.offline.request_blocked.connect(self._on_blocked)
        self.offline.profile.downloadRequested.connect(self._on_download)

        self.site: Site | None = None
        self.current: PreparedPage | None = None
        self._url = ""
        self._served = QUrl()  # the page on show's URL to Chromium, which stands for `_url` (see `_page_url`)
        self._history: list[str] = []
        self._recording = False
        self._framed = 0
        self._frame_token = 0
        self._stayed = ""  # what the page on show tried to do by itself ("" nothing), said once
        self._empty_frames: set[str] = set()  # the page on show's frames from the live web, left empty
        self.navigations = 0  # counts every page asked for, so a caller can tell whether an action navigated
        # The page on show's navigations that reached navigationRequested, and those given up on (see settle).
        self._requests_heard = 0
        self._renderer_ended = False  # the page on show's renderer is gone: nothing on it answers (see settle)
        self._downloads: list[QWebEngineDownloadRequest] = []
        self.last_saved_meta: dict[str, object] | None = None  # the meta.json the last save rewrote, if any
        self._build()
        if site is not None:
            self.set_site(site)

    def _build(self) -> None:
        self.back_button = button("◀ Back", self._on_back_button)
        self.back_button.setToolTip("Go back (Alt+Left)")
        self.address = QLabel()
        self.address.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Read only, and said so: a benchmark's pages are reached by the site's links and Back, as an agent
        # reaches them (its grammar has no "go to URL"); a typed address would be a step no agent can take.
        self.address.setToolTip("The page's address (select to copy). Pages are reached through the site's links "
                                "and Back, as an agent reaches them; Agent → Open site… opens another site.")
        self.save_button = button("Save this page to the site", self._save_clicked)
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 2, 4, 2)
        bar.addWidget(self.back_button)
        bar.addWidget(self.address, 1)
        bar.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)
        self._update_bar()

    # -- the site ---------------------------------------------------------------------------------------------

    def set_site(self, site: Site | str | Path) -> Site:
        """Browse `site` (a Site, or a folder: its site.json, or an index built in memory). History restarts."""
        self.site = site if isinstance(site, Site) else load_site(site)
        self._history.clear()
        self._url = ""
        self._update_bar()
        return self.site

    def reload_site(self) -> Site | None:
        """Read the site's index again (a page was added to the folder), keeping the history and the page."""
        if self.site is None:
            return None
        self.site = load_site(self.site.root)
        self._update_bar()
        return self.site

    @property
    def url(self) -> str:
        """The URL on show as the site knows it (the saved URL, or the missing one), not the served URL."""
        return self._url

    @property
    def history(self) -> list[str]:
        return list(self._history)

    @property
    def in_site(self) -> bool:
        """The page on show is a saved page of the site (not the "not in this snapshot" page)."""
        return self.current is not None

    @property
    def blocked_urls(self) -> list[str]:
        return self.offline.blocked_urls

    @property
    def blocked_count(self) -> int:
        return self.offline.blocked_count

    # -- navigation -------------------------------------------------------------------------------------------

    def open(self, url: str, *, fresh: bool = False) -> None:
        """Show the site's page for `url`, or the "not in this snapshot" page; it joins the history (which
        starts again with it when `fresh`, as at the start of an episode)."""
        if fresh:
            self._history.clear()
        self._history.append(url)
        self._show(url)

    def back(self) -> bool:
        """The previous page of the history; False (and nothing happens) on the first page."""
        if len(self._history) < 2:
            emit(self.message, "no earlier page to go back to")
            return False
        self._history.pop()
        self._show(self._history[-1])
        return True

    def _on_back_button(self) -> None:
        if self._recording:
            emit(self.page_event, {"kind": "back"})  # the recorder goes back once the step is recorded
        else:
            self.back()

    def start_page(self) -> str | None:
        """The page a site opened without a task shows first: where its capture began, else its first by URL."""
        return self.site.start_url() if self.site else None

    def _show(self, url: str) -> None:
        if self.site is None:
            raise SiteBrowserError("no site is open")
        self.navigations += 1
        self._requests_heard = 0  # the next document counts its own navigations from none
        self._renderer_ended = False  # a page loaded starts a renderer of its own
        saved = self.site.page(url)
        url = saved.url if saved is not None else url  # a URL that redirected: where it led, as a browser shows
        self._url = url
        path = self.site.resolve(url)
        self.current = None
        self._stayed = ""
        self._empty_frames.clear()
        self.offline.reset_blocked()  # the count said is the page's on show
        if path is not None:
            try:
                self.current = prepare_page(path, url, f"recordlens-page:/site-res/{next(_served_numbers)}/")
            except Exception as error:  # noqa: BLE001 - a broken saved page must not break browsing
                _log.warning("cannot show %s: %s", path, error)
                emit(self.message, f"cannot show {path.name}: {error}")
        if self.current is not None:
            self._served = self.offline.load_html(self.current.html, path.name if path else "page.html")
            # load_html let only the page through; its archived resources are served beside it.
            for served, (data, content_type) in self.current.resources.items():
                served_url = QUrl(served)
                self.offline.scheme_handler.put(served_url, data, content_type.encode("ascii", "replace"))
                self.offline.blocker.allow(served_url)
        else:
            self._served = self.offline.load_html(not_in_snapshot_html(url, self.site.saved_beside(url)),
                                                   "not-in-snapshot.html")
        self._update_bar()
        emit(self.navigated, url)

    def _on_navigation_requested(self, request: QWebEngineNavigationRequest) -> None:
        url = request.url()
        kind = request.navigationType()
        ours = url.scheme() == "recordlens-page"
        if ours and kind == _NAVIGATION.TypedNavigation:
            request.accept()  # a page this browser asked for
            return
        if not request.isMainFrame():
            self._on_frame_navigation(request)
            return
        self._requests_heard += 1
        request.reject()
        if url.scheme() in INERT_SCHEMES:
            return  # script URLs never run here, and a blank page is not a page of the site
        if kind == _NAVIGATION.BackForwardNavigation:
            QTimer.singleShot(0, self._on_back_button)  # the view's own Back key: the site's history
        elif kind == _NAVIGATION.ReloadNavigation:
            QTimer.singleShot(0, lambda: self._show(self._url))
        elif kind not in _FOLLOWED:
            self._stay(None if ours else url)  # a refresh or redirect of the page's own: no one asked for it
        else:
            url = self._page_url(url)
            if url.scheme() != "recordlens-page":
                self._follow(url)

    def _on_frame_navigation(self, request: QWebEngineNavigationRequest) -> None:
        """A frame of the page on show loads what the snapshot holds: a part of its archive (served beside the
        page, as its `cid:` frames are) or a `data:` URL, whose bytes are in the page (a `srcdoc` frame never
        asks). Any other URL is the live web: the frame stays empty, and the status bar says so (`page_note`)."""
        url = request.url()
        if self.offline.blocker.allows(url) or url.scheme() == "data":
            request.accept()
            return
        request.reject()
        if url.scheme() in INERT_SCHEMES:
            return  # a script URL never runs here
        self._empty_frames.add(url.toString())
        emit(self.message, self.page_note())

    def _on_new_window(self, request: QWebEngineNewWindowRequest) -> None:
        # One window: a link meant for a new tab opens here, as it would for an agent.
        self._requests_heard += 1
        url = self._page_url(request.requestedUrl())
        if request.isUserInitiated():
            self._follow(url)
        else:
            self._stay(url)

    def _stay(self, url: QUrl | None) -> None:
        """The page on show tried to go to `url` (None: to itself) by itself: it stays, and the status bar says so
        once (with the requests blocked on it so far: `page_note`)."""
        if not self._stayed:
            where = f"go to {url.toString()}" if url is not None else "reload itself"
            self._stayed = (f"this page tried to {where} by itself (a refresh or redirect in it); it stays: only a "
                            "link or form you use leaves it")
            emit(self.message, self.page_note())

    @property
    def stayed(self) -> bool:
        """The page on show tried to leave by itself (a refresh or redirect), and stayed."""
        return bool(self._stayed)

    def page_note(self) -> str:
        """What the status bar says of the page on show: a refresh or redirect of its own that was not followed,
        its frames of the live web left empty, and the requests refused on it; in one line, since a later message
        replaces the one before."""
        blocked = self.offline.blocked_count
        frames = len(self._empty_frames)
        empty = f"{frames} frame(s) not in this snapshot left empty" if frames else ""
        return "; ".join(filter(None, (self._stayed, empty,
                                       f"{blocked} request(s) blocked on this page" if blocked else "")))

    def _page_url(self, url: QUrl) -> QUrl:
        """`url`, or, when it is the served page's own URL with a query or fragment, the page's real URL with them.

        HTML sends a form without an action (or with `action=""`) to the document's URL with the new query, and
        resolves some references against it; the document's URL here is the served `recordlens-page:` one, which
        stands for the snapshot page's. A query given replaces the page's (a link's `?q=x` drops its fragment too);
        a fragment alone keeps it."""
        plain = QUrl(url)
        plain.setQuery(None)
        plain.setFragment(None)
        if self._served.isEmpty() or plain != self._served:
            return url
        real = QUrl(self._url)
        if url.hasQuery():
            real.setFragment(None)
            real.setQuery(url.query(QUrl.ComponentFormattingOption.FullyEncoded))
        if url.hasFragment():
            real.setFragment(url.fragment(QUrl.ComponentFormattingOption.FullyEncoded))
        return real

    def _follow(self, url: QUrl) -> None:
        text = url.toString()
        fragment = url.fragment()
        if fragment and self.in_site and self._same_page(text):
            self.offline.run_js_async(f"(document.getElementById({json.dumps(fragment)}) || "
                                      f"document.getElementsByName({json.dumps(fragment)})[0])?.scrollIntoView()")
            return
        # Later, not inside Chromium's navigation callback.
        QTimer.singleShot(0, lambda: self.open(text))

    def _same_page(self, url: str) -> bool:
        """Whether `url` names the page on show: the same saved page of the site (a site holding both /dir and
        /dir/ has two), or, outside a site, the same URL whichever way its trailing slash is written."""
        if self.site is not None:
            here = self.site.page(self._url)
            return here is not None and self.site.page(url) is here
        try:
            return loose_url(url) == loose_url(self._url)
        except ValueError:
            return False

    def _on_loaded(self, ok: bool) -> None:
        if ok and self._recording:
            self.offline.run_js_async("__recordlens.site.setRecording(true)")
        emit(self.loaded, ok)

    def _on_blocked(self, _url: str) -> None:
        emit(self.blocked_count_changed, self.offline.blocked_count)

    def wait_until_loaded(self, timeout_ms: int = 30_000) -> bool:
        return self.offline.wait_until_loaded(timeout_ms)

    @property
    def loading(self) -> bool:
        return self.offline._loading  # noqa: SLF001 - OfflinePage has no public "is loading"

    def settle(self, quiet_ms: int = SETTLE_QUIET_MS, timeout_ms: int = SETTLE_TIMEOUT_MS) -> None:
        """Until what an action (a click, keys, Back) started is over, within `timeout_ms`: the page has handled the
        input sent to it so far, however busy its renderer is; every navigation it started has reached this browser;
        a page asked for has loaded; and then nothing new came for `quiet_ms`.

        Known, not guessed by the time since the action: a navigation starts only as the renderer handles the input
        that asks for it, which a busy machine can put off for seconds, and the page itself says how many it
        started (`_caught_up`). After an action that asked for none it returns after two round trips to the page
        and the quiet time."""
        deadline = time.monotonic() + timeout_ms / 1000
        while time.monotonic() < deadline and self.view is not None and not self._renderer_ended:
            if self.loading:
                self.wait_until_loaded(max(1, _ms_left(deadline)))
            shown = self.navigations
            if self._caught_up(shown, deadline) and self._stays_quiet(shown, quiet_ms, deadline):
                return

    def _unchanged(self, shown: int) -> bool:
        """No page was asked for since the `shown`-th, none is loading, and the page's renderer still runs."""
        return self.navigations == shown and not self.loading and not self._renderer_ended

    def _caught_up(self, shown: int, deadline: float) -> bool:
        """Whether the page on show has handled the input sent to it before now and what that handling queued, and
        this browser has heard of every navigation the page started meanwhile. False when a page was asked for.

        A question to the page runs after the input that came before it (the renderer handles input first); a
        form's submission is a task of its own that the handling of a click or Enter queues, so a second question,
        asked once the first is answered, comes after it. The page's answer leaves the renderer after any request
        the navigation sent, but to be sure its count is waited for."""
        if self._navigations_started(shown, deadline) is None:
            return False
        started = self._navigations_started(shown, deadline)  # asked after what the first one's handling queued
        if started is None:
            return False
        heard_by = min(deadline, time.monotonic() + UNHEARD_NAVIGATION_S)
        if not _spin_until(lambda: self._requests_heard >= started or not self._unchanged(shown),
                           heard_by - time.monotonic()):
            _log.warning("%s started %d navigation(s) but %d reached the browser", self._url, started,
                         self._requests_heard)
            self._requests_heard = started  # never will: waited for once, not again at every later settle
        return self._unchanged(shown)

    def _navigations_started(self, shown: int, deadline: float) -> int | None:
        """How many navigations the page on show says it started (site_events.js); None when a page was asked for
        before it answered (the document asked may be gone, and its answer with it), it did not answer in time, or
        the page before it answered. Qt reports the failed load of a navigation refused there (one to mailto:) at
        times after the next page's load began; OfflinePage takes it for no load's outcome, so `loading` holds until
        the next page is in, and the check of the answering page's URL stays as a guard should a report mislead it."""
        answers: list[object] = []
        self.offline.run_js_async(_STARTED_JS, answers.append)
        _spin_until(lambda: bool(answers) or not self._unchanged(shown), deadline - time.monotonic())
        if not answers or not self._unchanged(shown):
            return None
        answer = answers[0]
        where, started = answer if isinstance(answer, list) and len(answer) == 2 else ("", 0)
        if self._an_earlier_page(str(where)):
            return None
        return int(started) if isinstance(started, (int, float)) else 0

    def _an_earlier_page(self, url: str) -> bool:
        """Whether `url` (a document's own) is of a page this browser served before the page on show."""
        shown = QUrl(url)
        shown.setFragment(None)  # a move within the page on show leaves it the same page
        return not self._served.isEmpty() and shown.scheme() == self._served.scheme() and shown != self._served

    def _on_renderer_ended(self, status: QWebEnginePage.RenderProcessTerminationStatus, code: int) -> None:
        """The page on show's renderer ended (it crashed or was killed): nothing will answer on it, so settle
        returns at once; the page shown next starts another."""
        self._renderer_ended = True
        _log.warning("the renderer of %s ended (%s, exit code %d)", self._url, status.name, code)

    def _stays_quiet(self, shown: int, quiet_ms: int, deadline: float) -> bool:
        """Whether no page is asked for within `quiet_ms` (a followed link opens its page a turn of the event
        loop after its request, a Back reported by the page's keys another)."""
        until = min(deadline, time.monotonic() + quiet_ms / 1000)
        _spin_until(lambda: not self._unchanged(shown), until - time.monotonic())
        return self._unchanged(shown)

    def _update_bar(self) -> None:
        self.address.setText(self._url or "(no page)")
        self.back_button.setEnabled(len(self._history) > 1)
        self.save_button.setEnabled(self.in_site)

    # -- JavaScript -------------------------------------------------------------------------------------------

    def run_js(self, code: str, timeout_ms: int = 30_000) -> Any:
        return self.offline.run_js(code, timeout_ms)

    def js_json(self, code: str, timeout_ms: int = 30_000) -> Any:
        """The JSON value of `code` (which must evaluate to JSON text), or None."""
        return parse_js_result(self.offline.run_js(code, timeout_ms))

    # -- set-of-mark and pictures -----------------------------------------------------------------------------

    def mark(self, *, whole_page: bool = False, draw: bool = True) -> Observation:
        """Number the interactive elements (in view, or on the whole page) and draw the numbers; the
        observation without its screenshot. Of the view, it says how many elements the numbering left out above
        and below it, counted by the same marking (som.js `out_of_view`)."""
        options = json.dumps({"all": whole_page, "first": FIRST_LABEL, "draw": draw})
        data = self.js_json(f"__recordlens.som.mark({json.dumps(options)})")
        if data is None:
            raise SiteBrowserError(f"set-of-mark did not answer on {self._url}")
        return Observation(url=self._url, title=str(data.get("title") or ""),
                           elements=tuple(target_from_json(e) for e in data["elements"]),
                           scroll=tuple(data["scroll"]), viewport=tuple(data["viewport"]),  # type: ignore[arg-type]
                           page_height=float(data["page_height"]) if data.get("page_height") else None,
                           elements_out_of_view=_counts(data.get("out_of_view")))

    def clear_marks(self) -> None:
        self.run_js("__recordlens.som.clear()")

    def observe(self) -> Observation:
        """The numbered elements in view and a screenshot showing their numbers."""
        observation = self.mark()
        text = self.run_js("__recordlens.som.pageText()")
        text = "\n".join(filter(None, (text if isinstance(text, str) else "", *self.frame_texts())))
        return Observation(url=observation.url, title=observation.title, screenshot=self.settled_png(),
                           elements=observation.elements, scroll=observation.scroll, viewport=observation.viewport,
                           text=text, page_height=observation.page_height,
                           elements_out_of_view=observation.elements_out_of_view)

    def frame_texts(self) -> list[str]:
        """The text of each frame on show that the snapshot held (frames inside frames too), in the order of the
        frame tree: set-of-mark's page text stops at a frame's border. A frame left empty or not shown (no size)
        has none (so every frame with PySide6 6.7, which has no frame API, as site_saver.keep_hidden)."""
        if not hasattr(self.page, "mainFrame"):
            return []
        frames = _shown_frames(self.page.mainFrame())
        texts: dict[int, object] = {}
        script = _frame_text_script()
        for i, frame in enumerate(frames):
            frame.runJavaScript(script, APPLICATION_WORLD, lambda text, i=i: texts.__setitem__(i, text))
        _spin_until(lambda: len(texts) == len(frames), FRAME_TEXT_WAIT_S)
        return [text for _, text in sorted(texts.items()) if isinstance(text, str) and text]

    def settled_image(self, timeout_ms: int = 5_000, interval_ms: int = 40) -> QImage:
        """What the view shows once the page produced a frame and three grabs `interval_ms` apart agree (the
        widget gets the frame after the page says so, and no signal tells when)."""
        if self.view is None:
            raise SiteBrowserError("the browser was disposed")
        self._frame_token += 1
        token = self._frame_token
        self.offline.run_js_async(f"__recordlens.site.ping({token})")
        return settled_grab(self.view, lambda: self._framed >= token, timeout_ms, interval_ms)

    def settled_png(self) -> bytes:
        """The settled picture as PNG, one pixel per CSS pixel (element boxes are in CSS pixels)."""
        image = self.settled_image()
        if image.devicePixelRatio() != 1 and self.view is not None:
            image = image.scaled(self.view.size(), Qt.AspectRatioMode.IgnoreAspectRatio,
                                 Qt.TransformationMode.SmoothTransformation)
        return png_bytes(image)

    # -- recording hooks --------------------------------------------------------------------------------------

    @property
    def recording(self) -> bool:
        return self._recording

    def set_recording(self, on: bool) -> None:
        self._recording = bool(on)
        self.offline.run_js_async(f"__recordlens.site.setRecording({json.dumps(self._recording)})")

    def commit_typing(self) -> None:
        """Report a field typed into but not committed yet (before a Wait, an answer, or stopping)."""
        self.run_js("__recordlens.site.commitTyping()")

    def _on_page_event(self, payload: str) -> None:
        try:
            data = json.loads(payload)
        except json.JSONDecodeError:
            return
        if not isinstance(data, dict):
            return
        if data.get("kind") == "back" and not self._recording:
            self.back()  # while recording the recorder goes back, so that the step is recorded first
        emit(self.page_event, data)

    def _on_framed(self, token: int) -> None:
        self._framed = max(self._framed, token)

    # -- saving -----------------------------------------------------------------------------------------------

    def _save_clicked(self) -> None:
        try:
            path = self.save_page()
        except (SiteBrowserError, RecordLensError, OSError, ValueError) as error:
            emit(self.message, f"not saved: {error}")
            return
        note = resaved_note(self.last_saved_meta)
        where = hint_path(path) + (", your copy of the demo site (the one RecordLens ships is never changed)"
                                   if in_the_demo_copy(path) else "")
        emit(self.message, f"saved {self._url} to {where}" + (f"; {note}" if note else ""))

    def save_page(self, path: str | Path | None = None, timeout_ms: int = 30_000) -> Path:
        """Save the page as rendered to MHTML in the site folder (by default over its own file) under its saved
        URL, and re-index the site. Only site pages can be saved: this process never reaches the network. A
        site RecordLens ships is saved into its copy (`_site_to_write`)."""
        if self.site is None or self.current is None:
            raise SiteBrowserError(f"{self._url or 'this page'} is not in the snapshot, so there is nothing to "
                                   "save here (this window never loads from the network; use Agent → Save a page "
                                   "from the web…)")
        site = self._site_to_write(self.site)
        existing = site.resolve(self._url)
        target = Path(path) if path is not None else existing or site.root / "saved.mhtml"
        if is_shipped(target):
            raise SiteBrowserError(f"{never_changed(target)}: {COPY_IT}")
        raw = target.with_name(f".{target.name}.chromium.mhtml")
        try:
            self._save_marked(raw, timeout_ms)
            html, resources = restore_saved(read_snapshot(raw), self.current)
            write_mhtml(target, html, url=self.current.url, title=self.current.title or None, resources=resources)
        finally:
            raw.unlink(missing_ok=True)
        # A captured page's tree and screenshot describe the page as captured, not the file just written.
        self.last_saved_meta = note_page_resaved(self.site, self._url, target) if target == existing else None
        self.site = build_site(self.site.root)
        self._update_bar()
        emit(self.page_saved, str(target))
        return target

    def _site_to_write(self, site: Site) -> Site:
        """The site a save writes into: the one open, unless RecordLens ships it (never written). The shipped demo's
        is the user's copy of it, made now if it is not there yet and the site open from then on, with the page on
        show and the history (the copy holds the same URLs); another shipped site's save is refused."""
        if not is_shipped(site.root):
            return site
        if site.root.resolve() != demo_site_folder().resolve():
            raise SiteBrowserError(f"{never_changed(site.root)}: {COPY_IT}")
        self.site = load_site(copy_demo_site())
        self._update_bar()
        emit(self.site_copied, str(self.site.root))
        return self.site

    def _save_marked(self, raw: Path, timeout_ms: int) -> None:
        """The page on show written by Chromium to `raw`, as the capture and the web saver write theirs. The numbers
        drawn while recording are the app's, not the page's: off the page while it is written (restore_saved
        strips any drawn meanwhile), and back as they were after, whatever fails. Chromium's MHTML writer drops
        hidden fields and `hidden` elements: in every frame, made what it keeps, still hidden and still sent
        with their form (site_saver's `keep_hidden`; a captured page has them so already)."""
        try:
            self.run_js("__recordlens.som.detach()")
            keep_hidden(self.page, _spin_until, lambda: SCRIPT_WAIT_S)
            self._chromium_save(raw, timeout_ms)
        finally:
            self.run_js("__recordlens.som.attach()")

    def _chromium_save(self, raw: Path, timeout_ms: int) -> None:
        """The page on show as Chromium's MHTML writer writes it, to `raw`."""
        self._downloads.clear()
        self.page.save(str(raw.resolve()), QWebEngineDownloadRequest.SavePageFormat.MimeHtmlSaveFormat)
        deadline = time.monotonic() + timeout_ms / 1000
        while time.monotonic() < deadline and not (self._downloads and self._downloads[-1].isFinished()):
            spin(20)
        completed = QWebEngineDownloadRequest.DownloadState.DownloadCompleted
        if not self._downloads or self._downloads[-1].state() != completed:
            raise SiteBrowserError(f"Chromium did not save the page within {timeout_ms} ms")

    def _on_download(self, request: QWebEngineDownloadRequest) -> None:
        # page.save() starts an accepted download; keeping it lets save_page watch it finish. Any other is the
        # page's, which OfflinePage cancels: it must not stand for the save.
        if request.isSavePageDownload():
            self._downloads.append(request)

    # -- lifetime ---------------------------------------------------------------------------------------------

    def dispose(self) -> None:
        """Release the browser page and profile (before the QApplication goes away). Idempotent."""
        self.offline.close()
        self.view = None
        self.hide()
