"""Capturing a site from the web: a breadth-first crawl from root pages within URL rules, every page kept whole.

This module decides *what* is captured and keeps it; a `Renderer` (the app's Chromium, in a process of its own:
annotator/agent/site_capture.py) loads each page and hands back what it rendered. Core never goes online here
except for robots.txt, which it fetches itself (stdlib HTTP) so that the rule is applied before a page loads.

Rules, in the order they are checked for a discovered URL (the first that refuses it says why it was skipped):
  - http(s) only, the fragment dropped; compared after `normalise_url`, so each page is visited once (a link to
    another scheme is not followed; a redirect to one, file: or ftp:, is skipped with its scheme said: `off_the_web`);
  - `same_host` (default on): the host (and port) of one of the roots;
  - `include`: when given, the URL must match one of the regular expressions (re.search); the roots need not;
  - `exclude`: the URL must match none;
  - robots.txt of its host (user agent "RecordLens", read as RFC 9309 says: robots.py), unless `robots` is off;
    a robots.txt that cannot be fetched (5xx, no answer within the --timeout) disallows every page of its host,
    and those pages fail (not skipped), so that the next run tries them again;
  - `depth`: links are followed that many levels below a root (roots are depth 0);
  - `max_pages`: no more pages are saved once that many are.
A redirect is checked before it is followed, on every hop (the renderer asks `refuse_redirect(target)` before it
requests the target): a hop that the host rule (--same-host), an --exclude pattern or robots.txt refuses is never
requested, and the page that redirected is skipped with that said ("redirects to URL: another host"); --include
chooses among the pages kept, so it is checked where the redirects end. A page is kept only when the URL it ends
at passes the same rules. A root's redirect within the same site (to www., to a subdomain, to /en/) is the site
asked for: the URL it ends at counts as a root, its host as a root's. A root that redirects to an unrelated host
(a login service, a parked domain) is skipped with that said: given as a root itself, that host is captured.

Every saved page is four files named after its final URL (`pages/STEM.mhtml`, `STEM.axtree.json`, `STEM.png`,
`STEM.meta.json`); the MHTML is written last, each file atomically, so a page exists (is indexed) only whole.
`capture.json` keeps the crawl's state (queue, what was seen, each URL's outcome, and the links on pages at
--depth not followed, which the summary counts once each over the whole crawl), rewritten atomically after
every page: a stopped capture started again with the same folder continues where it stopped, and a page that
was being written when it stopped is captured again under the same names, never twice. Run again with other
rules, the new rules replace the stored ones, and the summary's notes name each that changed (old → new).

A page the site answers with HTTP 4xx (404, 410, 401, 403, …), but 408 and 429, which ask to come back, is a dead
link; a URL whose answer is no page (a file such as a PDF, a page sent as a download, HTTP 204 or 205: nothing to
save) is a link to no page. Either is the site's final answer, and asking again gets it again. It is no failure: it
is recorded as the URL's outcome (`dead` or `no_page` in capture.json and in the summary, with the answer:
`FINAL_OUTCOMES`), a crawl whose only misses are such answers is complete, and a capture run again does not ask for
them again unless told to (`ask_again`, --ask-again). The pages that failed (no answer, 5xx, 408, 429, a renderer
that broke, robots.txt that could not be fetched) are tried again.

The pace: --delay between two pages, or the `Crawl-delay` of the host's robots.txt when it is longer (at most
`MAX_WAIT_S`); a page answered 429 or 503 with a Retry-After of at most `MAX_WAIT_S` is tried once more after it.
Pages of a root's host that get no answer within the --timeout, five in a row, stop the crawl ("the site stopped
answering") unless the host still answers (`probe`, the renderer's: its robots.txt fetched again): then they are
slower than --timeout, said once, and the crawl goes on.

A capture whose crawl is complete, run again, loads nothing (its queue is empty) and says so, with when it was
completed: the site keeps the pages captured then. `refresh` (`--refresh`) captures every page again: the old
capture (`pages/` and `capture.json`, with a copy of `site.json`) is first moved to `removed/capture.TIME/` in the
site folder (the project's way of keeping what was replaced; a site's index leaves `removed/` out), then the
crawl starts over from the roots. A refresh that saves no page (the site is down, its root leads elsewhere now, it
was stopped at once) puts the old capture back as it was and says so: the site keeps the pages captured before.
A refresh that was stopped (Ctrl+C, a kill) is noted in capture.json (`refreshing`: where the old capture is
kept) until its crawl is complete: the same command, --refresh and all, goes on with it rather than start over.

One capture at a time per folder: `.capture.lock` (created with O_EXCL) holds the host and pid of the capture
running; another is refused at once, and a lock whose process is gone (killed) is taken over with a note.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urldefrag, urljoin, urlsplit

from .. import atomic, owner_files
from ..command_hints import hint_path
from ..errors import AgentError, RecordLensError, system_words
from ..output_paths import writable_folder
from ..resource_files import is_shipped, never_changed
from ..wording import listed
from . import axtree
from .page_twins import PageCopy, link_key, page_document, page_shape, same_page
from .robots import ROBOTS_TIMEOUT_S, WEB_SCHEMES, Robots, RobotsCancelled, origin_of, same_site
from .site_files import SAVED_SUFFIX, free_site_file_name, site_file_name
from .sites import (
    CAPTURE_STATE_FILE,
    INDEX_FILE,
    SET_ASIDE_FOLDER,
    SiteError,
    build_site,
    inside_site,
    load_site,
    normalise_url,
    side_files,
)

if TYPE_CHECKING:
    from ..page.dom import Page
    from ..page.snapshot import Snapshot

STATE_FILE = CAPTURE_STATE_FILE
LOCK_FILE = ".capture.lock"  # hidden: not part of the site, and gone once the capture ends
PAGES_FOLDER = "pages"
DEFAULT_VIEWPORT = (1920, 1080)
CAPTURE_VIEWPORT = DEFAULT_VIEWPORT  # the name the package exports
# How long a page may take to load, by default, wherever one is loaded from the web (`site capture`, its dialog,
# the site browser's save of one page).
PAGE_TIMEOUT_S = 60.0
MAX_PAGE_MIB = 50.0  # how large a page's document (or a frame's) may be, decoded: a larger one fails at once
CAPTURE_SOME_FAILED = 1  # `site capture`'s exit status when a page failed (its summary is printed all the same);
                         # a dead link or a link to no page is no failure
# ... when it leaves no site (no page saved, the folder's pages gone, or no index built over the pages saved): an
# error, said why
CAPTURE_NO_SITE = 2
DEFAULT_DEPTH = 2
# A site that stops answering (the server went down, hangs, the network dropped): after this many of its pages in
# a row that could not be reached, the capture stops rather than mark the rest of its queue failed (or wait the
# whole timeout for each). Counted per host of the roots, charged to the host that did not answer (where a redirect
# led, not the page that redirected, whose host answered): dead links and redirects to other sites do not count.
# The pages that failed last time count too, but they are tried after the queue and stop a run only once no page
# it has not tried is queued: old failures never stop a run before it reaches the pages it has not tried.
UNREACHABLE_IN_A_ROW = 5
_UNREACHABLE = re.compile(r"ERR_(CONNECTION_[A-Z_]+|NAME_NOT_RESOLVED|ADDRESS_UNREACHABLE|INTERNET_DISCONNECTED|"
                          r"NETWORK_CHANGED|TIMED_OUT|EMPTY_RESPONSE|PROXY_CONNECTION_FAILED)")
# "No answer within --timeout" (Chromium's own or the renderer's): a slow page, or a server that hangs.
_TIMED_OUT = re.compile(r"within [0-9.]+ s|ERR_(CONNECTION_)?TIMED_OUT")
# The longest a site's Crawl-delay or Retry-After is waited for: a longer one is not (a Retry-After page fails, and
# is tried again when the capture runs again; a Crawl-delay is cut to it, said in a note).
MAX_WAIT_S = 30.0
# The answers of 4xx that ask to come back (Request Timeout, Too Many Requests): a page answered so failed, and is
# tried again; any other 4xx makes it a dead link.
COME_BACK_LATER = (408, 429)
# The site's final answers about a URL (module notes), no failures: the outcome (in capture.json, and the summary's
# list of them) -> what the summary calls them
FINAL_OUTCOMES = {"dead": "dead link(s)", "no_page": "link(s) to no page"}
DEFAULT_MAX_PAGES = 50
STATE_VERSION = 1


class CaptureError(AgentError):
    """A capture that cannot start or go on (a bad root, an unreadable state file)."""


class CaptureInterrupted(KeyboardInterrupt):
    """Ctrl+C during a capture: a KeyboardInterrupt still (the command exits 130), carrying the summary of what the
    capture did until then, so that it is said as a stopped capture's is (a SIGTERM's, a Cancel's)."""

    def __init__(self, summary: CaptureSummary) -> None:
        super().__init__()
        self.summary = summary


