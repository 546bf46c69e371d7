"""Saving a page from the web into a snapshot site: the one online action, in a process of its own.

The app stays offline for good: qt_env's Chromium flags send every connection of its process to a closed local
port, and Chromium reads its flags once per process. So saving from the web is a separate process,

    python -m recordlens.annotator.agent.site_saver URL --site DIR [--json] [--no-scripts] [--timeout S]

started with the same Chromium flags minus the offline proxy (a proxy the user set is kept). It loads the URL in
an off-the-record profile (no cookie, cache or storage outlives it, nothing of the app's leaks in), waits for the
load, saves the page with Chromium's MHTML writer into the site folder and re-indexes the site with core's
`build_site`. A URL the site already holds is saved over its file; a new one gets a file named after the URL.
The writer leaves out hidden form fields and elements with the `hidden` attribute: `keep_hidden` first makes them
what it keeps, still hidden and still sent with their form (resources/js/keep_hidden.js, core's hidden_fields.py).

Page scripts run, by default: many sites build their content with scripts, and an archive is the page's DOM as
rendered when it is saved (half a second after the load), so saving what a reader saw needs them. Chromium's
MHTML writer leaves the <script> elements out, and the site browser serves pages with scripts off, so nothing
of them runs again. `--no-scripts` saves what the HTML alone renders. The scripts run within online_guards.py's
limits (their dialogs never wait, no service worker registers, nothing is POSTed nor sent over a WebSocket, WebRTC
or WebTransport), and the result says what was kept from them.

Progress and errors go to stderr as lines starting with `recordlens: ` (`recordlens: error: ...` for the one
that ends the process with code 2); the result goes to stdout, a sentence or (with `--json`) one JSON object.
Nothing is written unless the save succeeds. `SaveFromWeb` runs this process from the app (QProcess).

Ctrl+C and SIGTERM stop the save at once, as they stop any `recordlens` command: what it began writing is removed,
and it says `recordlens: interrupted` (exit 130) or `recordlens: interrupted (SIGTERM)` (exit 143), whoever sent
it (`timeout`, `kill`, or the app's Cancel, which says "cancelled" itself). While Qt's loop turns they are only
noted (`DeferredInterruption`): raised inside a Qt slot, PySide would drop them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from http import HTTPStatus
from pathlib import Path
from urllib.parse import urlsplit

from PySide6.QtCore import QProcess, Signal

from ...core.agent import (
    INDEX_FILE,
    PAGE_TIMEOUT_S,
    SiteError,
    build_site,
    existing_site_file,
    free_site_file,
    site_file_name,
)
from ...core.atomic import move_into_place
from ...core.command_hints import hint_path
from ...core.errors import SnapshotError
from ...core.interruption import Terminated
from ...core.page import read_snapshot
from ...core.resource_files import is_shipped, never_changed
from ..qt import env as qt_env
from ..qt.interruption import DeferredInterruption
from ..qt.online_page import OnlinePage
from ..qt.online_process import ERROR_PREFIX, PREFIX, OnlineProcess
from ..qt.page_scripts import DOM_RULES, read_script
from ..qt.signals import emit
from .site_page import note_page_resaved, resaved_note

EXIT_ERROR = 2
HTML_TYPES = ("text/html", "application/xhtml+xml")
DEFAULT_TIMEOUT_S = PAGE_TIMEOUT_S
SAVE_TIMEOUT_S = 60.0
SETTLE_MS = 500  # after the load, for what scripts render right after it
SCRIPT_WAIT_S = 10.0  # what one of the app's scripts in the page may take to answer
VIEWPORT = (1280, 900)
# The flags that make the app offline (qt_env's closed-port proxy); everything else of qt_env's is kept.
OFFLINE_FLAGS = tuple(f for f in qt_env.chromium_flags("").split() if f.startswith("--proxy-"))
KEEP_HIDDEN = "keep_hidden.js"  # resources/js: run in every frame just before Chromium's MHTML writer
# What no request interceptor sees: WebRTC's UDP (STUN and TURN requests to any host and port a page names, its
# connectivity checks). Sent only through a proxy, and there is none: no UDP at all (online_guards.py refuses the
# page's RTCPeerConnection itself, which TURN over TCP would need).
ONLINE_FLAGS = ("--force-webrtc-ip-handling-policy=disable_non_proxied_udp",)
# Chromium's network errors a reader should recognise, by its name for them.
_NETWORK_ERRORS = {
    "ERR_CONNECTION_REFUSED": "the connection was refused, nothing listens there",
    "ERR_NAME_NOT_RESOLVED": "the host name does not resolve",
    "ERR_NAME_RESOLUTION_FAILED": "the host name does not resolve",
    "ERR_INTERNET_DISCONNECTED": "this machine is not connected to the internet",
    "ERR_ADDRESS_UNREACHABLE": "the address is unreachable",
    "ERR_CONNECTION_TIMED_OUT": "the connection timed out",
    "ERR_TIMED_OUT": "the connection timed out",
    "ERR_CONNECTION_RESET": "the connection was reset",
    "ERR_CONNECTION_CLOSED": "the server closed the connection",
    "ERR_EMPTY_RESPONSE": "the server sent nothing",
    "ERR_PROXY_CONNECTION_FAILED": "the proxy cannot be reached",
}


class SaveError(RuntimeError):
    """A page that could not be saved; the message says why, for the person who asked."""


@dataclass(frozen=True)
class SavedPage:
    url: str            # the URL the archive was saved from (after redirects): the site's key for it
    requested: str      # the URL asked for
    file: str           # relative to the site folder
    site: str           # the site folder
    title: str
    bytes: int
    resources: int
    pages: int          # pages in the site after re-indexing
    replaced: bool      # the site held this URL already, and its file was saved over
    warnings: tuple[str, ...] = ()  # what the page's scripts tried and were kept from (OnlinePage.guarded_notes)

    def message(self) -> str:
        redirected = f" (asked for {self.requested})" if self.url != self.requested else ""
        how = "saved over" if self.replaced else "saved as"
        warned = "".join(f" (warning: {w})" for w in self.warnings)
        return (f"{self.url}{redirected} {how} {hint_path(self.file)} in {hint_path(self.site)}: "
                f"{self.resources} resource(s), {self.bytes // 1024} KB; the site has {self.pages} page(s){warned}")


# -- the saving process -------------------------------------------------------------------------------------------


def chromium_flags(existing: str) -> str:
    """The app's Chromium flags without the offline proxy (this process must reach the page's server), and with
    `ONLINE_FLAGS` in place of any flag of theirs already given."""
    names = {flag.split("=", 1)[0] for flag in ONLINE_FLAGS}
    flags = [f for f in qt_env.chromium_flags(existing).split() if f.split("=", 1)[0] not in names]
    return " ".join([*(f for f in flags if f not in OFFLINE_FLAGS), *ONLINE_FLAGS])


def check_url(url: str) -> str:
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise SaveError(f"{url!r} is not a web address: only http:// and https:// pages can be saved")
    return url


class _Saver(OnlinePage):
    """One page loaded and saved in this process's own QApplication (see `main`)."""

    def __init__(self, url: str, site: Path, *, scripts: bool, timeout_s: float,
                 progress: Callable[[str], None], interruption: DeferredInterruption) -> None:
        self.url = url
        self.site = site
        self.timeout_s = timeout_s
        self.progress = progress
        self._info = None  # the last QWebEngineLoadingInfo
        self._save = None
        # Every wait's turn hands a Ctrl+C or SIGTERM noted meanwhile to its handler, which raises the interruption
        super().__init__(viewport=VIEWPORT, scripts=scripts, cancelled=interruption.check, error=SaveError)
        self.page.loadingChanged.connect(self._on_loading_changed)

    def _on_loading_changed(self, info) -> None:  # noqa: ANN001 - QWebEngineLoadingInfo
        self._info = info

    def _on_download(self, request) -> None:  # noqa: ANN001 - QWebEngineDownloadRequest
        if request.isSavePageDownload():
            self._save = request
            return
        super()._on_download(request)

    def run(self) -> SavedPage:
        from PySide6.QtCore import QUrl

        self.progress(f"loading {self.url}")
        self.page.load(QUrl(self.url))
        finished = self._wait_for_load(lambda: self._finished is not None or bool(self._download), self.timeout_s)
        if not finished:
            self.page.triggerAction(self.page.WebAction.Stop)
            raise SaveError(f"{self.url} did not finish loading within {self.timeout_s:g} s")
        self._check_loaded()
        self.progress(f"loaded {self.page.url().toString()}")
        self._wait(lambda: False, SETTLE_MS / 1000)  # a pause that still notices an interruption
        return self._save_page()

    def _check_loaded(self) -> None:
        if self._download:
            raise SaveError(f"{self.url} is not an HTML page (the server sent {self._download} to download); "
                            "only web pages can be saved to a site")
        info = self._info
        failed = info is not None and (info.isErrorPage() or info.status() == info.LoadStatus.LoadFailedStatus)
        if not self._finished or failed:
            raise SaveError(_load_error(self.url, info))
        content_type = self._js("document.contentType")
        if content_type not in HTML_TYPES:
            raise SaveError(f"{self.url} is not an HTML page (it is {content_type or 'of an unknown type'}); "
                            "only web pages can be saved to a site")

    def _save_page(self) -> SavedPage:
        from PySide6.QtWebEngineCore import QWebEngineDownloadRequest

        created = not self.site.exists()
        self.site.mkdir(parents=True, exist_ok=True)
        partial = self.site / f".{site_file_name(self.url)}.{os.getpid()}.part"  # not a page suffix: never indexed
        try:
            self.progress("saving the page as MHTML")
            keep_hidden(self.page, self._wait, lambda: SCRIPT_WAIT_S)
            self.page.save(str(partial.resolve()), QWebEngineDownloadRequest.SavePageFormat.MimeHtmlSaveFormat)
            state = QWebEngineDownloadRequest.DownloadState
            if not self._wait(lambda: self._save is not None and self._save.isFinished(), SAVE_TIMEOUT_S):
                raise SaveError(f"Chromium did not save {self.url} within {SAVE_TIMEOUT_S:g} s")
            if self._save.state() != state.DownloadCompleted:
                raise SaveError(f"Chromium could not save {self.url}: {self._save.interruptReasonString()}")
            return self._keep(partial)
        except BaseException:
            partial.unlink(missing_ok=True)
            if created:
                _remove_empty(self.site)
            raise

    def _keep(self, partial: Path) -> SavedPage:
        """Put the archive in the site under its saved URL and re-index the site."""
        try:
            snapshot = read_snapshot(partial)
        except SnapshotError as error:
            raise SaveError(f"Chromium's archive of {self.url} cannot be read: {error}") from None
        saved_url = snapshot.url or self.page.url().toString()
        existing = existing_site_file(self.site, saved_url)
        target = existing or free_site_file(self.site, saved_url)
        size = partial.stat().st_size
        move_into_place(partial, target)  # Chromium writes downloads owner-only; site pages follow the umask
        self.progress("re-indexing the site")
        try:
            site = build_site(self.site)
        except SiteError as error:
            raise SaveError(f"saved, but the site cannot be indexed: {error}") from None
        found = site.resolve(saved_url)
        if found is None or found.resolve() != target.resolve():
            if existing is None:
                target.unlink(missing_ok=True)
                _reindex_quietly(self.site)
            why = "; ".join(site.warnings) or "the index does not list it"
            raise SaveError(f"the site left the saved page out: {why}")
        # a captured page saved over: its meta.json says so, and that its tree and screenshot are the capture's
        stale = resaved_note(note_page_resaved(site, saved_url, target, by="Save a page from the web")
                             ) if existing is not None else ""
        return SavedPage(url=saved_url, requested=self.url, file=target.relative_to(self.site).as_posix(),
                         site=str(self.site), title=snapshot.title or "", bytes=size,
                         resources=len(snapshot.resources), pages=len(site.pages), replaced=existing is not None,
                         warnings=(*self.guarded_notes(), *([stale] if stale else [])))


