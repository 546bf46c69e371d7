"""Capturing a site from the web (`recordlens site capture`): the crawl of core/agent/capture.py, rendered by
this process's own online Chromium, and the app's way of running it in the background.

Like "Save a page from the web" (site_saver.py), capturing goes online, so it runs in a process of its own,

    python -m recordlens.annotator.cli site capture URL... --site DIR [--depth N] [--max-pages N] ...

(the same as `recordlens site capture`), with the app's Chromium flags minus the offline proxy and an
off-the-record profile. The page is loaded in a view of the stated viewport (1920x1080 by default); once it
has loaded and settled, DevTools (on a loopback port of this process only) gives what is kept:
`Accessibility.getFullAXTree` and `DOM.getDocument` (the tree and its elements' XPaths),
`Page.captureScreenshot` (the full page, not just the viewport: with `captureBeyondViewport` when it is taller
than the view; across, the view's width from where the page starts, its right-hand side for a right-to-left page
wider than the view: `_full_page_shot`),
`Page.captureSnapshot` (the MHTML, Blink's writer, the same the saver uses), and the Network domain's events
(the HTTP status and every redirect followed). Links are read by a script in the ApplicationWorld, which runs
even with page scripts off; GET forms are read by the crawl from the MHTML (core's `form_targets`: each submitted
by a click on its default button, with the very code the site's browsers submit it with offline). The writer leaves
out hidden fields and `hidden` elements: after everything else is taken, and just before the MHTML is, they are made
what it keeps (site_saver.py's `keep_hidden`), so that the saved form sends what the live one would.

Frames of the page's own origin are part of it: their links are followed as the page's are, and each frame's
tree (`getFullAXTree` with its `frameId`) is kept under its Iframe node, in the same list of nodes, so that the
tree says what the screenshot shows. Their nodes have no XPath (core's XPaths address the page's own document).
Frames of another origin are left out of both (Chromium may render them in another process, as another target).

Once the page has settled, its timers, animation frames and idle callbacks are stopped (in its own script world,
its frames of its origin too) before anything is read, so that its links, tree, DOM, screenshot and MHTML are of
one moment of a page that keeps changing (a ticker, a clock, a carousel); its markup is compared before the tree and
after the screenshot, and a page that changed all the same (what it loads or is sent) is kept with a warning that
says its files may show different moments. A navigation that the page's script or meta refresh starts while it
loads or settles is checked by the rules as a redirect is, followed (up to `MAX_CLIENT_HOPS` in a row, within the
page's --timeout; counted by the guard as each is asked, so that a 0-second meta refresh Chromium follows during the
load counts as one a script starts later does, and the HTTP redirects between them do not, though the page's
script edits its history entry while they come: `_Hops`), and recorded among its redirects with `"kind": "script or
meta refresh"`; its script's reload of the page itself too (a check page that reloads itself once its cookie is
set), but not its meta refresh to itself (below). A loop
fails as one, on every run, whatever the timing: a navigation that goes round the page's chain (its redirects, meta
refreshes, scripts' navigations) again is rejected when it is asked for ("it redirects in a loop (/a → /b → /a) …"):
one that would request a URL of the chain a third time, or that leaves an address the chain came back to by the way
it left it the first time (/a → /b → /a → /b). A chain that came back to an address once and went elsewhere from it
is no loop (a check page: the page sends the browser to /check, which sends it back, and the page, its cookie set,
goes on to /welcome). A chain that still goes on after `MAX_CLIENT_HOPS` fails too ("… more than 5 times in a row
…"), its next navigation rejected when it is asked for: the page it stopped at is a "Redirecting…" page, no page to
save. An HTTP redirect loop is said so too (when it goes round again, before Chromium's 20 hops would end it as
net::ERR_TOO_MANY_REDIRECTS).
A meta refresh due within the settling time (`SETTLE_MS`: `content="0; url=…"`) that has not gone when it ends (a
renderer slower than that, on a busy machine) is waited for, within the page's --timeout, and followed: the
"Redirecting…" page it stands on is never saved before it goes (only, with a warning, one whose refresh had not gone
by the end of its --timeout). A refresh that takes the page nowhere is none to wait for: one to an address Chromium
never sends a web page's top frame to by a refresh (`data:`, `file:`, `javascript:`), and one to the page itself.
A meta refresh to the page itself, whether it names no address (`content="0"`), the page's own (`url=/same`) or a
fragment of it (`url=#top`), is one rule in one place (`_refreshes_itself`): it is not followed, and the page is
captured as it loaded. Chromium makes each a reload of the very page (not a move within it, as a link to `#top`
is), and the page reloaded refreshes again, for ever: followed, the page was read while a reload came (on a busy
machine its tree, screenshot or saved page were of a reload's document not yet parsed), its server was asked for it
again and again, and a refresh to its own URL failed as a loop (`/same → /same`) though the page was there to save.
The guard cannot tell that reload from a script's as it is asked (both come as redirects, and the page cannot be
read while the request waits): it holds every reload of the page shown, and `render` decides once the page has
loaded, by its meta refresh and when it was due (`_NavigationGuard.reload`): a reload asked before the refresh's delay
had passed since the page's load (Chromium counts it from there; within SETTLE_MS) is its script's, followed (a
check page that sets its cookie and reloads, its refresh to itself in 20 s a fallback for browsers without scripts).
A page that `history.pushState`d another URL is kept under the URL it was served from (put back with
`history.replaceState` before it is read), with a warning.

A page has its `--timeout` to load, and everything after (settling, reading its links, every DevTools call) must
end within `CAPTURE_MARGIN_S` more: a page whose capture hangs fails then ("capturing it took too long"). A load
that does not finish in time is the server's failure only when its document got no answer (five of a host's in a
row stop the capture: "the site stopped answering"); once the server answered, it is the page's own. When the
page's document came whole and its renderer answers, what did not come is something it loads (an image or a
tracker of another server that hangs): the load is stopped and the page kept as it was then, with a warning that
names the requests still pending (also in its meta.json's `warnings`). Otherwise (a script that never ends, a
document cut short) it fails, and its renderer is ended, as it is whenever a page's capture runs out of time: a
script that loops holds it for good, and the next page would load in it.

A page too large to capture fails as soon as that shows, its renderer ended, rather than take gigabytes until its
--timeout (Chromium keeps all of a document it is given): a document of it (its own, a frame's) of more than
`MAX_PAGE_MIB`, by its Content-Length (the browser's Network event, as its answer comes) or by what it has brought
(decoded: a page sent without a length, a compressed one); and, where the system says it (Linux), a renderer past
`MAX_RENDERER_MIB` of memory while the page loads: a renderer swamped by what it is sent tells its Network events
seconds late, the byte count with them.

The page's scripts run, but within online_guards.py's limits: their dialogs never wait (alert ignored, confirm
and prompt answered Cancel), no service worker registers, no request sends data, no WebSocket, WebRTC or
WebTransport connection is made (WebRTC's and WebTransport's constructors are refused in every document, a
frame's first, empty one too: DevTools runs that script there), and a form posted by a script is not submitted
(the page stays whole, as served). A captured page's warnings say what was kept from it.

A page of more than `MAX_TREE_ELEMENTS` elements (its frames' included) keeps no tree: asking Chromium for it
takes longer than the rest of the capture and gives hundreds of megabytes no agent reads (a 30 MB page: 450,000
nodes, 133 MB). Its stored tree is its root with a note saying so, and a warning line names the page.
A full-page screenshot is at most `MAX_SCREENSHOT_HEIGHT` px tall (Chromium's texture limit): a taller page's is
its top that many px, said in a warning (what share of the page it shows) and in its meta.json
(`screenshot_cut_at`). It is not tiled: a page of 276,000 px would make a PNG of half a billion pixels.

Every main-frame navigation (each redirect's hop, a script's or meta refresh's navigation) is put to the crawl's
`refuse_redirect` before it is followed (the page's `navigationRequested`: Chromium holds a redirect until it is
answered; a request interceptor would be asked only while the redirect's request is already being sent): a URL
the capture's rules refuse (another host under --same-host, ...) is never requested, and the page is reported
as a redirect refused (`PageFailed(..., redirected_to=URL)`), never as loaded. A redirect to another scheme is
never put to it: Chromium refuses a file: one (net::ERR_UNSAFE_REDIRECT) and cannot load an ftp: one
(net::ERR_ABORTED) first; such a page is reported as the rules refuse its target all the same (the crawl's "not a
web address (file:)"), found in the Network events (`_redirected_off_the_web`), not as a page that failed.

Progress lines go to stderr as `recordlens: [done/total] text`. Ctrl+C and SIGTERM (the app's Cancel too) stop
the capture at once, as they stop any command (`DeferredInterruption`): the page being captured is dropped, never
half-written nor said to have failed, and capture.json is left ready to resume.
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
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit, urlunsplit

from PySide6.QtCore import QProcess, Signal

from ...core.agent import (
    CAPTURE_SOME_FAILED,
    MAX_PAGE_MIB,
    PAGE_TIMEOUT_S,
    CaptureError,
    CaptureInterrupted,
    CaptureRules,
    CaptureSummary,
    PageFailed,
    RedirectCheck,
    RenderedPage,
    capture_site,
    normalise_url,
    off_the_web,
)
from ...core.agent import CAPTURE_VIEWPORT as DEFAULT_VIEWPORT
from ...core.interruption import Terminated
from ...core.wording import named_and_more
from ..qt.event_loop import spin
from ..qt.interruption import DeferredInterruption
from ..qt.online_page import OnlinePage
from ..qt.online_process import OnlineProcess
from ..qt.signals import emit
from .devtools import DevToolsError, DevToolsSession, enable_remote_debugging
from .site_saver import HTML_TYPES, chromium_flags, explained_network_error, keep_hidden, status_phrase

DEFAULT_TIMEOUT_S = PAGE_TIMEOUT_S
SETTLE_MS = 500
STOP_WAIT_S = 5.0        # how long a stopped load may take to say it ended
RENDERER_PROBE_S = 1.0   # how long a renderer that is not busy takes at most to answer a script
ABORTED = "net::ERR_ABORTED"  # how a load that turned into a download fails
DOWNLOAD_GRACE_S = 1.0   # how long after a failed load its download request may still come
EVENTS_GRACE_S = 5.0     # how long after a failed load the network's events of its answer may still come
CAPTURE_MARGIN_S = 10.0  # what a page may take beyond its --timeout: a page loaded at the end of its time is
                         # still settled, read and captured (a large page's full-page screenshot takes seconds)
MAX_TREE_ELEMENTS = 20_000  # a page of more elements (frames included) keeps a note instead of its tree
LOGIN_NEEDED = "HTTP 401 Unauthorized (the page needs a login)"
NO_CONTENT = (204, 205)  # answers that carry no page: Chromium ends their load as aborted
EMPTY_ERROR_ANSWER = "ERR_HTTP_RESPONSE_CODE_FAILURE"  # how Chromium fails an error status sent with no body
# The schemes Chromium never sends a web page's top frame to by a meta refresh (it refuses or ignores the refresh)
_NEVER_REFRESHED_TO = frozenset({"javascript", "data", "file"})
MAX_CLIENT_HOPS = 5  # navigations a page's script or meta refresh starts (as it loads or settles), followed in a row
LOOP_REQUESTS = 2  # times a page's chain (redirects, meta refreshes, scripts) may request one URL: more is a loop
                   # (twice: a check page sends the page back once), and so is taking one step of it again
MAX_SCREENSHOT_HEIGHT = 16384  # Chromium's texture limit; longer pages are cut there (the meta says the size)
MAX_RENDERER_MIB = 2048.0  # the memory the page's renderer may take while it loads (where the system says it)
_MIB = 1024 * 1024
_PROGRESS = re.compile(r"^\[(\d+)/(\d+)\] (.*)$")

# The content of the page's meta refresh ("0; url=/next"; "" when it has none): read where the page is
_REFRESH_JS = """(document.querySelector('meta[http-equiv="refresh" i]') || {}).content || ''"""
# The seconds since the page's load event ended (null while it has not): when its meta refresh's delay starts
_SINCE_LOAD_JS = """(() => {
  const load = (performance.getEntriesByType('navigation')[0] || {}).loadEventEnd;
  return load ? (performance.now() - load) / 1000 : null;
})()"""

_LINKS_JS = """(() => {
  const out = [];
  for (const a of document.querySelectorAll('a[href], area[href]')) out.push(a.href);
  // GET forms are not read here: the crawl reads them from the saved page (core's capture.py, form_targets), as
  // the site's browsers submit them offline.
  // What the page holds, for a warning when it came as HTML but is empty or binary (a PDF sent as text/html)
  const body = document.body, text = body ? body.textContent : '';
  const shown = document.querySelector('img, svg, canvas, video, iframe, frame, embed, object, input, button, '
                                       + 'select, textarea');
  return JSON.stringify({links: out, title: document.title, contentType: document.contentType,
                         origin: self.origin, elements: document.getElementsByTagName('*').length,
                         empty: !text.trim() && !shown, textStart: text.trimStart().slice(0, 400),
                         refresh: """ + _REFRESH_JS + """});
})()"""

# Stops the page's timers, animation frames and idle callbacks, and keeps it from starting more (the ids a page
# is given count up: every timer of it is below a new one's), in its frames of its origin too: run in the page's
# own world, where its timers are, once it has settled.
_FREEZE_JS = """(() => {
  const freeze = (w) => {
    try {
      const timer = w.setTimeout(() => {}, 0), frame = w.requestAnimationFrame(() => {});
      // (the last million at most: a page that made more has long since ended the first)
      for (let id = Math.max(0, timer - 1e6); id <= timer; id++) { w.clearTimeout(id); w.clearInterval(id); }
      for (let id = Math.max(0, frame - 1e6); id <= frame; id++) w.cancelAnimationFrame(id);
      w.setTimeout = w.setInterval = w.requestAnimationFrame = () => 0;
      if (w.requestIdleCallback) w.requestIdleCallback = () => 0;
      for (let i = 0; i < w.frames.length; i++) freeze(w.frames[i]);
    } catch (e) { /* another origin's frame: not this page's */ }
  };
  freeze(window);
  return true;
})()"""

_FINGERPRINT_JS = """(() => {
  const html = document.documentElement ? document.documentElement.outerHTML : '';
  let hash = 0;
  for (let i = 0; i < html.length; i += html.length > 4000000 ? 7 : 1) hash = (hash * 31 + html.charCodeAt(i)) | 0;
  return html.length + ':' + hash;
})()"""


def engine_version() -> str:
    from PySide6.QtWebEngineCore import qWebEngineChromiumVersion, qWebEngineVersion

    return f"QtWebEngine {qWebEngineVersion()} (Chromium {qWebEngineChromiumVersion()})"


class ChromiumRenderer(OnlinePage):
    """Loads pages one at a time in an off-the-record profile and captures them over DevTools.

    Needs the QApplication made by `run_capture` (remote debugging on, online flags)."""

    def __init__(self, port: int, *, viewport: tuple[int, int] = DEFAULT_VIEWPORT, scripts: bool = True,
                 timeout_s: float = DEFAULT_TIMEOUT_S, cancelled: Callable[[], bool] = lambda: False,
                 max_page_mib: float | None = None) -> None:
        from PySide6.QtCore import QUrl

        from ..qt.online_guards import REFUSE_SENDING_JS

        self.viewport = viewport
        self.scripts = scripts
        self.timeout_s = timeout_s
        self.max_page_mib = max_page_mib or MAX_PAGE_MIB
        self._sizes = _DocumentSizes()
        self._load_deadline = 0.0  # time.monotonic() by which this page's load ends (its --timeout)
        self.cancelled = cancelled
        self._downloads: list[tuple[str, str]] = []  # (URL, MIME type) of the downloads asked for this page
        self._login_asked = False
        self._deadline = 0.0  # time.monotonic() by which this page's capture ends
        self._renderer_ended = False
        super().__init__(viewport=viewport, scripts=scripts, cancelled=cancelled, error=PageFailed)
        self.page.authenticationRequired.connect(self._on_login_asked)
        self.page.renderProcessTerminated.connect(self._on_renderer_ended)
        self.guard = _NavigationGuard()
        # (a document shown is noted as it is, before the page's script can edit its entry: `note_shown`)
        self.page.urlChanged.connect(lambda _url: self.guard.note_shown())
        marker = "about:blank"
        self.page.load(QUrl(marker))
        self._wait(lambda: self._finished is not None, 20)
        self.devtools = DevToolsSession.for_page(port, marker, cancelled=cancelled)
        self.devtools.call("Network.enable")
        self.devtools.call("Page.enable")
        # Qt runs it in each document as it is made, but not in a frame's first, empty one, which the page's script
        # can reach at once (an iframe appended, and its RTCPeerConnection taken): DevTools runs it there too.
        self.devtools.call("Page.addScriptToEvaluateOnNewDocument", {"source": REFUSE_SENDING_JS})
        self.frame_id = str(self.devtools.call("Page.getFrameTree")["frameTree"]["frame"]["id"])
        self.engine = engine_version()

    def _on_download(self, request) -> None:  # noqa: ANN001 - QWebEngineDownloadRequest
        # Kept with its URL: a download requested late, for the page before, must not be taken for this one's.
        self._downloads.append((request.url().toString(), request.mimeType() or "a file"))
        request.cancel()

    def _on_login_asked(self, url, _authenticator) -> None:  # noqa: ANN001 - QUrl, QAuthenticator
        """The page's document answered 401 with WWW-Authenticate. Left as it is, the authenticator gives Qt an
        empty login, which Chromium sends again and again (32 requests, then net::ERR_TOO_MANY_RETRIES); PySide
        cannot make it the null authenticator that cancels. Stopping the load here cancels it: one request.
        A frame's or an image's login is not the page's: it is left to Chromium. (The guard knows a redirect's
        target before the Network events of its request have come.)"""
        if _same_url(url.toString(), [self.guard.url, *self.guard.asked]):
            self._login_asked = True
            self.page.triggerAction(self.page.WebAction.Stop)

    def _on_navigation(self, request) -> None:  # noqa: ANN001 - QWebEngineNavigationRequest
        self.guard.on_navigation(request)

    def _on_load_finished(self, ok: bool) -> None:
        # A reload the guard held ends as a load that failed: not the page's failure. Asked once the page loaded
        # (a meta refresh), it comes in the same turn of the event loop as the page's own load, or after it, which
        # stays as it loaded; asked while the page was parsed (a script's), it ends the page's load there, and the
        # page is as it is then (to be loaded again: `_reloads_by_its_script`). One such end per reload held: any
        # other failed load (the reload followed, the page's next) is the page's.
        if not ok and self.guard.reloads_ending:
            self.guard.reloads_ending -= 1
            if self._finished is None:
                self._finished = True
            return
        super()._on_load_finished(ok)

    def _on_renderer_ended(self, *_: object) -> None:
        self._renderer_ended = True

    def _left(self) -> float:
        """Seconds left of this page's time (its --timeout and CAPTURE_MARGIN_S), never quite none: a call given
        no time at all would be made and not waited for."""
        return max(0.05, self._deadline - time.monotonic())

    def _download_of(self, url: str) -> str:
        """The MIME type of the download this page's navigation (`url` and its redirects) turned into, or ""."""
        chain = self._chain(url)
        return next((mime for where, mime in self._downloads if _same_url(where, chain)), "")

    def render(self, url: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
        from PySide6.QtCore import QUrl

        self._end_last_load()
        self._finished = None
        self._downloads = []
        self._login_asked = False
        self._load_deadline = time.monotonic() + self.timeout_s
        self._deadline = self._load_deadline + CAPTURE_MARGIN_S
        self.forget_guarded()
        self.devtools.events.clear()
        self._sizes = _DocumentSizes()
        self.devtools.results.clear()  # late answers to the calls of a page that took too long
        self.guard.watch(url, refuse_redirect, on_leave=self._on_leave, loaded=lambda: self._finished is not None,
                         shown=self._shown_entry)
        try:
            self.page.load(QUrl(url))
            pending = self._loaded(url)
            hops = self.guard.hops  # (the page's hops: the guard's count, and what is seen here, `_Hops`)
            # A navigation its script or meta refresh starts while it settles ("Redirecting…") is followed as a
            # redirect is: checked by the rules first, then loaded and settled in turn (within the --timeout). The
            # guard counts each as it is asked, those Chromium follows during the load too, and rejects the one too
            # many. Counted here as well, apart: a navigation that cuts short one still under way shows nothing in
            # between, so the guard takes it for a redirect's hop (`_Hops`).
            while self._leaves_while_settling():
                hops.left_while_settling()
                if hops.left_too_often and not self.guard.halted:
                    raise self._never_settled()
                pending = self._loaded(url)
        finally:
            self.guard.watch("", None)  # what the page does once settled is no navigation of this capture
        redirects, status, _, _ = self._navigation()
        frozen = self._freeze()  # from here on, what is read and kept is of one moment of the page
        moved = self._back_to_served_url()
        found = self._read_frames()
        if found is None:  # the page's script keeps its renderer busy: nothing in it answers
            raise self._too_long("reading its links got no answer")
        content_type = str(found.get("contentType") or "")
        if content_type not in HTML_TYPES:  # (a type unsaid may be a renderer that did not answer: tried again)
            raise PageFailed(f"not an HTML page (it is {content_type or 'of an unknown type'})", status=status,
                             no_page=bool(content_type))
        warnings = ([f"it was saved as it was when its --timeout of {self.timeout_s:g} s ran out: "
                     f"{_requests_said(pending)} it made had not finished, and what they bring is missing (a larger "
                     "--timeout waits longer for them)"] if pending else [])
        warnings += _content_warnings(found, self.page.url().toString())
        if moved:
            warnings.append(f"its script made the address it shows {moved} (history.pushState), which was never "
                            "requested: it is kept under the address it was served from")
        try:
            return self._capture(url, redirects, status, content_type, found, warnings, frozen)
        except DevToolsError as error:
            if time.monotonic() >= self._deadline - 0.1:
                raise self._too_long(str(error)) from None
            raise PageFailed(f"DevTools could not capture it: {error}") from None

    def _end_last_load(self) -> None:
        """Let a load of the page before that is still going (a navigation the guard rejected as it failed, a loop's
        last) end, and its loadFinished come now: Qt sends it late (from a timer), and arriving once this page's
        load began, it would end this page's wait with that one's failure ("the page failed to load")."""
        if self.page.isLoading():
            self.page.triggerAction(self.page.WebAction.Stop)
            self._wait(lambda: not self.page.isLoading(), STOP_WAIT_S)
        spin(20)  # (the queued signals of the load that ended)

    def _shown_entry(self) -> tuple[tuple[int, str, int], str]:
        """The history entry the page shows (its index, URL and the time it was shown), read from Chromium as it
        is, and its URL: a new one once a document is committed, even one that replaced the last (a meta refresh, a
        script's navigation during the load); never one for an HTTP redirect's hop, which shows nothing. (The
        page's script makes a new one too, by editing its entry: history.replaceState, pushState.)"""
        history = self.page.history()
        item = history.currentItem()
        url = item.url().toString()
        return (history.currentItemIndex(), url, item.lastVisited().toMSecsSinceEpoch()), url

    def _on_leave(self) -> None:
        """The guard let the page go to another document after its load: that load is waited for in turn."""
        if self._finished is not None:
            self._finished = None

    def _leaves_while_settling(self) -> bool:
        """Wait for what scripts render right after the load; True when the page began to go elsewhere meanwhile
        (or its navigation was refused: `_loaded` says so). A meta refresh due within that time that has not gone
        yet (a renderer slower than the settling, on a busy machine) is waited for, within the page's --timeout:
        the page it stands on is a "Redirecting…" page, never the one to save."""
        if self._goes_within(min(SETTLE_MS / 1000, self._left())):
            return True
        if _due_while_settling(*self._meta_refresh()):
            return self._goes_within(max(0.05, self._load_deadline - time.monotonic()))
        return False

    def _goes_within(self, seconds: float) -> bool:
        """Whether the page begins to go elsewhere within `seconds` (or its navigation was refused). A reload of
        itself it asks for meanwhile, held by the guard, goes when it is its script's (`_reloads_by_its_script`);
        its meta refresh to itself does not, and the page is waited on."""
        deadline = time.monotonic() + seconds

        def gone() -> bool:
            return self._finished is None or self.guard.halted

        while self._wait(lambda: gone() or self.guard.reload is not None, max(0.0, deadline - time.monotonic())):
            if gone() or self._reloads_by_its_script():
                return True
        return False

    def _reloads_by_its_script(self) -> bool:
        """Decide the reload of the page the guard holds: its meta refresh to itself, due when the reload was asked
        (`_refreshed_itself`), is not followed (False: the page is kept as it loaded); any other is its script's (a
        check page that reloads once its cookie is set), asked again once the held one has ended, for the guard to
        judge as it judges every navigation of the page (True: the page goes)."""
        from PySide6.QtCore import QUrl

        reload, self.guard.reload = self.guard.reload, None
        if reload is None or self._refreshed_itself(self.guard.reload_asked_at):
            return False
        self._end_last_load()  # (the held one's loadFinished(False), which must not end the next load's wait)
        self._finished = None
        self.guard.follow(reload)
        self.page.load(QUrl(reload))
        return True

    def _refreshed_itself(self, asked_at: float) -> bool:
        """Whether the reload of the page asked at `asked_at` (time.monotonic()) is its meta refresh to itself
        (`_refreshes_itself`): one the page has, due by then. Chromium counts a refresh's delay from the page's
        load, so a reload asked before that delay had passed since it (within SETTLE_MS, the time a refresh due
        at once is given) is its script's: a check page that sets its cookie and reloads at once, its refresh
        to itself in 20 s a fallback for browsers without scripts."""
        asked_ago = time.monotonic() - asked_at  # (taken before the page is asked: a late answer adds nothing)
        content, page_url, since_load = self._meta_refresh_since_load()
        refresh = _refresh_parts(content)
        if refresh is None or since_load is None or not _refreshes_itself(content, page_url):
            return False
        return since_load - asked_ago + SETTLE_MS / 1000 >= refresh[0]

    def _meta_refresh(self) -> tuple[str, str]:
        """The content of the page's meta refresh and the URL of the document it was read in
        (`_meta_refresh_since_load`)."""
        content, url, _since_load = self._meta_refresh_since_load()
        return content, url

    def _meta_refresh_since_load(self) -> tuple[str, str, float | None]:
        """The content of the page's meta refresh ("" when it has none, or its renderer, busy, did not say within
        the time reading the page is given: the page is read, and fails if it still does not answer, next), the
        URL of the document it was read in, and the seconds since that document's load (None while it has not
        loaded): read together, since a busy renderer answers late, when the refresh may have taken the page on
        (read apart, a refresh to /b read in /a was taken for /b's to itself). (Qt gives a script's array as "":
        it comes as JSON.)"""
        found = self._js(f"JSON.stringify([{_REFRESH_JS}, location.href, {_SINCE_LOAD_JS}])",
                         min(10.0, self._left()))
        try:
            content, url, since_load = json.loads(found) if isinstance(found, str) else ("", "", None)
        except (ValueError, TypeError):  # (an answer that is not the three asked for: no refresh read)
            return "", "", None
        return str(content or ""), str(url or ""), float(since_load) if isinstance(since_load, int | float) else None

    def _halted(self) -> PageFailed:
        """The failure of a page whose navigation the guard rejected: one the rules refuse (a redirect refused,
        never requested), or one that closed a loop."""
        if self.guard.refused is not None:
            target, reason = self.guard.refused
            return PageFailed(reason, redirected_to=target)
        if self.guard.too_long:
            return _Hops.failure(self.guard.too_long)
        return PageFailed(f"it redirects in a loop ({self.guard.loop}): its redirects, meta refresh or script lead "
                          "back to an address it came from, so it never settles on a page to save")

    def _never_settled(self) -> PageFailed:
        """The failure of a page that still goes elsewhere after MAX_CLIENT_HOPS navigations of its script or meta
        refresh (`_Hops.left_too_often`, though the guard let the last through: one it took for a redirect's hop), its
        last one stopped: a loop when its chain went round (`_loop_closed`; the guard rejects such a navigation as it
        comes, so this is only said of one it did not see), else a chain too long."""
        if self._finished is None:
            self._stop()
        chain = self.guard.asked
        loop = next((found for end in range(1, len(chain) + 1) if (found := _loop_closed(chain[:end]))), [])
        if loop:
            self.guard.loop = _loop_said(loop)
            return self._halted()
        return _Hops.failure(chain)

    def _loaded(self, url: str) -> list[str]:
        """Wait for the page's load (within what is left of its --timeout) and check it: a PageFailed when it
        cannot be kept; else the requests still pending when the --timeout ran out ([]: it loaded whole), stopped
        so that the page is kept as it was then (`_cut_short`)."""
        time_left = max(0.05, self._load_deadline - time.monotonic())
        loaded = self._wait_for_load(lambda: self._finished is not None or bool(self._download_of(url))
                                     or self.guard.halted or bool(self._too_large()), time_left)
        if self.guard.halted:
            if self._finished is None:
                self._stop()
            raise self._halted()
        if too_large := self._too_large():
            self._end_renderer()  # (what it holds of the page goes with it; the next page loads in a new one)
            self._stop()
            raise PageFailed(too_large, unreachable=False)
        pending = [] if loaded else self._cut_short()
        if self._login_asked:
            raise PageFailed(LOGIN_NEEDED, status=401)
        if self._finished is False:
            # A load ended as failed (a 204 ends as aborted) may come before the network's events of its answer,
            # which reach us on another channel, late on a busy machine: its status is read once they are here.
            self._wait(self._answer_heard, EVENTS_GRACE_S)
        redirects, status, failure, failed_at = self._navigation()
        if status in NO_CONTENT:
            raise PageFailed(f"HTTP {status}{status_phrase(status)} (nothing to save)", status=status, no_page=True)
        download = self._download_of(url)
        if not self._finished and not pending and not download and (not failure or ABORTED in failure):
            # A response turned into a download ends the load as failed (net::ERR_ABORTED, when the network's
            # events say it first); its download request may come after.
            self._wait(lambda: bool(self._download_of(url)), DOWNLOAD_GRACE_S)
            download = self._download_of(url)
        if download in HTML_TYPES:  # an HTML page sent with Content-Disposition: attachment
            raise PageFailed("the server sent the page as a file to download (Content-Disposition: attachment), "
                             "not as a page to show", status=status, no_page=True)
        if download:
            raise PageFailed(f"not an HTML page (the server sent {download} to download)", status=status,
                             no_page=True)
        retry_after = self._retry_after(status) if status is not None else None
        if failure and self.guard.check is not None and (elsewhere := self._redirected_off_the_web()):
            # Chromium refuses a redirect to file: (ERR_UNSAFE_REDIRECT) and cannot load ftp: (ERR_ABORTED) before
            # the guard is asked: the page is skipped for it with the rules' reason, as the guard's refusal would be
            raise PageFailed(self.guard.check(elsewhere) or failure, redirected_to=elsewhere)
        error_status = status is not None and status >= 400
        if failure and not (error_status and EMPTY_ERROR_ANSWER in failure):
            raise PageFailed(failure, at=failed_at if not _same_url(failed_at, [url]) else "", retry_after=retry_after,
                             status=status)
        if error_status:  # (with a body or without one, which Chromium fails as EMPTY_ERROR_ANSWER: said the same)
            raise PageFailed(f"HTTP {status}{status_phrase(status)}", retry_after=retry_after, status=status)
        if not self._finished and not pending:
            raise PageFailed("the page failed to load")
        return pending

    def _cut_short(self) -> list[str]:
        """A load that did not finish in its time: the page is kept as it is then when its own document came whole
        and its renderer answers (what is missing is what it loads besides: a tracker, an image of another server
        that hangs): the requests still pending, named in the page's warning, are stopped. Else the page fails
        (`_unfinished`)."""
        pending = self._pending()
        if self._navigation()[1] is None or pending is None:
            raise self._unfinished()
        if self._js("0", RENDERER_PROBE_S) is None:  # a script that never ends holds the renderer's only thread
            raise self._unfinished()
        self._stop()
        return pending or ["(the page's own load, which Chromium did not end)"]

    def _pending(self) -> list[str] | None:
        """The URLs of the requests of this page that had not finished (from the Network events), or None when its
        main-frame document itself had not come whole."""
        asked: dict[str, str] = {}
        documents = {e["params"].get("requestId") for e in self._documents()}
        for event in self.devtools.events:
            params = event.get("params", {})
            method = event.get("method")
            if method == "Network.requestWillBeSent":
                asked[params.get("requestId")] = str(params.get("request", {}).get("url") or "")
            elif method in ("Network.loadingFinished", "Network.loadingFailed"):
                asked.pop(params.get("requestId"), None)
        if documents & set(asked):
            return None
        return list(dict.fromkeys(u for u in asked.values() if u and not u.startswith("data:")))

    def _retry_after(self, status: int) -> float | None:
        """The seconds a 429 or 503 of the page's document asks to wait before it is asked again (its Retry-After,
        in seconds or as a date), None when it asks nothing."""
        if status not in (429, 503):
            return None
        documents = {e["params"].get("requestId") for e in self._documents()}
        headers: dict[str, Any] = {}
        for event in self.devtools.events:
            params = event.get("params", {})
            if event.get("method") == "Network.responseReceived" and params.get("requestId") in documents:
                headers = dict(params.get("response", {}).get("headers") or {})
        return _seconds_from(_header(headers, "retry-after"))

    def _redirected_off_the_web(self) -> str:
        """The address off http(s) a redirect of the page's document led to ("" when none did): the hop Chromium
        made to it (ftp:), or the Location of one it refused to make (file:), from the Network events."""
        documents = {e["params"].get("requestId"): str(e["params"].get("request", {}).get("url") or "")
                     for e in self._documents()}
        for event in self.devtools.events:
            params = event.get("params", {})
            if params.get("requestId") not in documents:
                continue
            target = ""
            if event.get("method") == "Network.requestWillBeSent" and params.get("redirectResponse"):
                target = str(params.get("request", {}).get("url") or "")
            elif event.get("method") == "Network.responseReceivedExtraInfo" and \
                    300 <= int(params.get("statusCode") or 0) < 400:
                location = _header(params.get("headers"), "location")
                target = urljoin(documents[params["requestId"]], location) if location else ""
            if target and off_the_web(target):
                return target
        return ""

    def _too_large(self) -> str:
        """Why the page loading is too large to capture, "" while it is not: a document of it (its own, a frame's)
        larger than `max_page_mib`, by its Content-Length (at once) or by what it has brought (decoded: a page sent
        without a length, or compressed); or its renderer past MAX_RENDERER_MIB of memory (a page whose size the
        renderer, busy with it, tells too late: its events come seconds behind what it took in)."""
        self._sizes.read(self.devtools.events)
        largest = self._sizes.largest()
        if largest is not None and largest.size > self.max_page_mib * _MIB:
            what = "its document" if largest.frame in (None, self.frame_id) else f"its frame {largest.url}"
            came = (f"is {_mib(largest.declared)} (its Content-Length)" if largest.declared >= largest.received
                    else f"had brought {_mib(largest.received)}")
            return (f"it is too large to capture: {what} {came}, more than {_mib(self.max_page_mib * _MIB)}, the "
                    "most a page may be; nothing of it is kept")
        memory = _resident_bytes(self.page.renderProcessPid())
        if memory > MAX_RENDERER_MIB * _MIB:
            return (f"it is too large to capture: its renderer took more than {_mib(MAX_RENDERER_MIB * _MIB)} of "
                    "memory while it loaded, the most a page may take; nothing of it is kept")
        return ""

    def _unfinished(self) -> PageFailed:
        """The failure of a page whose load did not finish in its time and cannot be kept as it is (`_cut_short`),
        once the load is stopped. A page whose server answered is the page's own failure, not its server's (never
        counted as "the site stopped answering"), and its renderer is ended (`_end_renderer`): the page's script
        may keep it busy for good."""
        within = f"did not finish loading within {self.timeout_s:g} s"
        if self._navigation()[1] is None:  # no answer to its document's request: its server did not answer
            self._stop()
            return PageFailed(within, unreachable=True)
        busy = self._js("0", RENDERER_PROBE_S) is None  # a script that never ends holds the renderer's only thread
        self._end_renderer()
        self._stop()
        if busy:
            return PageFailed(f"{within}: its server answered, but a script of the page kept it busy (a script "
                              f"that never ends)", unreachable=False)
        return PageFailed(f"{within}: its server answered, but did not send the whole page in that time",
                          unreachable=False)

    def _too_long(self, what: str) -> PageFailed:
        """The failure of a page whose capture ran out of time; its renderer is ended first (`_end_renderer`)."""
        self._end_renderer()
        what = re.sub(r" within [0-9.]+ s$", "", what)  # the time each call had left says nothing to a user
        return PageFailed(f"capturing it took too long: {what} (a page has the --timeout of {self.timeout_s:g} s "
                          f"to load and {CAPTURE_MARGIN_S:g} s more to be captured)")

    def _end_renderer(self) -> None:
        """End the page's renderer process: a page whose capture ran out of time may keep it busy (a script that
        loops), and the next page of its site would load in it and wait as long. The next load starts another."""
        pid = self.page.renderProcessPid()
        if pid <= 0:
            return
        self._renderer_ended = False
        with contextlib.suppress(OSError):
            os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))  # Windows has no SIGKILL: SIGTERM ends it
        self._wait(lambda: self._renderer_ended, STOP_WAIT_S)

    def _read_frames(self) -> dict[str, Any] | None:
        """The main frame's `_LINKS_JS` answer, its links and element count joined by those of its frames of
        the same origin (nested ones too): what the page shows of its own. None when the page gave no answer,
        {} when its answer says nothing.
        (Qt before 6.8 has no frames API: the main frame's answer alone.)"""
        main_frame = self.page.mainFrame() if hasattr(self.page, "mainFrame") else None
        main = self._frame_js(main_frame)
        if not main:
            return main
        links, elements = list(main.get("links") or []), int(main.get("elements") or 0)
        frames = list(main_frame.children()) if main_frame is not None else []
        while frames:
            frame = frames.pop(0)
            found = (self._frame_js(frame) if frame.isValid() else None) or {}
            if main.get("origin") in (None, "null") or found.get("origin") != main.get("origin"):
                continue  # another origin's frame (an ad, a map, a video): not this page's, nor its frames
            links += found.get("links") or []
            elements += int(found.get("elements") or 0)
            frames += list(frame.children())
        return {**main, "links": links, "elements": elements}

    def _frame_js(self, frame) -> dict[str, Any] | None:  # noqa: ANN001 - a QWebEngineFrame, None: the page's
        """`_LINKS_JS`'s answer in `frame` (the ApplicationWorld, which runs with page scripts off), within this
        page's time; None when none came, {} when it cannot be read."""
        from PySide6.QtWebEngineCore import QWebEngineScript

        box: list[Any] = []
        world = QWebEngineScript.ScriptWorldId.ApplicationWorld
        if frame is None:
            self.page.runJavaScript(_LINKS_JS, world, box.append)
        else:
            frame.runJavaScript(_LINKS_JS, int(world.value), box.append)
        self._wait(lambda: bool(box), min(10.0, self._left()))
        if not box:
            return None
        try:
            return json.loads(box[0]) if box and box[0] else {}
        except ValueError:
            return {}

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

    def _answer_heard(self) -> bool:
        """Whether the network's events hold the page's answer: a status, or a failure."""
        _redirects, status, failure, _failed_at = self._navigation()
        return status is not None or bool(failure)

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
            if method == "Network.requestWillBeSent" and not params.get("redirectResponse") and asked \
                    and params["requestId"] not in asked:
                # Another document of the main frame: the page went on by its script or a meta refresh
                before = list(asked.values())[-1]
                redirects.append({"url": before, "status": status, "location": params.get("request", {}).get("url"),
                                  "kind": "script or meta refresh"})
                failure = failed_at = ""  # the page left before: what its load did is not this page's
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
                 found: dict[str, Any], warnings: list[str], frozen: bool) -> RenderedPage:
        final_url = self._served_url()
        before = self._fingerprint()
        title = str(found.get("title") or self.page.title() or "")
        elements = int(found.get("elements") or 0)
        note = ""
        if elements > MAX_TREE_ELEMENTS:
            note = (f"its accessibility tree is not kept: the page has {elements} elements, more than "
                    f"{MAX_TREE_ELEMENTS}; the page, its screenshot and its links are kept")
            ax_nodes, dom = _noted_tree(title, final_url, f"[RecordLens: this page's accessibility tree was not "
                                                          f"kept: it has {elements} elements, more than "
                                                          f"{MAX_TREE_ELEMENTS}]"), None
        else:
            ax_nodes = self.devtools.call("Accessibility.getFullAXTree", timeout_s=self._left()).get("nodes", [])
            ax_nodes += self._frame_trees(ax_nodes)
            dom = self.devtools.call("DOM.getDocument", {"depth": -1}, timeout_s=self._left()).get("root")
        metrics = self.devtools.call("Page.getLayoutMetrics", timeout_s=self._left())
        content = metrics.get("cssContentSize") or metrics.get("contentSize") or {}
        page_height = int(content.get("height") or 0)
        height = min(max(page_height, self.viewport[1]), MAX_SCREENSHOT_HEIGHT)
        left = _start_across(metrics, self._js("scrollX", min(RENDERER_PROBE_S, self._left())), self.viewport[0])
        png = self._screenshot(left, height)
        size = struct.unpack(">II", png[16:24]) if png[:8] == b"\x89PNG\r\n\x1a\n" else (0, 0)
        if page_height > height:
            warnings = [*warnings, _screenshot_cut(page_height, height)]
        if before is not None and self._fingerprint() != before:
            warnings = [*warnings, "the page changed while it was captured" + (
                " although its timers were stopped (what it loads or is sent kept changing it)" if frozen else
                "") + ": its tree, screenshot and saved page may show it at different moments"]
        # Last: the tree, DOM and screenshot above are of the page as served, the MHTML keeps its hidden fields.
        keep_hidden(self.page, self._wait, lambda: min(10.0, self._left()))
        mhtml = self.devtools.call("Page.captureSnapshot", {"format": "mhtml"}, timeout_s=self._left())["data"]
        # Said once the page is captured: a page that fails after has its failure said instead.
        warnings = [note] * bool(note) + warnings + self.guarded_notes()
        for warning in warnings:
            print(f"recordlens: warning: {final_url}: {warning}", file=sys.stderr, flush=True)
        return RenderedPage(
            requested_url=url, final_url=final_url, status=status, redirects=redirects,
            content_type=content_type, title=title,
            mhtml=mhtml.encode("utf-8"), ax_nodes=ax_nodes, dom=dom, screenshot=png,
            screenshot_size=(int(size[0]), int(size[1])), links=[str(u) for u in found.get("links") or []],
            engine=self.engine, viewport=self.viewport, page_height=page_height, warnings=warnings)

    def _screenshot(self, left: int, height: int) -> bytes:
        """The PNG of the page's `height` px from its top, the view's width from `left` (`_full_page_shot`), with
        the view's scrollbars left out: they are no part of the page (captureBeyondViewport leaves them out of a
        page taller than the view; a page as tall as the view would show a horizontal one at its bottom)."""
        self.devtools.call("Emulation.setScrollbarsHidden", {"hidden": True}, timeout_s=self._left())
        try:
            shot = self.devtools.call("Page.captureScreenshot", _full_page_shot(left, self.viewport, height),
                                      timeout_s=self._left())
        finally:
            with contextlib.suppress(DevToolsError):  # (a screenshot that failed is said as its own failure)
                self.devtools.call("Emulation.setScrollbarsHidden", {"hidden": False}, timeout_s=self._left())
        return base64.b64decode(shot["data"])

    def _back_to_served_url(self) -> str:
        """When the page's script made it show another URL than it was served from (history.pushState, which
        requests nothing and passes no rule), put the served one back (`history.replaceState`), so that the page
        is kept, and its relative links read, at the address it was served from: the URL it showed, else ""."""
        shown, served = self.page.url().toString(), self._served_url()
        if _same_url(shown, [served]):
            return ""
        self._js(f"history.replaceState(history.state, '', {json.dumps(served)}); location.href",
                 min(RENDERER_PROBE_S, self._left()))
        return shown

    def _served_url(self) -> str:
        """The URL the page was served from: its last main-frame document request's (after redirects and the
        navigations of its script), not what a script made it show (history.pushState); the view's URL when the
        Network events say none."""
        shown = self.page.url().toString()
        documents = self._documents()
        if not documents:
            return shown
        served = str(documents[-1]["params"].get("request", {}).get("url") or "")  # a redirect's hop is one too
        return shown if not served or _same_url(shown, [served]) else served

    def _freeze(self) -> bool:
        """Stop the page's timers and animation frames (its own and its frames' of its origin), so that the tree,
        the screenshot and the saved page show one moment of a page that keeps changing (a ticker, a clock, a
        carousel); True when done (the page's scripts run: else nothing of theirs changes it)."""
        if not self.scripts:
            return False
        from PySide6.QtWebEngineCore import QWebEngineScript

        box: list[Any] = []
        self.page.runJavaScript(_FREEZE_JS, QWebEngineScript.ScriptWorldId.MainWorld, box.append)
        self._wait(lambda: bool(box), min(RENDERER_PROBE_S, self._left()))
        return bool(box and box[0])

    def _fingerprint(self) -> str | None:
        """What the page's document is now, in a few characters (its markup's length and hash): taken before and
        after the tree and screenshot, to tell whether the page changed meanwhile. None when the page gave none."""
        answer = self._js(_FINGERPRINT_JS, min(RENDERER_PROBE_S * 5, self._left()))
        return str(answer) if answer else None

    def _frame_trees(self, page_nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The accessibility trees of the page's frames of its own origin (nested ones too), each hung under its
        Iframe node: its root's parent is that node, which lists the root among its children. Their node ids are
        prefixed (`f1:`, ...; each frame numbers its nodes apart) and their DOM node ids dropped (their XPaths
        would be of another document). A frame gone meanwhile, or whose Iframe node is not in the tree (hidden),
        is left out."""
        frame_tree = self.devtools.call("Page.getFrameTree", timeout_s=self._left())["frameTree"]
        origin = frame_tree["frame"].get("securityOrigin")
        out: list[dict[str, Any]] = []
        kept = 0
        # (a frame's entry in the frame tree, the nodes of the tree it is shown in by backend DOM node id)
        todo = [(child, _by_backend_id(page_nodes)) for child in frame_tree.get("childFrames") or []]
        while todo:
            entry, holders = todo.pop(0)
            frame = entry.get("frame") or {}
            if not origin or frame.get("securityOrigin") != origin:
                continue  # another origin's frame and its own frames: not this page's (module notes)
            try:
                owner = self.devtools.call("DOM.getFrameOwner", {"frameId": frame["id"]}, timeout_s=self._left())
                nodes = self.devtools.call("Accessibility.getFullAXTree", {"frameId": frame["id"]},
                                           timeout_s=self._left()).get("nodes", [])
            except DevToolsError:
                if time.monotonic() >= self._deadline - 0.1:
                    raise
                continue  # the frame went away (its page's script removed it)
            holder = holders.get(owner.get("backendNodeId"))
            if holder is None or not nodes:
                continue
            kept += 1
            prefix = f"f{kept}:"
            backend = _by_backend_id(nodes)  # where this frame's own frames are shown
            for node in nodes:
                node.pop("backendDOMNodeId", None)
                node["nodeId"] = prefix + str(node["nodeId"])
                node["childIds"] = [prefix + str(c) for c in node.get("childIds") or ()]
                if node.get("parentId") is not None:
                    node["parentId"] = prefix + str(node["parentId"])
                else:
                    node["parentId"] = holder["nodeId"]
                    holder["childIds"] = [*(holder.get("childIds") or ()), node["nodeId"]]
            out += nodes
            todo += [(child, backend) for child in entry.get("childFrames") or []]
        return out

    def close(self) -> None:
        """Close the DevTools session, then delete view, page and profile."""
        self.devtools.close()
        super().close()


class _Hops:
    """The navigations of a page's script or meta refresh in a row (its hops; an HTTP redirect's is none), held to
    MAX_CLIENT_HOPS: the limit and what a page that goes past it is said to do (`failure`), in one place for the
    two that watch them. The guard counts each as it is asked (`sent_on`: a document was shown since the navigation
    asked before), so that one Chromium follows during the load counts as one a script starts after it, and rejects
    the one too many (`too_many`). `render` counts, apart, the times the page it waited to settle went elsewhere
    (`left_while_settling`): a navigation that cuts short another still under way (a script navigating twice at
    once) shows no document in between, so the guard takes it for a redirect's hop. The two are kept apart: which
    of them sees a navigation first depends on the machine's load, so one count fed by both would count some
    twice on a busy machine (a chain of 5 was failed as 6)."""

    def __init__(self) -> None:
        self.count = 0  # the guard's
        self.leaves = 0  # render's

    def sent_on(self) -> None:
        """A navigation asked from a document the page showed: one more."""
        self.count += 1

    def left_while_settling(self) -> None:
        """The page went elsewhere while `render` waited for it to settle."""
        self.leaves += 1

    @property
    def too_many(self) -> bool:
        return self.count > MAX_CLIENT_HOPS

    @property
    def left_too_often(self) -> bool:
        return self.leaves > MAX_CLIENT_HOPS

    @staticmethod
    def failure(chain: list[str]) -> PageFailed:
        """The failure of a page whose script or meta refresh sent it on too many times in a row (`chain`: the URLs
        it was sent to, the one rejected last)."""
        return PageFailed(f"its script or meta refresh sent it on to another page more than {MAX_CLIENT_HOPS} times "
                          f"in a row ({' → '.join(chain)}): it never settled on a page to save, and is not followed "
                          "further")


class _NavigationGuard:
    """Asks `check` about every main-frame navigation of the page (its `navigationRequested`, which Chromium's
    navigation throttle emits before a redirect is followed, the request held until it is answered) but the
    page's own, and rejects those refused. `refused`: (URL, reason) of the first it rejected since `watch`;
    `asked`: every main-frame navigation's URL since then, in order; `loop`: the addresses of the loop it
    stopped ("" when none): a navigation that goes round the page's chain again (`_loop_closed`: a redirect, meta
    refresh or script that leads back to where the page came from and on again the same way, the page's script
    reloading it twice) is rejected then, whenever it comes, so that a loop is said as one on every run, never saved as
    one of its pages. (Coming back once is let through: a page may come back, its cookie set, as a check page sends
    it, and go on elsewhere.)
    `hops`: the navigations of the page's script or meta refresh among them (`_Hops`), told from an HTTP
    redirect's hop by the page's history (`shown`): the document of the navigation asked before was shown since it
    was asked (Chromium gives both kinds as redirects when a meta refresh or a script sends the page on during its
    load). Its entry is new then, and of that URL: an entry the page's script edited meanwhile (history.replaceState,
    pushState, while the redirects of its navigation come) is of another, and no document shown. The one too many
    is rejected as it is asked (`too_long`: the chain to it), whenever it comes: a chain of meta refreshes Chromium
    follows during the load is held to the limit as a script's navigations after it are.
    A navigation to the page shown (its URL, or a fragment of it: `_the_page_itself`) is a reload of it: its meta
    refresh to itself, or its script's reload (a check page, once its cookie is set). Which of the two it is, the
    request does not say (both come as redirects), and the page's meta refresh cannot be read while the request
    waits for its answer: it is rejected and held (`reload`, and when it was asked), uncounted, for `render` to
    decide once the page has loaded: a refresh to itself that was due then is not followed (`_refreshed_itself`),
    and the page is kept as it loaded; any other reload is asked again (`follow`), and judged then as any
    navigation of the page is (a hop, and a loop when the page reloads itself for ever).
    Between two pages (`watch("", None)`) every navigation but about:blank is rejected: what a page does once it
    was captured is no page of the capture's."""

    def __init__(self) -> None:
        self.watch("", None)

    def watch(self, url: str, check: RedirectCheck | None, *, on_leave: Callable[[], None] = lambda: None,
              loaded: Callable[[], bool] = lambda: False,
              shown: Callable[[], tuple[object, str]] = lambda: (None, "")) -> None:
        """Judge the navigations of the page loading `url` with `check`. Once `loaded()`, a navigation to another
        document calls `on_leave()`, whether `check` lets it through (its load is waited for) or not (the end of
        the load it started is). `shown()`: the history entry the page shows now (a new value once another
        document is shown, or its script edited it) and its URL."""
        self.url, self.check = url, check
        self.on_leave, self.loaded, self.shown = on_leave, loaded, shown
        self.refused: tuple[str, str] | None = None
        self.asked: list[str] = []
        self.loop = ""
        self.hops = _Hops()
        self.too_long: list[str] = []  # the chain, to the navigation rejected, when it went on past MAX_CLIENT_HOPS
        self.reload: str | None = None  # the URL of the reload of the page it holds, for `render` to decide
        self.reload_asked_at = 0.0  # when it was asked (time.monotonic()): a meta refresh's is asked once due
        self.reloads_ending = 0  # reloads it held (each rejected) whose end, as a load that failed, has not come
        self._following: str | None = None  # the held reload `render` asks again (`follow`): judged as any
        self._watched_from = shown()[0]  # the entry shown before the page's own (the page before's)
        self._shown_when_asked = shown()[0]
        self._document_shown = False  # the document of the navigation asked last was shown since

    @property
    def halted(self) -> bool:
        """Whether it rejected a navigation that ends the page's capture (refused by the rules, a loop, or a chain
        too long)."""
        return self.refused is not None or bool(self.loop) or bool(self.too_long)

    def follow(self, reload: str) -> None:
        """The held reload `reload` is the page's script's: it is asked again now, and judged as any navigation."""
        self._following = reload

    def note_shown(self) -> None:
        """Note whether the page shows the document of the navigation asked last: its entry is another than when
        that was asked, and of that URL. Asked as the page shows another URL (its `urlChanged`), before its script
        can edit the entry, and as the next navigation is asked."""
        entry, url = self.shown()
        if entry != self._shown_when_asked and self.asked and _same_url(url, self.asked[-1:]):
            self._document_shown = True

    def _sent_on(self) -> bool:
        """Whether the navigation asked now leaves a document the page showed (its script's or meta refresh's), not
        a request that was answered by an HTTP redirect (the navigation asked before showed nothing)."""
        self.note_shown()
        sent_on, self._document_shown = self._document_shown, False
        self._shown_when_asked = self.shown()[0]
        return sent_on

    def on_navigation(self, request) -> None:  # noqa: ANN001 - QWebEngineNavigationRequest
        if not request.isMainFrame():
            return  # the page's frames: part of the page, wherever they come from
        target = request.url().toString()
        if self.check is None:
            self.asked.append(target)
            if self.url == "" and not target.startswith("about:"):
                request.reject()
            return
        if self._following is not None and _same_url(target, [self._following]):
            self._following = None  # a held reload asked again: the page's script's (`follow`)
        elif self.asked and self.shown()[0] != self._watched_from and _the_page_itself(target, self.shown()[1]):
            request.reject()  # a reload of the page: its meta refresh's, or its script's; `render` decides
            self.reload, self.reload_asked_at = target, time.monotonic()
            self.reloads_ending += 1
            return
        sent_on = self._sent_on()
        if not self.asked and _same_url(target, [self.url]):
            self.asked.append(target)  # the page's own load
            return
        after_load = self.loaded()
        self.asked.append(target)
        if sent_on:
            self.hops.sent_on()
        loop = _loop_closed(self.asked)
        if self.loop or self.too_long:
            request.reject()  # the chain was ended already
        elif loop:
            request.reject()
            self.loop = _loop_said(loop)
        elif self.hops.too_many:
            request.reject()
            self.too_long = list(self.asked)
        elif (reason := self.check(target)) is not None:
            request.reject()
            if self.refused is None:
                self.refused = (target, reason)
        if after_load:  # (a navigation rejected ends as a load that failed, waited for before the next page)
            self.on_leave()


