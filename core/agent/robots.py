"""robots.txt as RFC 9309 reads it, for `site capture` (user agent "RecordLens").

The rules of the group for our user agent apply (every group that names "RecordLens", joined; else every group of
`*`; else none). Of the rules whose path pattern matches the start of a URL's path and query, the longest pattern
wins, and of two as long, Allow wins; `*` matches any run of characters and a final `$` the end of the URL
(stdlib's `urllib.robotparser` takes the first matching line in file order and reads `*` literally, so "Allow: /"
written first would allow every page the site disallows). `/robots.txt` itself is always allowed.

What the fetch of robots.txt answers decides the rest (RFC 9309 §2.3.1):
  - 2xx: its rules;
  - 4xx (none there, or forbidden): everything allowed;
  - 5xx, a network error, or no answer within the page `--timeout`: the file is "unreachable", and everything
    is disallowed: a server that is failing or overloaded is not crawled at full speed. Each page of that host
    then fails (it is tried again when the capture runs again), with that reason and how to go on; and a note
    says it once per host.
  - 3xx: followed (§2.3.1.2: at least five in a row), but only over http(s) and within the site (`same_site`:
    http→https, `www.`, a subdomain), as the capture's own redirects are: a robots.txt is never fetched from another
    host, port or scheme (an ftp:// or file:// address would be reached by other means than HTTP, and another
    port is another server). One that leads elsewhere is not followed, and read as one that cannot be fetched
    (everything disallowed, said with where it led: --ignore-robots captures the site all the same); more than
    `MAX_REDIRECTS` in a row, or a redirect with no address, is read as no robots.txt there (§2.3.1.2 allows it:
    "unavailable", everything allowed), said in a note.
`Crawl-delay` (not in RFC 9309, but widely written) is read from the same group, for the crawl to wait between
pages (within a bound it sets).

The fetch is made in a thread of its own, so that it is bounded by the page `--timeout` and a Ctrl+C (`cancelled`)
ends the wait at once.
"""

from __future__ import annotations

import http.client
import re
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import Message
from typing import IO
from urllib.parse import quote, urljoin, urlsplit

from ..deadline_calls import DeadlinePassed, WaitCancelled, call_within
from .sites import DEFAULT_PORTS

USER_AGENT = "RecordLens"
ROBOTS_TIMEOUT_S = 20.0   # a robots.txt fetch's bound when none is given (the capture gives its --timeout)
MAX_ROBOTS_BYTES = 500 * 1024  # RFC 9309 §2.5: at least 500 KiB must be read; what follows is ignored
_POLL_S = 0.05            # how often a fetch in progress checks for a Ctrl+C
MAX_REDIRECTS = 5         # RFC 9309 §2.3.1.2: at least five followed; after more, the file may be taken as unavailable
WEB_SCHEMES = ("http", "https")  # what a capture loads, robots.txt included

Fetch = Callable[[str], tuple[int, str]]


class RobotsCancelled(Exception):  # noqa: N818 - a stop asked for, not an error
    """The capture was cancelled while a robots.txt was being fetched."""


class RedirectRefused(urllib.error.URLError):
    """A robots.txt that redirects off http(s) or off its site: not followed (module notes). Its server answered."""


class TooManyRedirects(urllib.error.URLError):
    """A robots.txt that still redirects after MAX_REDIRECTS in a row: read as none there. Its server answered."""


@dataclass
class _Rule:
    allow: bool
    pattern: str        # as written, percent-encoded alike (`_encoded`)
    matcher: re.Pattern[str]


@dataclass
class RobotsFile:
    """The rules of one robots.txt that apply to our user agent."""

    rules: list[_Rule] = field(default_factory=list)
    crawl_delay: float | None = None

    def allowed(self, url: str) -> bool:
        parts = urlsplit(url)
        target = _encoded((parts.path or "/") + (f"?{parts.query}" if parts.query else ""))
        if target == "/robots.txt":
            return True
        best: _Rule | None = None
        for rule in self.rules:
            if rule.matcher.match(target) and (best is None or _stronger(rule, best)):
                best = rule
        return best is None or best.allow