def keep_hidden(page, wait: Callable[[Callable[[], bool], float], bool],  # noqa: ANN001 - a QWebEnginePage
                time_left: Callable[[], float]) -> None:
    """Make `page`'s hidden form fields and `hidden` elements, in every frame, what Chromium's MHTML writer keeps
    (resources/js/keep_hidden.js; the writer leaves them out, and a saved form would send without them). Just
    before the page is saved: the page is changed for it. `wait(condition, seconds)` spins the event loop (an
    OnlinePage's `_wait`), for each frame's answer at most `time_left()` seconds. (Qt before 6.8 has no frames
    API: the main frame alone.)"""
    from PySide6.QtWebEngineCore import QWebEngineScript

    # dom_rules.js first, where no script of ours ran in the frame yet: keep_hidden.js reads the page's nodes
    # through its `dom` (a form's control named after a property it reads shadows nothing).
    code = (f"if (!(globalThis.__recordlens && globalThis.__recordlens.dom)) {{\n{read_script(DOM_RULES)}\n}};\n"
            f"{read_script(KEEP_HIDDEN)}")
    world = QWebEngineScript.ScriptWorldId.ApplicationWorld
    if not hasattr(page, "mainFrame"):
        box: list[object] = []
        page.runJavaScript(code, world, box.append)
        wait(lambda: bool(box), time_left())
        return
    frames = [page.mainFrame()]
    while frames:
        frame = frames.pop(0)
        if not frame.isValid():
            continue  # gone meanwhile
        answered: list[object] = []
        frame.runJavaScript(code, int(world.value), answered.append)
        wait(lambda: bool(answered), time_left())  # noqa: B023 - waited for before the next frame's
        frames += list(frame.children())