def _loop_closed(chain: list[str]) -> list[str]:
    """The loop that the last navigation of `chain` (a page's URLs requested, in order) closes, as the addresses it
    goes round ([] when it closes none): when it leaves an address the chain came back to by the way it left it
    before (…, /a, /b, …, /a, /b: the loop /a → /b → … → /a), or requests a URL a third time (…, /a, …, /a, …, /a:
    from its first request to this one). A URL come back to once and left another way (a check page's /a → /check →
    /a → /welcome) closes none."""
    keys = [_url_key(url) for url in chain]
    if not keys:
        return []
    step = keys[-2:]
    before = next((i for i in range(len(keys) - 2) if keys[i:i + 2] == step), None) if len(step) == 2 else None
    if before is not None:  # the same step again: from the first time it left there to the latest time
        return chain[before:len(chain) - 1]
    if keys.count(keys[-1]) > LOOP_REQUESTS:
        return chain[keys.index(keys[-1]):]
    return []


def _loop_said(loop: list[str]) -> str:
    """"/a → /b → /a": the addresses of a loop (`_loop_closed`), in paths when all are of the first's origin."""
    origins = {urlsplit(url)[:2] for url in loop}
    shown = [urlunsplit(("", "", *urlsplit(url)[2:4], "")) or "/" for url in loop] if len(origins) == 1 else loop
    return " → ".join(shown)