def _stronger(rule: _Rule, other: _Rule) -> bool:
    """Whether `rule` beats `other`, both matching: the longer pattern, and of two as long the Allow."""
    return len(rule.pattern) > len(other.pattern) or (len(rule.pattern) == len(other.pattern) and rule.allow
                                                      and not other.allow)


def parse_robots(text: str, agent: str = USER_AGENT) -> RobotsFile:
    """The rules of `text` for `agent`: its own groups joined, else the `*` groups joined (RFC 9309 §2.2.1)."""
    groups: list[tuple[list[str], list[tuple[str, str]]]] = []
    agents: list[str] = []
    lines: list[tuple[str, str]] = []
    for raw in text.removeprefix("\ufeff").splitlines():  # a byte order mark is no part of the first line's name
        name, sep, value = raw.split("#", 1)[0].partition(":")
        if not sep:
            continue
        name, value = name.strip().lower(), value.strip()
        if name == "user-agent":
            if lines:  # a user-agent line after rules starts another group
                groups.append((agents, lines))
                agents, lines = [], []
            agents.append(value.split("/")[0].strip().lower())
        elif agents and name in ("allow", "disallow", "crawl-delay"):
            lines.append((name, value))
    if agents:
        groups.append((agents, lines))
    own = [lines for names, lines in groups if agent.lower() in names]
    chosen = own or [lines for names, lines in groups if "*" in names]
    found = RobotsFile()
    for name, value in (line for lines in chosen for line in lines):
        if name == "crawl-delay":
            found.crawl_delay = _seconds(value) if found.crawl_delay is None else found.crawl_delay
        elif value:  # an empty Disallow disallows nothing, an empty Allow allows nothing more
            pattern = _encoded(value if value.startswith(("/", "*")) else "/" + value)
            found.rules.append(_Rule(name == "allow", pattern, _matcher(pattern)))
    return found