def _load_error(url: str, info) -> str:  # noqa: ANN001 - QWebEngineLoadingInfo or None
    host = urlsplit(url).hostname or url
    if info is None:
        return f"cannot load {url}"
    from PySide6.QtWebEngineCore import QWebEngineLoadingInfo

    domain = info.errorDomain()
    text = info.errorString() or ""
    if domain == QWebEngineLoadingInfo.ErrorDomain.HttpStatusCodeDomain:
        code = info.errorCode()
        return f"{url} answered HTTP {code}{status_phrase(code)}: there is no page to save"
    name = text.removeprefix("net::")
    if (explained := explained_network_error(text)) is not None:
        return f"cannot reach {host}: {explained}"
    if name.startswith("ERR_CERT") or name.startswith("ERR_SSL"):
        return f"cannot reach {host} securely: its certificate or TLS setup is refused ({text})"
    return f"cannot load {url}: {text or 'the load failed'}"


def explained_network_error(text: str) -> str | None:
    """Chromium's error code (`net::ERR_...`) in words with the code after them, when it is a known one."""
    name = text.removeprefix("net::")
    return f"{_NETWORK_ERRORS[name]} ({text})" if name in _NETWORK_ERRORS else None


def status_phrase(code: int) -> str:
    """" Not Found" for 404: the words after an HTTP status code ("" for a code without a standard phrase)."""
    try:
        return f" {HTTPStatus(code).phrase}"
    except ValueError:
        return ""