def _start_across(metrics: dict[str, Any], scroll_x: object, width: int) -> int:
    """Where a page's screenshot starts across, in `Page.getLayoutMetrics`' CSS px from its content's left edge: where
    the page starts, as the view first shows it. That is 0 for a page written left to right; a page wider than the
    view whose root (html or body) is right to left starts at its right-hand side, where its lines start and where
    its scrolling starts, so its screenshot is its right-hand `width` px, not its left where its lines end.
    `scroll_x`: the page's `scrollX` (0 where it starts, below 0 leftwards of an RTL page's start); when the page gave
    none (a busy renderer), where the view is."""
    layout = metrics.get("cssLayoutViewport") or metrics.get("layoutViewport") or {}
    content = metrics.get("cssContentSize") or metrics.get("contentSize") or {}
    view_x = float(layout.get("pageX") or 0)
    start = view_x - (float(scroll_x) if isinstance(scroll_x, int | float) else 0.0)
    # The capture lays the page out without the view's scrollbar: a clip of `width` starts at most this far right.
    rightmost = max(0.0, float(content.get("width") or 0) - width)
    return round(min(max(0.0, start), rightmost))


def _full_page_shot(left: int, viewport: tuple[int, int], height: int) -> dict[str, Any]:
    """`Page.captureScreenshot`'s parameters for the page's `height` px from its top, the view's width from `left`.
    Beyond the viewport only for a page taller than the view: Chromium 140 draws a right-to-left page (html or body
    dir=rtl) shifted right when captureBeyondViewport's clip is the view's own size (at 1920x1080 its start, 155 px,
    fell off the right), while the view's own picture of it is right; at any other size it is right too."""
    return {"format": "png", "fromSurface": True, "captureBeyondViewport": height > viewport[1],
            "clip": {"x": left, "y": 0, "width": viewport[0], "height": height, "scale": 1}}