class PageFailed(Exception):  # noqa: N818 - an outcome more than an error: the crawl goes on
    """Raised by a renderer for a page it could not capture; the message is the reason the summary shows.
    `unreachable`: the server did not answer (no connection, no host, or no page within the timeout), as opposed
    to answering with an error; left None, it is read from Chromium's error code in the message. `at`: the URL
    that failed when it is not the one asked for (a redirect's target): whose server did not answer.
    `redirected_to`: the redirect target that `refuse_redirect` refused, never requested (the message is the
    refusal's reason): the page is skipped, not failed. `retry_after`: the seconds a 429 or 503 asked to wait
    (its Retry-After), None when it asked nothing. `status`: the HTTP status the page's document was answered
    with, None when it got no answer (or the renderer does not say it): a 4xx makes the page a dead link
    (`dead_link`), not a failure. `no_page`: the site answered with no page to save (a file, a download, no
    content), which asking again gets again: a link to no page, not a failure either (`final`)."""

    def __init__(self, reason: str, *, unreachable: bool | None = None, at: str = "",
                 redirected_to: str = "", retry_after: float | None = None, status: int | None = None,
                 no_page: bool = False) -> None:
        super().__init__(reason)
        self.unreachable = bool(_UNREACHABLE.search(reason)) if unreachable is None else unreachable
        self.at = at
        self.redirected_to = redirected_to
        self.retry_after = retry_after
        self.status = status
        self.no_page = no_page

    @property
    def dead_link(self) -> bool:
        """Whether the site's answer is final (a 4xx but those that ask to come back): asking again gets it
        again."""
        return self.status is not None and 400 <= self.status < 500 and self.status not in COME_BACK_LATER

    @property
    def final(self) -> str:
        """The site's final answer this is, as the URL's outcome (one of `FINAL_OUTCOMES`), "" for a failure (tried
        again): an answer that is no page but says the server failed, or asks to come back (5xx, 408, 429), is
        one."""
        if self.dead_link:
            return "dead"
        return "no_page" if self.no_page and (self.status is None or self.status < 400) else ""


@dataclass(frozen=True)
class CaptureRules:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    same_host: bool = True
    depth: int = DEFAULT_DEPTH
    max_pages: int = DEFAULT_MAX_PAGES
    robots: bool = True
    delay_s: float = 0.0

    def compiled(self) -> tuple[list[re.Pattern[str]], list[re.Pattern[str]]]:
        try:
            return [re.compile(p) for p in self.include], [re.compile(p) for p in self.exclude]
        except re.error as error:
            raise CaptureError(f"a URL pattern is not a valid regular expression: {error}") from None


@dataclass
class RenderedPage:
    """What a renderer gives back for one URL it loaded."""

    requested_url: str
    final_url: str                 # after redirects: the page's URL in the site
    status: int | None             # the HTTP status of the final response
    redirects: list[dict[str, Any]]  # [{"url": ..., "status": 301, "location": ...}] in the order followed
    content_type: str
    title: str
    mhtml: bytes
    ax_nodes: list[dict[str, Any]]   # Accessibility.getFullAXTree's nodes
    dom: dict[str, Any] | None       # DOM.getDocument(depth=-1)'s root, for the nodes' XPaths
    screenshot: bytes                # full-page PNG
    screenshot_size: tuple[int, int]
    links: list[str]                 # absolute URLs of the page's links (and its frames'): its GET forms are read
                                     # from `mhtml` by the crawl itself (`form_targets`), as the offline browsers
                                     # submit them
    engine: str
    viewport: tuple[int, int]
    page_height: int = 0             # the page's full height in CSS pixels (0: unknown); a taller page than the
                                     # screenshot was cut
    warnings: list[str] = field(default_factory=list)  # what the saved page lacks or may not show as it was (a
                                     # request still pending, a page that changed while captured): meta.json keeps them


# Asked before a redirect is followed, with the URL it leads to: why the capture refuses it, or None to follow it.
RedirectCheck = Callable[[str], str | None]