def _reindex_quietly(folder: Path) -> None:
    try:
        build_site(folder)
    except SiteError:
        (folder / INDEX_FILE).unlink(missing_ok=True)  # no page left: no index either


def _remove_empty(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not empty: something else is there, and it stays
        folder.rmdir()


def save_from_web(url: str, site: str | Path, *, scripts: bool = True, timeout_s: float = DEFAULT_TIMEOUT_S,
                  progress: Callable[[str], None] | None = None) -> SavedPage:
    """Load `url` and save it into the site folder. Only in a process of its own: it sets up Chromium without
    the app's offline proxy, which is impossible once a QApplication exists (so it refuses then)."""
    from PySide6.QtWidgets import QApplication

    url = check_url(url)
    if is_shipped(site):
        raise SaveError(f"{never_changed(Path(site))}: give another folder")
    if QApplication.instance() is not None:
        raise SaveError("saving from the web needs a process of its own (the app's Chromium is offline)")
    os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] = chromium_flags(os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", ""))
    os.environ["QT_QPA_PLATFORM"] = "offscreen"  # nothing is ever shown
    # From before Qt's web modules load (an interruption raised inside PySide's import can abort the process) to
    # the end: a signal met once the page is saved is dropped, and the save it would have cut short is reported.
    with DeferredInterruption() as interruption:
        import PySide6.QtWebEngineWidgets  # noqa: F401 - before the QApplication, for GL context sharing
        from PySide6.QtCore import QCoreApplication, Qt

        QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
        app = QApplication([sys.argv[0] or "recordlens-site-saver"])
        interruption.check()
        saver = _Saver(url, Path(site), scripts=scripts, timeout_s=timeout_s, progress=progress or (lambda _: None),
                       interruption=interruption)
        try:
            return saver.run()
        finally:
            saver.close()
            app.processEvents()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m recordlens.annotator.agent.site_saver",
        description="Load a web page (the network is reached: this is the only online part of RecordLens) and "
                    "save it as MHTML into a snapshot site folder, then re-index the site.")
    parser.add_argument("url", help="the page's http:// or https:// address")
    parser.add_argument("--site", required=True, help="the site folder (created when missing)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.add_argument("--no-scripts", action="store_true",
                        help="do not run the page's scripts (the page as its HTML alone renders)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="S",
                        help=f"give up when the page has not loaded after S seconds (default {DEFAULT_TIMEOUT_S:g})")
    args = parser.parse_args(argv)

    def progress(text: str) -> None:
        print(PREFIX + text, file=sys.stderr, flush=True)

    def terminate(_signum: int, _frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: another one would cut the clean-up short
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        saved = save_from_web(args.url, args.site, scripts=not args.no_scripts, timeout_s=args.timeout,
                              progress=progress)
    except (SaveError, OSError) as error:
        print(ERROR_PREFIX + str(error), file=sys.stderr, flush=True)
        return EXIT_ERROR
    except KeyboardInterrupt as interruption:  # Ctrl+C, or SIGTERM: from whoever sent it, not said to be a cancel
        terminated = isinstance(interruption, Terminated)
        print(PREFIX + "interrupted" + (" (SIGTERM)" if terminated else ""), file=sys.stderr, flush=True)
        return Terminated.status if terminated else 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(json.dumps(asdict(saved) | {"message": saved.message()}) if args.json else saved.message(), flush=True)
    return 0


# -- running it from the app ------------------------------------------------------------------------------------


class SaveFromWeb(OnlineProcess):
    """The saver process, run in the background: `progress(text)` as it goes, then `finished(result)` once, with
    a SavedPage-like dict (`ok` True, `message`, `url`, `file`, `site`...) or `{"ok": False, "message": why}`."""

    progress = Signal(str)
    name = "the saver"
    stop_wait_ms = 5000  # the saver removes what it began writing

    def start(self, url: str, site: str | Path, *, scripts: bool = True,
              timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        if self.running:
            raise SaveError("a page is being saved already")
        arguments = ["-m", "recordlens.annotator.agent.site_saver", url, "--site", str(site), "--json",
                     "--timeout", f"{timeout_s:g}"]
        if not scripts:
            arguments.append("--no-scripts")
        self._launch(arguments, f"starting to save {url}")

    def _on_progress(self, text: str) -> None:
        emit(self.progress, text)

    def _result(self, code: int, status: QProcess.ExitStatus, output: list[str]) -> dict[str, object]:
        # Saved: also when the Cancel came too late to stop it (while the site was re-indexed): the page is there.
        if code == 0 and status == QProcess.ExitStatus.NormalExit and output:
            try:
                return {"ok": True, **json.loads(output[-1])}
            except ValueError:
                return {"ok": False, "message": f"the saver's answer cannot be read: {output[-1][:200]}"}
        if self._cancelled:  # its SIGTERM: the saver removed what it began writing, and exited as interrupted
            return {"ok": False, "message": "cancelled: nothing was saved"}
        return {"ok": False, "message": self._failure(code)}


if __name__ == "__main__":
    sys.exit(main())