def _screenshot_cut(page_height: int, height: int) -> str:
    """The warning of a page taller than a screenshot can be: what part of it its screenshot shows."""
    share = max(1, round(100 * height / page_height))
    return (f"its screenshot shows only its top {height} px of {page_height} px (about {share}% of the page): "
            f"Chromium takes no taller screenshot ({MAX_SCREENSHOT_HEIGHT} px at most); its saved page and its links "
            "are of the whole page")


@dataclass
class _Document:
    """A document request of the page (its own or a frame's): its URL and frame, the size its server says it is (its
    Content-Length, 0: unsaid) and what it has brought so far (decoded)."""

    url: str = ""
    frame: str | None = None
    declared: int = 0
    received: int = 0
    shown: bool = True  # False: its answer is a file Chromium downloads or plays, not a document it lays out

    @property
    def size(self) -> int:
        return max(self.declared, self.received) if self.shown else 0


class _DocumentSizes:
    """How large each document request of a page is, from the Network events: `read(events)` reads those it has not
    read yet (the list only grows while a page loads), so that it is cheap at every turn of a wait."""

    def __init__(self) -> None:
        self._read = 0
        self._requests: dict[str, _Document] = {}  # request id -> what is known of it (a document's or not, yet)
        self._documents: set[str] = set()

    def read(self, events: list[dict[str, Any]]) -> None:
        for event in events[self._read:]:
            method, params = event.get("method"), event.get("params", {})
            if method not in _SIZE_EVENTS:
                continue
            request = self._requests.setdefault(str(params.get("requestId")), _Document())
            if method == "Network.requestWillBeSent" and params.get("type") == "Document":
                self._documents.add(str(params.get("requestId")))
                request.url, request.frame = str(params.get("request", {}).get("url") or ""), params.get("frameId")
            elif method == "Network.responseReceivedExtraInfo":  # (from the browser: it comes before the body)
                length = _header(params.get("headers"), "content-length")
                request.declared = int(length) if length.isdigit() else 0
                request.shown = _laid_out(params.get("headers"))
            elif method == "Network.dataReceived":
                request.received += int(params.get("dataLength") or 0)
        self._read = len(events)

    def largest(self) -> _Document | None:
        documents = [self._requests[r] for r in self._documents]
        return max(documents, key=lambda d: d.size) if documents else None