class Renderer(Protocol):
    def render(self, url: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
        """Load `url` and capture it; raise PageFailed(reason) when it cannot be. Before each redirect (and any
        other main-frame navigation while it loads) is followed, `refuse_redirect(target)`: a reason means the
        target is not requested, and PageFailed(reason, redirected_to=target) is raised."""


@dataclass
class CaptureSummary:
    folder: str
    saved: list[str] = field(default_factory=list)            # final URLs, in capture order
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (url, rule)
    failed: list[tuple[str, str]] = field(default_factory=list)   # (url, reason)
    # (url, the site's answer) of the dead links met, and of the links to no page (`FINAL_OUTCOMES`); run again on
    # a complete crawl, those of the crawl, which were not asked again
    dead: list[tuple[str, str]] = field(default_factory=list)
    no_page: list[tuple[str, str]] = field(default_factory=list)
    duplicates: list[tuple[str, str]] = field(default_factory=list)  # (url, the saved page's URL it redirects to)
    same_content: list[tuple[str, str]] = field(default_factory=list)  # (url, the saved page whose HTML it has)
    beyond_depth: int = 0   # distinct URLs linked from pages at --depth that a larger --depth would follow
    resumed: bool = False
    stopped: bool = False   # cancelled, or max-pages reached with URLs still queued
    pages: int = 0          # pages in the site after indexing
    queued: int = 0         # URLs left in the queue
    notes: list[str] = field(default_factory=list)  # e.g. a robots.txt that could not be fetched
    limit: int = 0          # the --max-pages the site had reached when it stopped (0: it did not)
    complete_since: str = ""  # run again on a complete crawl: when it was completed ("" otherwise)
    index_error: str = ""   # why the site index could not be built over the pages saved ("": it was, or none was)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def message(self) -> str:
        text = (f"{hint_path(self.folder)}: {len(self.saved)} page(s) saved, {len(self.skipped)} skipped by rule, "
                f"{len(self.failed)} failed"
                + (f", {len(self.dead)} dead link(s) (answered HTTP 4xx: not asked again unless --ask-again)"
                   if self.dead else "")
                + (f", {len(self.no_page)} link(s) to no page (a file, a download or nothing to save: not asked "
                   "again unless --ask-again)" if self.no_page else "")
                + (f", {len(self.duplicates)} redirected to a page saved already" if self.duplicates else "")
                + (f", {len(self.same_content)} duplicate(s) kept as aliases (the same content as a page saved "
                   "already)" if self.same_content else "")
                + f"; the site has {self.pages} page(s)")
        if self.beyond_depth:
            text += f"; {self.beyond_depth} link(s) on pages at --depth not followed (a larger --depth follows them)"
        if self.queued and self.limit:  # the same command again would stop at once: the limit counts the site
            text += (f"; {self.queued} URL(s) still queued: the site holds --max-pages {self.limit} pages, run again "
                     "with a larger --max-pages to continue")
        elif self.queued:
            text += f"; {self.queued} URL(s) still queued (run again to continue)"
        if self.complete_since:
            text += f"; the crawl was complete already ({self.complete_since}): --refresh captures it again"
        return text

    def no_site(self) -> str:
        """Why the capture leaves no usable site (its folder holds no page) and what to do; "" when it holds one."""
        if self.pages:
            return ""
        if self.index_error:  # pages were saved: "no page was saved" would send the user after the wrong fault
            return (f"{hint_path(self.folder)} holds no site: the site index could not be built ({self.index_error}); "
                    f"the pages saved are kept in {hint_path(Path(self.folder) / PAGES_FOLDER)}: once that is put "
                    f"right, `recordlens site build {hint_path(self.folder)}` indexes them (or run the same command "
                    "again)")
        said = f"{hint_path(self.folder)} holds no site: no page was saved"
        if self.stopped and self.queued:
            return f"{said}: the capture stopped before its first page; run the same command again to continue it"
        kinds = [[f"{url} skipped: {reason}" for url, reason in self.skipped],
                 [f"{url} failed: {reason}" for url, reason in self.failed],
                 [f"{url} is a dead link: {reason}" for url, reason in self.dead],
                 [f"{url} is no page: {reason}" for url, reason in self.no_page]]
        if any(kinds):  # up to three of each kind shown, so that many of one do not hide another
            shown = [text for kind in kinds for text in kind[:3]]
            rest = [text for kind in kinds for text in kind[3:]]
            said += f" ({listed(shown + rest, len(shown), total=True, sep='; ')})"
        todo = []
        if self.skipped:
            todo.append("capture from the address a root leads to, or with rules that let it in (--include, "
                        "--exclude, --any-host, --ignore-robots)")
        if self.failed:
            todo.append("check the address and that the site answers, then run the same command again")
        if self.dead or self.no_page:
            todo.append("check the address (a dead link or a link to no page is not asked for again: the same "
                        "command with --ask-again asks again)")
        if not todo:
            todo.append("check the addresses and the rules, then run again (--refresh captures every page again)")
        return f"{said}; {', or '.join(todo)}"


# -- names ------------------------------------------------------------------------------------------------------


def page_stem(url: str) -> str:
    """The file stem of the page captured from `url`: the site's one naming rule (`site_files`), without its
    suffix, so that a captured page and a page saved by hand get the same name."""
    return site_file_name(url).removesuffix(SAVED_SUFFIX)


# -- the crawl ----------------------------------------------------------------------------------------------------


def off_the_web(url: str) -> str:
    """Why `url` is not captured for its scheme, "" for an http(s) one: a capture loads web pages only. Said of a
    redirect to a file: or ftp: address (Chromium refuses the one and cannot load the other); a link to one is
    not followed, nor said."""
    scheme = urlsplit(url).scheme.lower()
    if scheme in WEB_SCHEMES:
        return ""
    return f"not a web address ({scheme or 'no scheme'}:), which a capture does not load (http and https only)"


def check_root(url: str) -> str:
    url = urldefrag(url.strip())[0]
    parts = urlsplit(url)
    if parts.scheme.lower() not in WEB_SCHEMES or not parts.hostname:
        raise CaptureError(f"{url!r} is not a web address: a capture starts from http:// or https:// pages")
    return url


def check_site_folder(folder: str | Path) -> Path:
    """The site folder a capture writes into, refused before anything is made (or Chromium starts) when it cannot
    be a folder or lies inside the files RecordLens ships (the demo site): those are never written."""
    if is_shipped(folder):
        copy = (f" (to add pages to the site there, copy it first, `cp -r {hint_path(folder)} my-site`, and capture "
                "into the copy)") if Path(folder).is_dir() else ""
        raise CaptureError(f"{never_changed(folder)}: choose another --site folder, outside them{copy}")
    return writable_folder(folder, "the site")


class _State:
    """capture.json: the queue, what was seen, and every URL's outcome."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / STATE_FILE
        self.queue: list[list[Any]] = []      # [url, depth]
        self.seen: set[str] = set()           # normalised URLs ever queued, skipped or reached by a redirect
        self.outcomes: dict[str, dict[str, Any]] = {}  # normalised requested URL -> outcome
        # Normalised URL -> link, of the links on pages saved at --depth that were not followed: kept across runs,
        # so that the summary counts each URL once over the whole crawl, however many pages link to it
        self.beyond: dict[str, str] = {}
        self.roots: list[str] = []
        self.rules: dict[str, Any] = {}  # the rules of the capture so far (capture.json)
        self.completed_at = ""  # when a run last ended with nothing queued (UTC, ISO 8601)
        self.refreshing = ""  # a --refresh under way: where the capture before it is kept (until it is complete)
        self.resumed = False
        if self.path.exists():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                self.queue = [[str(u), int(d)] for u, d in data["queue"]]
                self.seen = set(data["seen"])
                self.outcomes = dict(data["outcomes"])
                self.roots = list(data.get("roots") or [])
                self.rules = dict(data.get("rules") or {})
                self.completed_at = str(data.get("completed_at") or "")
                self.refreshing = str(data.get("refreshing") or "")
                self.beyond = _keyed(str(link) for link in data.get("beyond") or [])
            except (OSError, ValueError, KeyError, TypeError) as error:
                raise CaptureError(f"cannot read the capture state {hint_path(self.path)}: {system_words(error)}; "
                                   "remove it to start the capture over") from None
            self._key_again()
            self.resumed = True

    def _key_again(self) -> None:
        """Key what was read by today's `normalise_url`. A capture.json written before it kept an IPv6 host's
        brackets holds keys such as http://::1:8000/a, which no URL normalises to now (nor can be read back): each
        outcome is keyed again by the URL it keeps as given, and what was seen by its key now, gaining the keys
        of the URLs the state keeps (a key that cannot be read, which nothing can match now, goes)."""
        def key(url: str) -> str | None:
            try:
                return normalise_url(url)
            except ValueError:
                return None

        self.outcomes = {key(str(o.get("url") or "")) or old: o for old, o in self.outcomes.items()}
        kept = [*self.seen, *self.outcomes, *(u for u, _ in self.queue),
                *(str(o["final_url"]) for o in self.outcomes.values() if o.get("final_url"))]
        self.seen = {k for k in map(key, kept) if k}

    def save(self, rules: CaptureRules) -> None:
        data = {"version": STATE_VERSION, "roots": self.roots, "rules": asdict(rules), "queue": self.queue,
                "seen": sorted(self.seen), "outcomes": self.outcomes,
                **({"beyond": sorted(self.beyond.values())} if self.beyond else {}),
                **({"completed_at": self.completed_at} if self.completed_at else {}),
                **({"refreshing": self.refreshing} if self.refreshing else {})}
        atomic.write_text(self.path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")

    def saved_count(self) -> int:
        return sum(1 for o in self.outcomes.values() if o.get("outcome") == "saved")

    def beyond_depth(self, follows: Callable[[str], bool]) -> int:
        """The URLs linked from pages at --depth that are still not followed (a larger --depth, or a path found
        since, queued some: those are seen now) and that the rules would follow, each once."""
        self.beyond = {key: link for key, link in self.beyond.items() if key not in self.seen}
        return sum(1 for link in self.beyond.values() if follows(link))


def capture_site(roots: Sequence[str], folder: str | Path, renderer: Renderer, rules: CaptureRules | None = None,
                 *, progress: Callable[[int, int, str], None] | None = None,
                 cancelled: Callable[[], bool] = lambda: False, robots: Robots | None = None,
                 sleep: Callable[[float], None] = time.sleep, refresh: bool = False,
                 probe: Callable[[str], bool] | None = None, timeout_s: float | None = None,
                 ask_again: bool = False) -> CaptureSummary:
    """Crawl from `roots` into the site folder (module notes), then index the site (`site.json`).

    `progress(done, total, text)` after every URL (done: URLs settled, total: settled + queued). Resumes the
    folder's capture.json when there is one (its queue first; new roots are added to it); with `refresh`, the
    old capture is set aside first and every page is captured again (a refresh that was stopped goes on).
    `probe(url)`: whether the server of `url` answers now, asked when its pages in a row got no answer within the
    --timeout: a site that answers is slow on those pages, and the crawl goes on. Without `robots`, robots.txt is
    fetched from the web, within `timeout_s` (the page --timeout) and ended by `cancelled`, and `probe` is its
    `Robots.answers` unless given; a `robots` given (a canned web's) probes nothing unless `probe` is given.
    `ask_again`: ask again for the dead links and the links to no page of the runs before (else they stay as
    they were)."""
    rules = rules or CaptureRules()
    patterns = rules.compiled()  # a bad --include or --exclude pattern is refused before the folder is made
    checked = [check_root(u) for u in roots]  # before anything is made: a wrong address leaves no folder
    root = check_site_folder(folder)
    root.mkdir(parents=True, exist_ok=True)
    with _capture_lock(root) as taken_over:
        under_way = _refresh_under_way(root) if refresh else ""
        if under_way:  # a refresh that was stopped: the same command goes on with it, not over from the roots
            kept, set_aside = None, [f"--refresh: the refresh stopped before goes on where it stopped (the pages "
                                     f"captured before it are kept in {hint_path(under_way)})"]
        else:
            kept, set_aside = _set_aside(root) if refresh else (None, [])
        if robots is None:
            robots = Robots(timeout_s=timeout_s or ROBOTS_TIMEOUT_S, cancelled=cancelled)
            probe = probe or robots.answers
        try:
            summary = _crawl(checked, root, renderer, rules, patterns, progress=progress, cancelled=cancelled,
                             robots=robots, sleep=sleep, refreshing=str(kept or ""), probe=probe,
                             ask_again=ask_again)
        except BaseException as error:
            # Ctrl+C, a renderer that broke: a refresh that saved nothing leaves the old site as it was.
            if kept is not None and not _holds_a_page(root):
                set_aside = [_put_back(root, kept)]
            if isinstance(error, CaptureInterrupted):  # its summary says what the folder holds now
                error.summary.notes[:0] = taken_over + set_aside
                if kept is not None:
                    error.summary.pages = _page_count(root)
            raise
        if kept is not None and not _holds_a_page(root):
            set_aside = [_put_back(root, kept)]
            summary.pages = _page_count(root)
    summary.notes[:0] = taken_over + set_aside
    return summary


def _set_aside(root: Path) -> tuple[Path | None, list[str]]:
    """Move the folder's capture (its pages and capture.json, and a copy of site.json, which keeps the site's
    name) to a folder of its own in `removed/`, so that every page is captured again: that folder (None when
    there was no capture), and the notes that say so."""
    from ..store.removed_files import new_folder, stamped

    old = [path for path in (root / PAGES_FOLDER, root / STATE_FILE) if path.exists()]
    if not old:
        return None, ["--refresh: the folder held no capture yet"]
    try:
        kept = new_folder(root / SET_ASIDE_FOLDER, stamped("capture", datetime.now(UTC).isoformat(timespec="seconds")))
        if (root / INDEX_FILE).is_file():
            shutil.copy2(root / INDEX_FILE, kept / INDEX_FILE)
        for path in old:
            path.rename(kept / path.name)
    except OSError as error:
        raise CaptureError(f"cannot set the old capture of {hint_path(root)} aside for --refresh: "
                           f"{error.strerror or error}") from None
    return kept, [f"--refresh: every page is captured again; the pages captured before are kept in {hint_path(kept)}"]


def _refresh_under_way(root: Path) -> str:
    """Where the capture before a refresh that was stopped (Ctrl+C, a kill) is kept, "" when no refresh is under
    way in the folder: its capture.json says so until the refresh's crawl is complete."""
    try:
        data = json.loads((root / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    under_way = str(data.get("refreshing") or "") if isinstance(data, dict) else ""
    return under_way if under_way and Path(under_way).is_dir() else ""


def _holds_a_page(root: Path) -> bool:
    """Whether the capture saved a page (its MHTML is written last: a page exists only whole)."""
    return next((root / PAGES_FOLDER).glob("*.mhtml"), None) is not None


def _put_back(root: Path, kept: Path) -> str:
    """Undo `_set_aside` for a refresh that saved no page: what it left (a capture.json of failures, a page's
    side files cut short) is dropped and the old capture moves back as it was; said in the returned note."""
    try:
        shutil.rmtree(root / PAGES_FOLDER, ignore_errors=True)
        for name in (PAGES_FOLDER, STATE_FILE, INDEX_FILE):
            if (kept / name).exists():
                (kept / name).replace(root / name)
        kept.rmdir()
        with contextlib.suppress(OSError):  # removed/ made for it alone goes too; one that keeps more stays
            kept.parent.rmdir()
    except OSError as error:
        return (f"--refresh: no page was captured again, and the capture of before could not be put back "
                f"({error.strerror or error}): it is kept in {hint_path(kept)}; move its {PAGES_FOLDER}/, "
                f"{STATE_FILE} and {INDEX_FILE} back into {hint_path(root)}")
    return (f"--refresh: no page was captured again, so the capture of before is put back as it was (the site "
            f"keeps its {_page_count(root)} page(s)); run the same command again when the site answers")


def _page_count(root: Path) -> int:
    """The pages of the folder's site as its index lists them (0: no usable site)."""
    try:
        return len(load_site(root).pages)
    except SiteError:
        return 0


def _crawl(checked: list[str], root: Path, renderer: Renderer, rules: CaptureRules,
           patterns: tuple[list[re.Pattern[str]], list[re.Pattern[str]]], *,
           progress: Callable[[int, int, str], None] | None, cancelled: Callable[[], bool], robots: Robots,
           sleep: Callable[[float], None], refreshing: str = "",
           probe: Callable[[str], bool] | None = None, ask_again: bool = False) -> CaptureSummary:
    """`capture_site`'s crawl, in a folder it holds the lock of (`patterns`: the rules' compiled include and
    exclude; `refreshing`: where a refresh starting now set the capture before aside)."""
    include, exclude = patterns
    (root / PAGES_FOLDER).mkdir(exist_ok=True)
    state = _State(root)
    state.refreshing = refreshing or state.refreshing
    summary = CaptureSummary(folder=str(root), resumed=state.resumed)
    report = progress or (lambda done, total, text: None)
    if state.resumed and state.rules:
        summary.notes.extend(_rule_changes(state, rules, checked))
    if state.resumed and state.rules and _scope(state.rules) != _scope(asdict(rules)):
        summary.notes.extend(_widen(state, rules, root))
    retried: set[str] = set()  # the URLs that failed last time, tried again this run (after the queued ones)
    if state.resumed:
        summary.notes.extend(_try_again(state, root, rules, retried, ask_again=ask_again))
    hosts = {urlsplit(normalise_url(u)).netloc for u in [*checked, *state.roots]}
    for url in checked:
        key = normalise_url(url)
        if url not in state.roots:
            state.roots.append(url)
        if key not in state.seen:
            state.seen.add(key)
            state.queue.append([url, 0])
    if state.resumed and not state.queue:  # nothing left to do: the snapshot stays as it was captured
        summary.complete_since = _completed_when(state)
        finals = []
        for outcome, called in FINAL_OUTCOMES.items():
            answers = [(str(o["url"]), str(o.get("reason") or "")) for o in state.outcomes.values()
                       if o.get("outcome") == outcome]
            getattr(summary, outcome).extend(answers)
            finals += [f"{len(answers)} {called}"] * bool(answers)
        summary.notes.append(
            f"the capture of this folder was already complete (finished {summary.complete_since}): nothing was "
            + (f"loaded again, its {' and '.join(finals)} not asked again either (--ask-again asks for them)"
               if finals else "loaded again")
            + "; to capture every page again (the site changed), run the same command with --refresh (the pages "
            f"captured before are kept in {hint_path(root / SET_ASIDE_FOLDER)}), or capture into a new --site folder")
    state.save(rules)

    def on_hosts(url: str) -> bool:
        return urlsplit(url).netloc.lower() in hosts or urlsplit(normalise_url(url)).netloc in hosts

    def refuse(url: str, *, host_checked: bool = False, kept: bool = True, cancellable: bool = True,
               fetch: bool = True) -> str | None:
        """Why `url` is not captured (None: it is). `kept`: whether it is where a page ends (--include chooses
        among those); a redirect's hop on the way is checked with `kept` False, and not `cancellable` (a Ctrl+C
        raised in the renderer's check would be lost). `fetch` False: no robots.txt is fetched to answer."""
        parts = urlsplit(url)
        if off_web := off_the_web(url):  # (a redirect's target: the links queued are http(s))
            return off_web
        if (parts.username is not None or parts.password is not None) and not on_hosts(url):
            return "its address holds a login (user:password@), which the capture does not send"
        if rules.same_host and not host_checked and not on_hosts(url):
            return "another host (--same-host)"
        # A root is asked for by name: --include chooses among the links found, not the roots themselves.
        if kept and include and not any(p.search(url) for p in include) and url not in state.roots:
            return "matches no --include pattern"
        if any(p.search(url) for p in exclude):
            return "matches an --exclude pattern"
        if rules.robots:
            down = robots.unreachable(url, cancellable=cancellable, fetch=fetch)
            if down:
                return down
            if not robots.allowed(url, cancellable=cancellable, fetch=fetch):
                return "disallowed by robots.txt"
        return None

    def refuse_root_leaving(url: str, depth: int, target: str) -> tuple[bool, str | None]:
        """A root's redirect: (whether it stays on the site asked for, why it is refused when it leaves it)."""
        if depth != 0 or target in state.roots:
            return False, None
        if same_site(url, target):
            return True, None
        if rules.same_host:
            return False, "another site, not captured (give that address as a root if it is the site you want)"
        return False, None

    def refuse_redirect(url: str, depth: int) -> RedirectCheck:
        """The check a renderer makes before following a redirect of `url`: never a request the rules refuse."""
        def check(target: str) -> str | None:
            if off_web := off_the_web(target):
                return off_web
            try:
                if normalise_url(target) == normalise_url(url):
                    return None
                stays, leaving = refuse_root_leaving(url, depth, target)
                return leaving or refuse(target, host_checked=stays, kept=False, cancellable=False)
            except ValueError:
                return "not a valid address"
        return check

    def follows(link: str) -> bool:
        """Whether the rules would follow a link found (robots.txt as read so far: none is fetched for it)."""
        return refuse(link, fetch=False) is None

    def skip(url: str, depth: int, why: str) -> str:
        state.outcomes[normalise_url(url)] = {"url": url, "outcome": "skipped", "reason": why, "depth": depth}
        summary.skipped.append((url, why))
        return f"skipped {url}: {why}"

    def fail(url: str, depth: int, why: str) -> str:
        state.outcomes[normalise_url(url)] = {"url": url, "outcome": "failed", "reason": why, "depth": depth}
        summary.failed.append((url, why))
        return f"failed {url}: {why}"

    def final(url: str, depth: int, answer: PageFailed) -> str:
        """A dead link, a link to no page: the site's final answer is the URL's outcome, not a failure to try
        again."""
        state.outcomes[normalise_url(url)] = {"url": url, "outcome": answer.final, "reason": str(answer),
                                              "status": answer.status, "depth": depth}
        getattr(summary, answer.final).append((url, str(answer)))
        return f"{'dead link' if answer.final == 'dead' else 'no page'} {url}: {answer}"

    said: set[str] = set()  # the notes said once per run (a host's Crawl-delay, its slow pages)

    def note_once(what: str, text: str) -> None:
        if what not in said:
            said.add(what)
            summary.notes.append(text)

    def pause(url: str) -> None:
        """The wait before a page: --delay, or the Crawl-delay its robots.txt asks for (up to MAX_WAIT_S), the
        longer."""
        asked = robots.crawl_delay(url) if rules.robots else None
        wait = max(rules.delay_s, min(asked or 0.0, MAX_WAIT_S))
        if asked and asked > rules.delay_s:
            host = urlsplit(url).netloc
            note_once(f"delay {host}", f"the robots.txt of {host} asks for a Crawl-delay of {asked:g} s: its pages "
                                       f"are loaded {wait:g} s apart" + (f" (at most {MAX_WAIT_S:g} s)"
                                                                          if asked > MAX_WAIT_S else ""))
        if wait > 0:
            sleep(wait)

    def render(url: str, depth: int) -> RenderedPage:
        """The renderer's page; a page answered "come back later" (429, 503 with Retry-After of up to MAX_WAIT_S)
        is tried once more after that wait."""
        try:
            return renderer.render(url, refuse_redirect(url, depth))
        except PageFailed as failure:
            wait = failure.retry_after
            if wait is None or wait > MAX_WAIT_S or cancelled():
                raise
            note_once(f"retry {url}", f"{url} answered {failure} with Retry-After: {wait:g} s: it was tried again "
                                      "after that wait")
            sleep(wait)
            return renderer.render(url, refuse_redirect(url, depth))

    def site_answers(url: str, failure: PageFailed) -> bool:
        """Whether a host whose pages in a row timed out still answers (its robots.txt, fetched again): then
        those pages are slower than --timeout, and the crawl goes on."""
        if probe is None or not _TIMED_OUT.search(str(failure)) or not probe(url):
            return False
        host = urlsplit(url).netloc
        note_once(f"slow {host}", f"{UNREACHABLE_IN_A_ROW} pages of {host} in a row got no answer within the "
                                  f"--timeout ({failure}), yet the site answers: they are slower than --timeout, "
                                  "not down; the capture went on. A larger --timeout captures them (run the same "
                                  "command again with it: the pages that failed are tried again), or --exclude "
                                  "them")
        return True

    unreachable: dict[str, int] = {}  # per host: its last pages in a row that could not be reached
    try:
        first = True
        while state.queue:
            if cancelled():
                summary.stopped = True
                break
            url, depth = state.queue[0]
            key = normalise_url(url)
            try:
                why = refuse(url)
            except RobotsCancelled:  # cancelled while its robots.txt was fetched: the URL stays queued
                summary.stopped = True
                break
            if why is None and state.saved_count() >= rules.max_pages:
                summary.stopped = True
                summary.limit = rules.max_pages
                break
            if why is not None and rules.robots and why == robots.unreachable(url, fetch=False):
                text = fail(url, depth, why)  # not a rule's choice: tried again when the capture runs again
            elif why is not None:
                text = skip(url, depth, why)
            else:
                if not first:
                    pause(url)
                first = False
                try:
                    page = render(url, depth)
                except PageFailed as failure:
                    if cancelled():
                        summary.stopped = True
                        break
                    if failure.redirected_to:  # the site answered, with a redirect the rules refuse: not requested
                        unreachable[urlsplit(key).netloc] = 0
                        text = skip(url, depth, f"redirects to {failure.redirected_to}: {failure}")
                    else:
                        text = final(url, depth, failure) if failure.final else fail(url, depth, str(failure))
                        # Charged to the server that did not answer (a redirect's target is not the site's own).
                        own = urlsplit(key).netloc
                        host = urlsplit(normalise_url(failure.at)).netloc if failure.at else own
                        if host != own:  # the page's own server answered: it sent the redirect
                            unreachable[own] = 0
                        unreachable[host] = unreachable.get(host, 0) + 1 if failure.unreachable else 0
                        # An old failure tried again stops the run only once no page it has not tried is queued.
                        if host in hosts and unreachable[host] >= UNREACHABLE_IN_A_ROW and (
                                key not in retried or all(normalise_url(u) in retried for u, _ in state.queue[1:])):
                            try:
                                answers = site_answers(failure.at or url, failure)
                            except RobotsCancelled:  # cancelled while the site was asked again: stopped there
                                summary.stopped = True
                                break
                            if answers:
                                unreachable[host] = 0
                            else:
                                summary.stopped = True
                                summary.notes.append(
                                    f"the site stopped answering ({unreachable[host]} of its pages in a row could "
                                    f"not be reached, the last: {failure}): the capture stopped; run the same "
                                    "command again when it answers, and the pages that failed are tried again")
                else:
                    unreachable[urlsplit(key).netloc] = 0
                    if cancelled():  # a page finished while cancelling is still kept: it is whole
                        summary.stopped = True
                    # A redirect is a link the site followed for us: the rules apply to where it ended too.
                    moved = normalise_url(page.final_url) != key
                    # (A renderer checks each hop before following it; this is where the redirects ended.)
                    left = None
                    if moved:
                        stays, left = refuse_root_leaving(url, depth, page.final_url)
                        if stays:
                            # A root that redirects (to www., to /en/) is the site asked for: its host and URL
                            # join the roots'; --exclude and robots.txt still apply to it.
                            state.roots.append(page.final_url)
                            hosts.add(urlsplit(normalise_url(page.final_url)).netloc)
                    # Not cancellable: the page is rendered and whole, and a stop now would lose it
                    left = left or (refuse(page.final_url, cancellable=False) if moved else None)
                    if left is not None:
                        text = skip(url, depth, f"redirects to {page.final_url}: {left}")
                    else:
                        text = _keep(page, url, depth, rules.depth, root, state, summary, follows=follows)
            state.queue.pop(0)
            state.save(rules)
            report(len(state.outcomes), len(state.outcomes) + len(state.queue), text)
            if summary.stopped:
                break
    except KeyboardInterrupt:  # Ctrl+C: the pages saved so far make a site as they are (and resume later)
        summary.stopped, summary.queued = True, len(state.queue)
        summary.beyond_depth = state.beyond_depth(follows)
        with contextlib.suppress(SiteError, OSError):
            summary.pages = len(build_site(root).pages)
        summary.notes.extend(robots.notes)
        raise CaptureInterrupted(summary) from None
    summary.queued = len(state.queue)
    summary.beyond_depth = state.beyond_depth(follows)
    if summary.queued and not summary.stopped:
        summary.stopped = True
    if not summary.stopped and not summary.complete_since:
        state.completed_at = datetime.now(UTC).isoformat(timespec="seconds")
        state.refreshing = ""  # the refresh is done: --refresh now starts another
    state.save(rules)
    summary.notes.extend(robots.notes)
    try:
        site = build_site(root)
        summary.pages = len(site.pages)
        summary.notes.extend(site.warnings)
    except SiteError as error:
        summary.pages = 0
        if state.saved_count():  # else the capture saved nothing, which `no_site` says with why
            summary.index_error = str(error)
    return summary


def _completed_when(state: _State) -> str:
    """When the crawl was completed, as a person reads it: capture.json's record, or (a capture.json written before
    it had one) the time the file was last written."""
    when = state.completed_at
    if not when:
        with contextlib.suppress(OSError):
            when = datetime.fromtimestamp(state.path.stat().st_mtime, UTC).isoformat(timespec="seconds")
    return when.replace("T", " ").replace("+00:00", " UTC") if when else "at an unknown time"


_RULE_FLAGS = {"include": "--include", "exclude": "--exclude", "depth": "--depth", "max_pages": "--max-pages",
               "same_host": "--same-host", "robots": "robots.txt"}


def _scope(rules: dict[str, Any]) -> dict[str, Any]:
    """The rules that decide which URLs are captured, comparable whether read from capture.json or made now
    (--delay changes the pace, not the scope)."""
    plain = json.loads(json.dumps(rules))
    return {name: plain.get(name) for name in _RULE_FLAGS}


def _rule_changes(state: _State, rules: CaptureRules, roots: list[str]) -> list[str]:
    """Each rule this run changes from the stored one, old → new, and each new root on a host the site had no
    root on: the new rules replace the old for the whole folder, so the user is told what scope it has now."""
    old, new = _scope(state.rules), _scope(asdict(rules))
    notes = [f"rule changed since the last run: {_said(name, old[name], new[name])}"
             + _consequence(name, old[name], new[name], state)
             for name in _RULE_FLAGS if name in state.rules and old[name] != new[name]]
    hosts = {urlsplit(normalise_url(u)).netloc for u in state.roots}
    for url in roots:
        host = urlsplit(normalise_url(url)).netloc
        if state.roots and host not in hosts and url not in state.roots:
            notes.append(f"new root {url} is on another host than the site's ({', '.join(sorted(hosts))}): "
                         f"{host}'s pages join this site folder")
            hosts.add(host)
    return notes


def _said(name: str, old: Any, new: Any) -> str:
    """A rule's change as the command line gives the rule: `--depth: 3 → 1`, `--same-host → --any-host`."""
    if name in ("include", "exclude"):
        def patterns(value: Any) -> str:
            return ", ".join(repr(p) for p in value) if value else "none"
        return f"{_RULE_FLAGS[name]}: {patterns(old)} → {patterns(new)}"
    if name == "same_host":
        return " → ".join("--same-host" if v else "--any-host" for v in (old, new))
    if name == "robots":
        return "robots.txt: " + " → ".join("honoured" if v else "ignored (--ignore-robots)" for v in (old, new))
    return f"{_RULE_FLAGS[name]}: {old} → {new}"


def _consequence(name: str, old: Any, new: Any, state: _State) -> str:
    """What a narrower rule leaves as it was: the pages saved under the old one stay in the site."""
    if name == "depth" and isinstance(old, int) and new < old:
        return f"; pages saved deeper than {new} before stay in the site"
    if name == "max_pages" and state.saved_count() >= new:
        return f"; the site holds {state.saved_count()} page(s) already, so no page more is saved"
    if name == "include":
        narrower = bool(new) and set(new) != set(old)
    elif name == "exclude":
        narrower = bool(set(new) - set(old))
    else:
        narrower = name in ("same_host", "robots") and new is True
    if narrower and state.saved_count():
        return "; pages saved before that it would refuse stay in the site"
    return ""


def _widen(state: _State, rules: CaptureRules, root: Path) -> list[str]:
    """The capture goes on under other rules: the URLs an earlier rule skipped are checked again under these, and
    with a larger --depth the links of the pages saved at the old depth are followed (read from their saved
    files). Said in the summary's notes."""
    notes = []
    again = [(key, o) for key, o in state.outcomes.items() if o.get("outcome") == "skipped"]
    _queue_again(state, again, rules.depth, first=False)
    if again:
        notes.append(f"the rules changed since the last run: {len(again)} URL(s) skipped then are checked again")
    old_depth = state.rules.get("depth")
    if isinstance(old_depth, int) and rules.depth > old_depth:
        edge = 0
        for outcome in list(state.outcomes.values()):
            if outcome.get("outcome") != "saved":
                continue
            meta = side_files(root / str(outcome.get("file", "")))["meta"]
            try:
                depth = int(json.loads(meta.read_text(encoding="utf-8")).get("depth", -1))
            except (OSError, ValueError, TypeError, AttributeError):
                continue
            if depth == old_depth:
                edge += 1
                _enqueue(_saved_links(root / str(outcome["file"]), str(outcome.get("final_url") or outcome["url"])),
                         depth + 1, state)
        if edge:
            notes.append(f"--depth grew from {old_depth} to {rules.depth}: the links of {edge} page(s) saved at "
                         f"depth {old_depth} are followed")
    return notes


@contextlib.contextmanager
def _capture_lock(root: Path) -> Iterator[list[str]]:
    """Hold the folder's lock while capturing into it; yields the notes of a lock left by a killed capture.

    Two captures of one folder would each load every page and write over each other's capture.json, so the
    second is refused at once (`owner_files`: the system lets one process hold the lock)."""
    try:
        lock = owner_files.take(root / LOCK_FILE)
    except owner_files.Held as held:
        raise _busy(root, held.owner) from None
    except OSError as error:  # a file system without locks (some network mounts): capture, but say so
        yield [f"the folder's lock cannot be taken ({error.strerror or error}): a second capture of it would not be "
               "refused"]
        return
    try:
        yield owner_files.taken_over(lock, "a capture of this folder")
    finally:
        owner_files.release(lock)


def check_not_capturing(folder: str | Path) -> None:
    """Refuse a folder that a running capture holds, before Chromium starts (`capture_site` takes the lock)."""
    owner = owner_files.holder(Path(folder) / LOCK_FILE)
    if owner is not False:
        raise _busy(Path(folder), owner)


def _busy(root: Path, owner: tuple[str, int] | None) -> CaptureError:
    who = owner_files.owner_named(owner)
    return CaptureError(f"{hint_path(root)} is being captured by {who} right now: wait for it to end (or stop it), "
                        "then run this again to continue where it stopped; two captures of one folder would load "
                        "every page twice")


def _try_again(state: _State, root: Path, rules: CaptureRules, retried: set[str], *,
               ask_again: bool = False) -> list[str]:
    """A capture run again tries the pages that failed last time (a server that was down, a page slower than the
    --timeout then), after the pages still queued, so that the same old failures cannot stop every run before
    it gets further (their keys go into `retried`), and captures again first those whose saved files are gone
    from the folder. The site's final answers (dead links, links to no page) are asked for again only with
    `ask_again`, after the failures. Said in the notes."""
    failed = [(key, o) for key, o in state.outcomes.items() if o.get("outcome") == "failed"]
    finals = {outcome: [(key, o) for key, o in state.outcomes.items() if o.get("outcome") == outcome]
              for outcome in FINAL_OUTCOMES} if ask_again else {}
    again = [found for outcome in finals.values() for found in outcome]
    missing = [(key, o) for key, o in state.outcomes.items() if o.get("outcome") == "saved"
               and not all(f.is_file() for f in [root / str(o.get("file", "")),
                                                 *side_files(root / str(o.get("file", ""))).values()])]
    retried.update(key for key, _ in [*failed, *again])
    _queue_again(state, missing, rules.depth, first=True)
    _queue_again(state, [*failed, *again], rules.depth, first=False)
    notes = []
    if failed:
        notes.append(f"{len(failed)} page(s) that failed last time are tried again")
    notes += [f"{len(found)} {FINAL_OUTCOMES[outcome]} of before are asked for again (--ask-again)"
              for outcome, found in finals.items() if found]
    if missing:
        notes.append(f"{len(missing)} page(s) saved before whose files are gone from the folder are captured again")
    return notes


def _queue_again(state: _State, settled: list[tuple[str, dict[str, Any]]], max_depth: int, *, first: bool) -> None:
    """Put URLs settled in an earlier run (skipped, failed, a final answer, saved but deleted) back in the queue,
    in the order they were met: first, or after what is queued. A URL whose depth was not recorded (an older
    capture.json, a saved page) is queued at `max_depth`, so that it follows no links: never past --depth."""
    for key, _ in settled:
        del state.outcomes[key]
    queued = [[str(o["url"]), int(o.get("depth", max_depth))] for _, o in settled]
    if first:
        state.queue[:0] = queued
    else:
        state.queue.extend(queued)


def _saved_links(page_file: Path, url: str) -> list[str]:
    """The links (a and area hrefs) of a saved page, resolved against its URL, and its GET forms (`form_targets`):
    what the renderer and the crawl follow on a live page. A link that is no URL is not followed, as on a live page
    (`_unseen`)."""
    from ..page.dataset import parse_snapshot
    from ..page.snapshot import read_snapshot

    try:
        snapshot = read_snapshot(page_file)
        page = parse_snapshot(snapshot)
    except (RecordLensError, OSError, ValueError):
        return []
    body = page.body
    elements = list(body.iter()) if body is not None else []
    links = [_resolved(url, str(e.attrs["href"])) for e in elements if e.tag in ("a", "area") and e.attrs.get("href")]
    return [target for target in links if target is not None] + form_targets(snapshot, url, page=page)


def form_targets(snapshot: Snapshot, url: str, *, page: Page | None = None) -> list[str]:
    """Where the GET forms of a captured page (its document at `url`, and the documents of its frames of the same
    origin that the snapshot holds) go, each submitted by a click on its default button with its default values
    (hidden fields kept by the capture included): forms.py's `default_submission`, the very code with which the
    site's browsers submit that click offline, so that what the capture follows is what the agent reaches. Read from
    the saved snapshot, not the live page: a value a script gave a field that the snapshot does not keep is not
    sent offline either."""
    from ..page.dataset import parse_snapshot

    if page is None:  # `page`: the snapshot parsed already by the caller
        try:
            page = parse_snapshot(snapshot)
        except (RecordLensError, ValueError):
            return []
    return _document_forms(snapshot, page, url, origin_of(url), ())


def _document_forms(snapshot: Snapshot, page: Page, url: str, origin: str, ancestors: tuple[str, ...]) -> list[str]:
    """`form_targets` of one document shown at `url`, then of its frames of `origin` (each document once on the
    way down: a frame that shows a frame around it is not read again)."""
    from ..page.dataset import parse_html
    from ..page.frames import FRAME_TAGS, frame_document
    from .forms import FormControls, base_url_of

    controls, base = FormControls(page), base_url_of(page, url)
    targets = [controls.default_submission(e, document_url=url, base_url=base) for e in page.elements
               if e.tag == "form"]
    found = [target for target in targets if target is not None]
    for element in page.elements:
        document = frame_document(snapshot, element, base) if element.tag in FRAME_TAGS else None
        if document is None or origin_of(document.url) != origin or document.source in ancestors:
            continue
        try:
            frame = parse_html(document.html, mhtml=snapshot.kind == "mhtml")
        except RecordLensError:
            continue
        found += _document_forms(snapshot, frame, document.url, origin, (*ancestors, document.source or url))
    return found


def _resolved(url: str, href: str) -> str | None:
    """`href` resolved against `url`; None for an href that is no URL ("http://[x/": brackets holding no host)."""
    try:
        return urljoin(url, href)
    except ValueError:
        return None


def _keep(page: RenderedPage, url: str, depth: int, max_depth: int, root: Path, state: _State,
          summary: CaptureSummary, follows: Callable[[str], bool] = lambda _: True) -> str:
    """Write one rendered page (its side files, then the MHTML) and queue its links. `follows(link)`: whether the
    rules would follow a link, so that the links beyond --depth are counted as a larger --depth would follow
    them."""
    key = normalise_url(url)
    final_key = normalise_url(page.final_url)
    for hop in page.redirects:
        state.seen.add(normalise_url(str(hop.get("url") or url)))
    already = next((o for k, o in state.outcomes.items()
                    if o.get("outcome") == "saved" and normalise_url(o.get("final_url", "")) == final_key
                    and k != key), None)
    if already is not None:
        state.outcomes[key] = {"url": url, "outcome": "duplicate", "final_url": page.final_url,
                               "reason": f"redirects to {page.final_url}, saved already"}
        summary.duplicates.append((url, page.final_url))
        _alias(root / str(already.get("file", "")), [url, *(str(h.get("url") or "") for h in page.redirects)])
        return f"{url} redirects to {page.final_url}, saved already"
    state.seen.add(final_key)
    snapshot = _rendered_snapshot(page)
    html = page_document(snapshot) if snapshot is not None else None
    shape = page_shape(html) if html is not None else ""
    # The same document under another URL (/about, /About, a session id in the query), reaching the same pages: an
    # alias of the page saved, as a redirect is; not a page more (nor one counted against --max-pages), and its
    # links, the saved page's, are not followed again (a link to it shows the saved page, at the saved page's URL).
    # Its "digest" is its shape (page_twins), which finds the saved pages to compare it with. A page saved by a
    # capture.json of before has no digest, or one of another kind, never a shape: never a twin.
    twin = next((o for o in state.outcomes.values() if o.get("outcome") == "saved" and o.get("digest") == shape
                 and _same_as_saved(page, str(html), o, state, root)), None) if shape else None
    if twin is not None:
        saved_as = str(twin.get("final_url") or twin.get("url"))
        state.outcomes[key] = {"url": url, "outcome": "duplicate", "final_url": saved_as, "depth": depth,
                               "reason": f"the same content as {saved_as}, saved already"}
        summary.same_content.append((url, saved_as))
        _alias(root / str(twin.get("file", "")),
               [url, *(str(h.get("url") or "") for h in page.redirects), page.final_url])
        return f"{url} has the same content as {saved_as}, saved already: kept as its alias"
    target = root / PAGES_FOLDER / f"{_free_stem(page.final_url, state)}.mhtml"
    files = side_files(target)
    tree = axtree.compact_tree(page.ax_nodes, page.dom, page.final_url)
    meta = {
        "requested_url": page.requested_url, "final_url": page.final_url, "status": page.status,
        "redirects": page.redirects, "content_type": page.content_type, "title": page.title,
        "captured_at": datetime.now(UTC).isoformat(timespec="seconds"), "engine": page.engine,
        "viewport": list(page.viewport), "screenshot_size": list(page.screenshot_size),
        "page_height": page.page_height or None, "screenshot_cut": page.page_height > page.screenshot_size[1],
        # (where it was cut: its first screenshot_cut_at px, the rest of the page is in no screenshot)
        **({"screenshot_cut_at": page.screenshot_size[1]} if page.page_height > page.screenshot_size[1] else {}),
        "depth": depth, **({"warnings": list(page.warnings)} if page.warnings else {}),
        "sha256": {"mhtml": _sha256(page.mhtml), "screenshot": _sha256(page.screenshot),
                   "axtree": _sha256(json.dumps(tree, sort_keys=True).encode("utf-8"))},
        "files": {"mhtml": target.name, **{k: p.name for k, p in files.items()}},
    }
    atomic.write_bytes(files["screenshot"], page.screenshot)
    axtree.write_tree(files["axtree"], tree)
    atomic.write_text(files["meta"], json.dumps(meta, ensure_ascii=False, indent=1) + "\n")
    atomic.write_bytes(target, page.mhtml)  # last: the page exists only once everything else does
    relative = target.relative_to(root).as_posix()
    state.outcomes[key] = {"url": url, "outcome": "saved", "final_url": page.final_url, "file": relative,
                           "status": page.status, **({"digest": shape} if shape else {})}
    summary.saved.append(page.final_url)
    links = [*page.links, *(form_targets(snapshot, page.final_url) if snapshot is not None else [])]
    if depth < max_depth:
        _enqueue(links, depth + 1, state)
    else:  # counted once the run ends (`_State.beyond_depth`): a URL many pages link to is one page more
        state.beyond.update({key: link for link, key in _unseen(links, state).items() if follows(link)})
    return f"saved {page.final_url} as {hint_path(relative)}"


def _free_stem(url: str, state: _State) -> str:
    """The file stem for the page saved from `url`, apart from every other URL's page saved in this capture
    (compared without case: a disk may ignore it)."""
    key = normalise_url(url)
    owners = {str(o.get("file", "")).lower(): normalise_url(str(o.get("final_url") or o.get("url")))
              for o in state.outcomes.values() if o.get("outcome") == "saved"}

    def taken(name: str) -> bool:
        return owners.get(f"{PAGES_FOLDER}/{name}".lower(), key) != key

    return free_site_file_name(url, taken).removesuffix(SAVED_SUFFIX)


def _alias(page_file: Path, urls: Iterable[str]) -> None:
    """Note in a saved page's meta.json the URLs found later to redirect to it, so that the site's index sends a
    link to any of them to the page (as it does for the redirects of the page's own capture)."""
    meta = side_files(page_file)["meta"]
    try:
        data = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    aliases = [str(a) for a in data.get("aliases") or []]
    aliases += [u for u in dict.fromkeys(urls) if u and u not in aliases]
    if aliases != data.get("aliases"):
        data["aliases"] = aliases
        atomic.write_text(meta, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def _enqueue(links: Iterable[str], depth: int, state: _State) -> None:
    """Queue the links not seen before (the rules are applied when each comes to the front of the queue)."""
    for link, key in _unseen(links, state).items():
        state.seen.add(key)
        state.queue.append([link, depth])


def _keyed(links: Iterable[str]) -> dict[str, str]:
    """Links by their normalised URL (one that is no URL, which nothing can match, left out)."""
    keyed: dict[str, str] = {}
    for link in links:
        with contextlib.suppress(ValueError):
            keyed[normalise_url(link)] = link
    return keyed


def _unseen(links: Iterable[str], state: _State) -> dict[str, str]:
    """The http(s) links not seen before (fragment dropped), each once: link -> its normalised URL."""
    found: dict[str, str] = {}
    keys: set[str] = set()
    for link in links:
        try:  # a link that is no URL ("http://[x/", which a browser gives as written) is not followed
            link = urldefrag(link.strip())[0]
            if off_the_web(link):
                continue
            key = normalise_url(link)
        except ValueError:
            continue
        if key not in state.seen and key not in keys:
            found[link] = key
            keys.add(key)
    return found


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _rendered_snapshot(page: RenderedPage) -> Snapshot | None:
    """A rendered page's MHTML read once (its main document's HTML, whose shape finds its copies: the MHTML's own
    headers carry the URL and the time, so they differ between any two; and its forms), or None when it cannot be
    read."""
    from ..page.snapshot import read_snapshot

    try:
        return read_snapshot(page.mhtml)
    except (RecordLensError, ValueError):
        return None


def _same_as_saved(page: RenderedPage, html: str, saved: dict[str, Any], state: _State, root: Path) -> bool:
    """Whether the page rendered is the page `saved` under another address (page_twins.same_page), the saved copy
    read from its file: one gone, unreadable or named outside the folder is no twin."""
    from ..page.snapshot import read_snapshot

    file = str(saved.get("file", ""))
    if not inside_site(root, file):
        return False
    try:
        saved_html = page_document(read_snapshot(root / file))
    except (RecordLensError, OSError, ValueError):
        return False
    saved_at = str(saved.get("final_url") or saved.get("url"))
    known = tuple(str(o.get("url") or "") for o in state.outcomes.values()  # its URL, its redirects', its aliases'
                  if link_key(str(o.get("final_url") or "")) == link_key(saved_at))
    hops = tuple(str(h.get("url") or "") for h in page.redirects)
    return same_page(PageCopy(html, page.final_url, (page.requested_url, *hops)),
                     PageCopy(saved_html, saved_at, known))


# -- who renders ------------------------------------------------------------------------------------------------

# The app registers its Chromium capture (recordlens.annotator.cli) so that core names no module of the app.
CaptureRunner = Callable[..., CaptureSummary]
_RUNNERS: dict[str, CaptureRunner] = {}


def register_capture_runner(runner: CaptureRunner) -> None:
    """`runner(roots, folder, rules, *, viewport, scripts, timeout_s, progress, refresh) -> CaptureSummary`."""
    _RUNNERS["chromium"] = runner


def capture_runner() -> CaptureRunner:
    try:
        return _RUNNERS["chromium"]
    except KeyError:
        raise CaptureError("capturing needs the app's Chromium: install recordlens with its `app` extra and use "
                           "the installed `recordlens` command") from None