def _seconds(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value >= 0 else None


def _matcher(pattern: str) -> re.Pattern[str]:
    """`*`: any run of characters; `$` at the end: the URL ends there; matched from the path's start."""
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    return re.compile(".*".join(re.escape(piece) for piece in body.split("*")) + (r"\Z" if anchored else ""))


_ESCAPE = re.compile(r"%[0-9a-fA-F]{2}")


def _encoded(text: str) -> str:
    """Paths and patterns compared alike: non-ASCII characters percent-encoded (UTF-8), escapes in upper case, and
    an escaped unreserved character (`%7E`, `%41`) written as itself, as RFC 9309 §2.2.2 compares them."""
    return _ESCAPE.sub(_escape_read, quote(text, safe="/?*$=&;:@!'(),+~%-._[]"))


def _escape_read(found: re.Match[str]) -> str:
    character = chr(int(found.group(0)[1:], 16))
    return character if character in _UNRESERVED else found.group(0).upper()


_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


class Robots:
    """robots.txt per origin, fetched once (module notes): `allowed(url)`, `unreachable(url)` (why its robots.txt
    could not be read, which disallows everything), `crawl_delay(url)`; `notes` say once per host what the
    capture should know (a robots.txt unreachable)."""

    def __init__(self, fetch: Fetch | None = None, *, timeout_s: float = ROBOTS_TIMEOUT_S,
                 cancelled: Callable[[], bool] = lambda: False) -> None:
        self._fetch = fetch or (lambda url: fetch_text(url, timeout_s))
        self.timeout_s = timeout_s
        self.cancelled = cancelled
        self._files: dict[str, RobotsFile | str] = {}  # origin -> its rules, or why it is unreachable
        self.notes: list[str] = []

    def allowed(self, url: str, *, cancellable: bool = True, fetch: bool = True) -> bool:
        """Whether `url` may be loaded. `fetch` False: a host whose robots.txt was not read yet is not asked (and
        taken as allowing it); `cancellable` False: a Ctrl+C does not end the fetch's wait (it is made where an
        exception cannot stop the capture: a renderer's check of a redirect)."""
        found = self._file(url, cancellable, fetch)
        return found is None or (isinstance(found, RobotsFile) and found.allowed(url))

    def unreachable(self, url: str, *, cancellable: bool = True, fetch: bool = True) -> str:
        """Why the robots.txt of `url`'s host could not be read ("" when it could, or was not read and `fetch` is
        False): every page of it is refused."""
        found = self._file(url, cancellable, fetch)
        return found if isinstance(found, str) else ""

    def crawl_delay(self, url: str) -> float | None:
        """The `Crawl-delay` of `url`'s host for us, once its robots.txt was read (None: none, or not read)."""
        found = self._files.get(origin_of(url))
        return found.crawl_delay if isinstance(found, RobotsFile) else None

    def answers(self, url: str) -> bool:
        """Whether `url`'s server answers at all now (any HTTP status of its robots.txt, fetched again, a redirect
        not followed too): a site whose pages time out but that answers is slow on those pages, not down."""
        try:
            self._fetched(origin_of(url) + "/robots.txt", True)
        except (RedirectRefused, TooManyRedirects):
            return True
        except OSError:
            return False
        return True

    def _file(self, url: str, cancellable: bool, fetch: bool = True) -> RobotsFile | str | None:
        origin = origin_of(url)
        if origin not in self._files:
            if not fetch:
                return None
            self._files[origin] = self._load(origin, cancellable)
        return self._files[origin]

    def _load(self, origin: str, cancellable: bool) -> RobotsFile | str:
        address = origin + "/robots.txt"
        try:
            status, text = self._fetched(address, cancellable)
        except RedirectRefused as error:
            return self._led_elsewhere(address, str(error.reason))
        except TooManyRedirects as error:
            return self._unavailable(address, str(error.reason))
        except OSError as error:
            return self._unreachable(address, _said(error))
        if 300 <= status < 400:  # a redirect with no address to go on to
            return self._unavailable(address, f"HTTP {status} with no address to go on to")
        if 400 <= status < 500:  # none there (or forbidden): everything allowed (RFC 9309 §2.3.1.3)
            return RobotsFile()
        if status >= 500 or status < 200:
            return self._unreachable(address, f"HTTP {status}")
        return parse_robots(text)

    def _fetched(self, address: str, cancellable: bool) -> tuple[int, str]:
        """The fetch, in a thread, waited for at most `timeout_s` (and a little: its own socket timeout ends it
        first), and given up at once when cancelled."""
        try:
            return call_within(lambda: self._fetch(address), timeout_s=self.timeout_s + 1.0,
                               cancelled=self.cancelled if cancellable else None, poll_s=_POLL_S, name="robots.txt")
        except WaitCancelled:
            raise RobotsCancelled(address) from None
        except DeadlinePassed:
            raise TimeoutError(f"no answer within {self.timeout_s:g} s") from None

    def _unavailable(self, address: str, why: str) -> RobotsFile:
        """No rules for a host whose robots.txt redirects and leads to no file, as for one that is not there (4xx):
        RFC 9309 §2.3.1.2 lets a crawler read it so. Said in a note, unlike a 4xx: the site may mean a file."""
        self.notes.append(f"{address} leads to no robots.txt ({why}): read as none there, as RFC 9309 allows, so "
                          "every page of its host may be loaded")
        return RobotsFile()

    def _led_elsewhere(self, address: str, why: str) -> str:
        """The reason every page of a host whose robots.txt redirects where it is not followed is refused (said in a
        note too): its rules are unknown, so it is read as one that cannot be fetched, and no run changes that."""
        self.notes.append(f"{address} could not be read ({why}): no page of its host was loaded (it is read as RFC "
                          "9309 reads a robots.txt that cannot be fetched, as disallowing everything); give "
                          "--ignore-robots to capture them")
        return (f"its host's robots.txt could not be read ({why}), which is read as RFC 9309 reads one that cannot "
                "be fetched, as disallowing every page: give --ignore-robots to capture them")

    def _unreachable(self, address: str, why: str) -> str:
        reason = (f"its host's robots.txt could not be fetched ({why}), which RFC 9309 reads as disallowing every "
                  "page: run the same command again when it answers (these pages are tried again), or give "
                  "--ignore-robots")
        self.notes.append(f"{address} could not be fetched ({why}): no page of its host was loaded (RFC 9309 reads "
                          "an unreachable robots.txt as disallowing everything); run the same command again when "
                          "it answers, or give --ignore-robots")
        return reason


def fetch_text(url: str, timeout_s: float = ROBOTS_TIMEOUT_S) -> tuple[int, str]:
    """GET `url` as RecordLens over http(s) only, its redirects followed within its site (`_SiteRedirects`):
    (status, its text); an HTTP error's status with no text. A redirect not followed raises RedirectRefused, one
    too many TooManyRedirects."""
    if urlsplit(url).scheme.lower() not in WEB_SCHEMES:
        raise urllib.error.URLError(f"{url} is not an http(s) address")
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with _opener(url).open(request, timeout=timeout_s) as response:
            return response.status, response.read(MAX_ROBOTS_BYTES).decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, ""
    except http.client.HTTPException as error:  # no HTTP answer (a garbled status line): as a network error
        raise OSError(f"no valid HTTP answer ({type(error).__name__})") from None


def _opener(url: str) -> urllib.request.OpenerDirector:
    """urllib's opener for HTTP and HTTPS alone (no ftp:, file: or data: handler, which its default opener has), its
    redirects followed only within `url`'s site."""
    opener = urllib.request.OpenerDirector()
    for handler in (urllib.request.ProxyHandler(), urllib.request.UnknownHandler(), urllib.request.HTTPHandler(),
                    urllib.request.HTTPSHandler(), urllib.request.HTTPDefaultErrorHandler(), _SiteRedirects(url),
                    urllib.request.HTTPErrorProcessor()):
        opener.add_handler(handler)
    return opener


class _SiteRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a robots.txt's redirects while they stay on http(s) of its site (`same_site`), MAX_REDIRECTS in a
    row at most; checked before each is followed, so that no other host, port or scheme is ever reached."""

    max_redirections = MAX_REDIRECTS + 1  # (urllib's own count, past ours: ours says it first)

    def __init__(self, first: str) -> None:
        super().__init__()
        self.first = first
        self.followed = 0

    def http_error_302(self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str,
                       headers: Message) -> object:
        location = headers.get("location") or headers.get("uri")
        if location:  # (none: urllib gives the 3xx as the answer)
            target = urljoin(req.full_url, location.strip())
            if urlsplit(target).scheme.lower() not in WEB_SCHEMES:
                raise RedirectRefused(f"it redirects to {target}, which is not followed: only http(s) is")
            if not _stays_on_site(self.first, target):
                raise RedirectRefused(f"it redirects to {target}, another site, which is not followed")
            self.followed += 1
            if self.followed > MAX_REDIRECTS:
                raise TooManyRedirects(f"it redirects more than {MAX_REDIRECTS} times in a row")
        return super().http_error_302(req, fp, code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302


def _stays_on_site(url: str, target: str) -> bool:
    try:
        return same_site(url, target)
    except ValueError:  # a port that is no number: no address to follow
        return False


def same_site(url: str, other: str) -> bool:
    """Whether two URLs' hosts are one site: on the same port, the same host name, one a subdomain of the other, or
    the same once a leading "www." is dropped. Sibling subdomains are not (two customers of one hosting service),
    nor are two ports of one host (two servers, as a browser's origin has it: 127.0.0.1:8000 and :8001 are two
    sites, as a link between them is "another host"); each scheme's own port is one (http://site to https://www.)."""
    def host(u: str) -> tuple[str, int | None]:
        parts = urlsplit(u.strip())  # its hostname is lower-cased, an IPv6 address's without its brackets
        port = parts.port  # a port that is not a number raises ValueError: no valid address
        port = None if port == DEFAULT_PORTS.get(parts.scheme.lower()) else port  # the scheme's own: no port
        return (parts.hostname or "").rstrip(".").removeprefix("www."), port
    (a, port), (b, other_port) = host(url), host(other)
    return bool(a) and port == other_port and (a == b or a.endswith("." + b) or b.endswith("." + a))


def _said(error: OSError) -> str:
    if isinstance(error, TimeoutError) or "timed out" in str(error):
        return "timed out" if not str(error) or str(error) == "timed out" else str(error)
    reason = getattr(error, "reason", None)
    return str(reason or error)


def origin_of(url: str) -> str:
    """The scheme and host (with its port) of `url`, in lower case: what one robots.txt, and one site's frames,
    are of."""
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