_SIZE_EVENTS = ("Network.requestWillBeSent", "Network.responseReceivedExtraInfo", "Network.dataReceived")


def _laid_out(headers: object) -> bool:
    """Whether a document's answer is one Chromium lays out (HTML, XML, SVG, plain text; a type unsaid is sniffed
    as one), by its headers: not a file to download (Content-Disposition: attachment, a zip, a PDF with the viewer
    off), nor an image or a medium it shows by itself. Only those are held to the page's size: a frame showing a
    large file, or a link to one, is a download the capture refuses in its own words, not a page too large."""
    if _header(headers, "content-disposition").lower().startswith("attachment"):
        return False
    kind = _header(headers, "content-type").split(";")[0].strip().lower()
    return not kind or kind.startswith("text/") or kind in HTML_TYPES or kind.endswith(("/xml", "+xml"))


def _header(headers: object, name: str) -> str:
    """The value of the header `name` (any case) in a Network event's headers, "" when it has none."""
    found = (str(v) for k, v in (headers.items() if isinstance(headers, dict) else ()) if k.lower() == name)
    return next(found, "").strip()


def _mib(size: float) -> str:
    """"2,048 MiB", "1.5 MiB": a size as a message says it."""
    return f"{size / _MIB:,.0f} MiB" if size >= 10 * _MIB else f"{size / _MIB:.3g} MiB"


def _resident_bytes(pid: int) -> int:
    """The memory process `pid` holds (resident); 0 where the system does not say (not Linux) or it is gone."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return 0


def _requests_said(urls: list[str]) -> str:
    """"2 request(s) (A; B)": the requests a page was still waiting for, the first few named."""
    return f"{len(urls)} request(s) ({named_and_more(urls, 3, sep='; ')})"


def _content_warnings(found: dict[str, Any], page_url: str) -> list[str]:
    """What a page that came as HTML holds that is no page (nothing at all, or a file's bytes: a PDF sent as
    text/html), and a meta refresh it was saved before."""
    start = str(found.get("textStart") or "")
    refresh = str(found.get("refresh") or "")
    odd = sum(1 for c in start if c == "\ufffd" or (ord(c) < 32 and c not in "\t\n\r\f"))
    warnings = []
    if _refresh_delay(refresh, page_url) is not None:
        due = ("due at once, which had not gone when it was captured" if _due_while_settling(refresh, page_url)
               else "due after it settled, which was not waited for")
        warnings.append(f"it has a meta refresh ({refresh.strip()!r}) {due}: it is kept as it was before it")
    if found.get("empty"):
        warnings.append("it came as an HTML page but holds nothing (no text, no image, no field): it is saved as a "
                        "blank page")
    elif start.startswith("%PDF") or (start and odd > len(start) // 10):
        warnings.append(f"it came as an HTML page (text/html) but looks like a file's bytes ({start[:20]!r}…): its "
                        "server may send a file under the wrong type; it is saved as the text it shows")
    return warnings


def _refresh_delay(content: str, page_url: str) -> float | None:
    """The seconds after which a meta refresh (its content: "0; url=/next", "0; /next") of the page at `page_url`
    sends it elsewhere; None for one that is not followed: a refresh of the page itself (`_refreshes_itself`), one
    that takes the page nowhere (Chromium takes no web page's top frame to a `javascript:`, `data:` or `file:`
    address by a refresh), or a content that is no refresh (its delay no number)."""
    refresh = _refresh_parts(content)
    if refresh is None or _refreshes_itself(content, page_url):
        return None
    delay, target = refresh
    return None if urlsplit(urljoin(page_url, target)).scheme.lower() in _NEVER_REFRESHED_TO else delay


def _refresh_parts(content: str) -> tuple[float, str] | None:
    """A meta refresh's delay in seconds and the address it names, as written ("" when it names none), from its
    content ("0; url=/next", "0; /next", "0"); None for a content that is no refresh (no delay first)."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d*)?)(?:[\s;,]+(.*))?", content, re.DOTALL)
    if found is None:
        return None
    return float(found.group(1)), re.sub(r"^url\s*=\s*", "", (found.group(2) or "").strip(),
                                          flags=re.IGNORECASE).strip("'\" ")


def _refreshes_itself(content: str, page_url: str) -> bool:
    """Whether a meta refresh (its content) of the page at `page_url` sends it to the page itself: it names no
    address (`content="0"`), the page's own (`url=/same`) or a fragment of it (`url=#top`). The one rule for the
    three: such a refresh is not followed, and the page is captured as it loaded (its reload held by the guard and
    dropped once it was due: `_NavigationGuard.reload`), neither waited for nor warned of (`_refresh_delay`).
    Chromium makes each of them a reload of the very page, whose document refreshes again, for ever: followed, the
    page was read while a reload came (on a busy machine, a document not parsed yet), its server asked for it again
    and again, and the chain failed as a loop (`/same → /same`) or the capture waited for a refresh that never
    went."""
    refresh = _refresh_parts(content)
    return refresh is not None and (not refresh[1] or _the_page_itself(urljoin(page_url, refresh[1]), page_url))


def _due_while_settling(content: str, page_url: str) -> bool:
    """Whether a meta refresh (its content) sends the page at `page_url` on within the time a page is given to
    settle (SETTLE_MS): such a page is waited for until it goes; one due later is kept as it is before it."""
    delay = _refresh_delay(content, page_url)
    return delay is not None and delay * 1000 <= SETTLE_MS


def _seconds_from(value: str) -> float | None:
    """A Retry-After header's seconds: a number of them, or an HTTP date from now; None for none or nonsense."""
    if not value:
        return None
    if value.isdigit():
        return float(value)
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    from datetime import UTC, datetime

    return max(0.0, (when - datetime.now(UTC)).total_seconds()) if when.tzinfo else None


def _by_backend_id(nodes: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {int(n["backendDOMNodeId"]): n for n in nodes if n.get("backendDOMNodeId") is not None}


def _noted_tree(title: str, url: str, note: str) -> list[dict[str, Any]]:
    """An accessibility tree in getFullAXTree's form that is only the page's root and a note: what is stored for
    a page whose tree is not kept, so that an agent reading it is told why, not shown an empty page."""
    return [{"nodeId": "1", "ignored": False, "role": {"type": "internalRole", "value": "RootWebArea"},
             "name": {"type": "computedString", "value": title}, "childIds": ["2"],
             "properties": [{"name": "url", "value": {"type": "string", "value": url}}]},
            {"nodeId": "2", "ignored": False, "role": {"type": "internalRole", "value": "StaticText"},
             "name": {"type": "computedString", "value": note}, "parentId": "1", "childIds": []}]


def _same_url(url: str, chain: list[str]) -> bool:
    """Whether `url` is one of `chain`'s, compared as the crawl compares URLs (Chromium writes them its way)."""
    return _url_key(url) in {_url_key(u) for u in chain}


def _the_page_itself(target: str, shown: str) -> bool:
    """Whether `target` is the page shown at `shown` (its URL, or a fragment of it, as the crawl compares URLs): a
    navigation the page asks there loads it again (Chromium moves to a fragment of it without asking), be it its
    meta refresh to itself or its script's reload."""
    return bool(shown) and _url_key(target) == _url_key(shown)


def _url_key(url: str) -> str:
    """`url` as the crawl compares URLs (its fragment dropped, normalised); one it cannot read stays as written."""
    try:
        return normalise_url(urldefrag(url)[0])
    except ValueError:
        return "\0" + url  # (never equal to a URL that could be read)


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
                progress: Callable[[int, int, str], None] | None = None, refresh: bool = False,
                max_page_mib: float | None = None, ask_again: bool = False) -> CaptureSummary:
    """Capture in this process, which must not have a QApplication yet: its Chromium is set up online (the
    app's flags minus the offline proxy) with DevTools on a loopback port. `refresh`: capture every page again,
    `ask_again`: ask for the dead links and the links to no page of before again (core's `capture_site`);
    `max_page_mib`: how large a page's document may be (None: MAX_PAGE_MIB)."""
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is not None:
        raise CaptureError("capturing needs a process of its own (the app's Chromium is offline)")
    with _quiet_stderr():
        return _run_online(roots, folder, rules, viewport=viewport, scripts=scripts, timeout_s=timeout_s,
                           progress=progress, refresh=refresh, max_page_mib=max_page_mib, ask_again=ask_again)


def _run_online(roots: list[str], folder: str | Path, rules: CaptureRules, *, viewport: tuple[int, int],
                scripts: bool, timeout_s: float,
                progress: Callable[[int, int, str], None] | None, refresh: bool,
                max_page_mib: float | None = None, ask_again: bool = False) -> CaptureSummary:
    from PySide6.QtWidgets import QApplication

    flags = chromium_flags(os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", ""))
    # The command promises a line per URL: Chromium's own errors (no D-Bus, no GPU on a server) are left out
    # unless asked for with a --log-level of one's own, and so are Qt's about the GL context it falls back from.
    os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] = flags if "--log-level=" in flags else f"{flags} --log-level=3"
    os.environ["QT_QPA_PLATFORM"] = "offscreen"  # nothing is ever shown
    port = enable_remote_debugging()
    # From before Qt's web modules load (an interruption raised inside PySide's import can abort the process) to
    # the end: Ctrl+C and SIGTERM stop the capture where it can stop (DeferredInterruption).
    with DeferredInterruption() as interruption:
        import PySide6.QtWebEngineWidgets  # noqa: F401 - before the QApplication, for GL context sharing
        from PySide6.QtCore import QCoreApplication, Qt, qInstallMessageHandler

        qInstallMessageHandler(_only_critical)
        QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
        app = QApplication([sys.argv[0] or "recordlens-site-capture"])
        interruption.check()
        try:
            renderer = ChromiumRenderer(port, viewport=viewport, scripts=scripts, timeout_s=timeout_s,
                                        cancelled=interruption.check, max_page_mib=max_page_mib)
        except DevToolsError as error:
            raise CaptureError(f"Chromium's DevTools could not be reached in this process: {error}") from None
        try:
            # robots.txt is given the page --timeout too, and a Ctrl+C ends its wait at once (`cancelled`)
            summary = capture_site(roots, folder, renderer, rules, progress=progress, cancelled=interruption.check,
                                   sleep=lambda seconds: _pause(seconds, interruption.check), refresh=refresh,
                                   timeout_s=timeout_s, ask_again=ask_again)
        finally:
            renderer.close()
            app.processEvents()
        try:
            interruption.check()  # a signal noted after the last page (while the site was indexed) stops it too
        except KeyboardInterrupt:  # the user asked to stop (130/143), but what the capture did is said all the same
            raise CaptureInterrupted(summary) from None
    return summary


def _pause(seconds: float, check: Callable[[], bool]) -> None:
    """The crawl's --delay between two pages, ended at once by a Ctrl+C (`check`: the DeferredInterruption's)."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        check()
        spin(max(1, int(min(left, 0.05) * 1000)))


# -- running it from the app ------------------------------------------------------------------------------------


class CaptureFromWeb(OnlineProcess):
    """The capture process, run in the background: `progress(done, total, text)` as it goes, then
    `finished(result)` once: the summary as a dict with `ok` True and `message`, or `{"ok": False, "message"}`.
    `note(text)`: a warning about a page as it comes ("warning: URL: its accessibility tree is not kept ...").

    `cancel` stops it at once (SIGTERM: the command says what it saved, then exits as interrupted); what was saved
    stays, and the capture can be resumed."""

    progress = Signal(int, int, str)
    note = Signal(str)
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
        elif text.startswith("warning: "):
            emit(self.note, text)

    def _result(self, code: int, status: QProcess.ExitStatus, output: list[str]) -> dict[str, object]:
        result: dict[str, object] | None = None
        if output:
            try:
                result = json.loads(output[-1])
            except ValueError:
                result = None
        # Its summary: also when a page failed, and when cancelled (SIGTERM) with a site of its pages saved so far.
        stopped = self._cancelled and code == Terminated.status and bool(result and result.get("pages"))
        if result is not None and (code in (0, CAPTURE_SOME_FAILED) or stopped):
            if self._cancelled:
                result["message"] = "cancelled: " + str(result.get("message", ""))
            return {"ok": True, **result}
        if self._cancelled:
            return {"ok": False, "message": "cancelled; run the capture again to continue"}
        return {"ok": False, "message": self._failure(code)}
