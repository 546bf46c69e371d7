"""Snapshot sites: a folder of saved pages (MHTML, or HTML with a "saved from" URL) indexed by the URL each page
was saved from, so that following a link means finding the saved page for its URL.

URLs are compared after `normalise_url`:
  - the fragment (#...) is dropped: it names a place on a page, not a page;
  - scheme and host are lower-cased; the default port goes (:80 for http, :443 for https); an IPv6 host keeps
    its brackets (http://[::1]:8000/);
  - an empty path is "/"; a trailing slash is kept (/dir and /dir/ can be two pages, and a relative link on each
    means another page), but a link finds the page saved with or without it when the site holds only one
    (`loose_url`: most servers send /dir to /dir/), and two URLs that differ only so are one page to an agent's
    evaluation;
  - percent-escapes are decoded where they stand for unreserved characters (%7E = ~) and upper-cased elsewhere
    (%2f = %2F); a space is %20 in the path;
  - the query is kept, in its order: it tells search pages apart. Its escapes are normalised as form data, so a
    space written + or %20 is the same, `?flag` is `?flag=`, and `?` with nothing after it is no query.
The scheme is kept: an http link does not reach a page saved from https.

`site.json` (written by `recordlens site build DIR`) holds the index: url -> file (relative) and title, and for a
captured page (`recordlens site capture`) the files kept beside it: `axtree` (Chromium's accessibility tree),
`screenshot` (the full-page PNG) and `meta` (URLs, status, redirects, time, hashes, engine, viewport). For a
captured site, `start` is the URL its capture began from (the first root in `capture.json`): the page the site
opens on (`Site.start_url`).
"""

from __future__ import annotations

import contextlib
import html as html_escape
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, quote_plus, urlsplit, urlunsplit

from .. import atomic
from ..command_hints import hint_path
from ..errors import AgentError, SnapshotError, system_words
from ..file_kinds import not_a_page_file, read_regular_file, unreadable_kind
from ..page.dataset import PAGE_SUFFIXES
from ..page.snapshot import DEFAULT_URL, read_snapshot
from ..resource_files import is_shipped, never_changed

INDEX_FILE = "site.json"
CAPTURE_STATE_FILE = "capture.json"  # a capture's state (core/agent/capture.py); its first root is the site's start
# What was replaced is kept in the folder's removed/, as `site capture --refresh` keeps the old capture: not pages
# of the site. The name is the project's (core/store/removed_files.REMOVED), written out here because importing
# the store would double the time `import recordlens.core.agent` takes.
SET_ASIDE_FOLDER = "removed"
DEFAULT_PORTS = {"http": 80, "https": 443}
_PATH_SAFE = "/:@!$&'()*+,;=-._~"
NOT_IN_SNAPSHOT_TITLE = "Not in this snapshot"
# The files a capture keeps beside NAME.mhtml, by kind: NAME.axtree.json, NAME.png, NAME.meta.json.
SIDE_SUFFIXES = {"axtree": ".axtree.json", "screenshot": ".png", "meta": ".meta.json"}


class SiteError(AgentError):
    """A snapshot site folder that cannot be read or indexed."""


@dataclass(frozen=True)
class SitePage:
    url: str     # as saved
    file: str    # relative to the site folder, with forward slashes
    title: str = ""
    # Files kept beside a captured page (kind -> relative path), see SIDE_SUFFIXES; empty for a hand-made page.
    side: tuple[tuple[str, str], ...] = ()
    # URLs that redirected to this page when it was captured (its meta.json): a link to one of them reaches it.
    aliases: tuple[str, ...] = ()

    def side_file(self, kind: str) -> str | None:
        return dict(self.side).get(kind)

    def as_dict(self) -> dict[str, object]:
        return {"url": self.url, "file": self.file, "title": self.title, **dict(self.side),
                **({"aliases": list(self.aliases)} if self.aliases else {})}


def side_files(page: Path) -> dict[str, Path]:
    """Where a capture keeps the files of the page saved at `page` (by kind), whether they exist or not."""
    return {kind: page.with_name(page.stem + suffix) for kind, suffix in SIDE_SUFFIXES.items()}


@dataclass
class Site:
    root: Path
    name: str
    pages: list[SitePage]
    warnings: list[str] = field(default_factory=list)
    start: str = ""  # the URL the site's capture began from ("" for a site made by hand)

    def __post_init__(self) -> None:
        self._by_url = {normalise_url(p.url): p for p in self.pages}
        for page in self.pages:  # a redirect's source never hides a page saved from that very URL
            for alias in page.aliases:
                with contextlib.suppress(ValueError):
                    self._by_url.setdefault(normalise_url(alias), page)
        self._by_loose: dict[str, SitePage] = {}
        for key, page in self._by_url.items():  # /dir finds /dir/ (or /dir/ finds /dir) when only one is there
            self._by_loose.setdefault(loose_url(key), page)

    def page(self, url: str, *, exact: bool = False) -> SitePage | None:
        """The page saved from `url` (or reached by it through a redirect); unless `exact`, the one saved with or
        without its trailing slash when the site holds only one of the two."""
        try:
            key = normalise_url(url)
            return self._by_url.get(key) or (None if exact else self._by_loose.get(loose_url(key)))
        except ValueError:
            return None

    def saved_beside(self, url: str) -> list[str]:
        """The URLs of the saved pages at `url`'s address but for their query, `url` not among them: the searches
        a capture saved, for a search it did not (a GET form's other queries). A static snapshot answers only the
        queries saved; the "not in this snapshot" page names them, so that whoever typed another one knows which
        it holds."""
        try:
            key = urlsplit(normalise_url(url))
        except ValueError:
            return []
        beside = []
        for page in self.pages:
            with contextlib.suppress(ValueError):
                saved = urlsplit(normalise_url(page.url))
                if saved._replace(query="") == key._replace(query="") and saved.query != key.query:
                    beside.append(page.url)
        return sorted(beside)

    def resolve(self, url: str) -> Path | None:
        """The saved page for a URL, or None when the snapshot does not have it (or names a file outside)."""
        page = self.page(url)
        return self.root / page.file if page and inside_site(self.root, page.file) else None

    def start_url(self) -> str | None:
        """The page the site opens on: the one its capture began from (a root that redirected reaches the page it
        led to), else the first by URL; None for a site without pages."""
        page = self.page(self.start) if self.start else None
        if page is None and self.pages:
            page = self.pages[0]
        return page.url if page is not None else None

    def as_dict(self) -> dict[str, object]:
        return {"name": self.name, **({"start": self.start} if self.start else {}),
                "pages": [p.as_dict() for p in self.pages]}


def normalise_url(url: str) -> str:
    """The form two URLs are compared in (the module's notes say what it keeps and drops)."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    port = parts.port  # raises ValueError for a port that is not a number
    netloc = f"[{host}]" if ":" in host else host  # an IPv6 address keeps its brackets: its port is told apart
    if parts.username or parts.password:
        netloc = f"{parts.username or ''}{':' + parts.password if parts.password else ''}@{netloc}"
    if port is not None and port != DEFAULT_PORTS.get(scheme):
        netloc += f":{port}"
    path = quote(_ESCAPE.sub(_normal_escape, parts.path), safe=_PATH_SAFE + "%") or "/"
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = "&".join(f"{quote_plus(k)}={quote_plus(v)}" for k, v in pairs)
    return urlunsplit((scheme, netloc, path, query, ""))


def loose_url(url: str) -> str:
    """`normalise_url` with a trailing slash dropped from any path but "/": the form in which /dir and /dir/ are
    one page, where a site holds only one of them or an agent's end state is compared with a reference's."""
    key = normalise_url(url)
    parts = urlsplit(key)
    if len(parts.path) <= 1 or not parts.path.endswith("/"):
        return key
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") or "/"))


_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def _normal_escape(match: re.Match[str]) -> str:
    char = chr(int(match.group(0)[1:], 16))
    return char if char in _UNRESERVED else match.group(0).upper()


def build_site(folder: str | Path, *, write: bool = True) -> Site:
    """Index every saved page below `folder` by its saved URL; write `folder/site.json` unless `write` is False (a
    folder inside the files RecordLens ships, the demo site, is refused then: they are never written).

    A page without a saved URL, or one that cannot be read, is left out with a warning; of two pages saved from
    the same URL, the first in path order is kept."""
    root = Path(folder)
    if not root.is_dir():
        raise SiteError(f"{hint_path(root)} is a file: a snapshot site is a folder of saved pages" if root.exists()
                        else f"no folder at {hint_path(root)}: a snapshot site is a folder of saved pages")
    if write and is_shipped(root):  # the demo site: its index stays as shipped
        raise SiteError(f"{never_changed(root)}: build a copy of it (`cp -r {hint_path(root)} my-site`, then "
                        "`recordlens site build my-site`)")
    pages: list[SitePage] = []
    seen: dict[str, str] = {}
    warnings: list[str] = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in PAGE_SUFFIXES
                       and not _in_removed(root, p)):
        relative = path.relative_to(root).as_posix()
        said = hint_path(relative)  # each page as a hint names a path, as the folder is
        if not inside_site(root, relative):
            warnings.append(f"{said} left out: it links to a file outside the site folder")
            continue
        try:
            snapshot = read_snapshot(path)
        except SnapshotError as error:
            warnings.append(f"{said} left out: {error}")
            continue
        if not snapshot.url or snapshot.url == DEFAULT_URL:
            warnings.append(f"{said} left out: it does not say which URL it was saved from")
            continue
        try:
            key = normalise_url(snapshot.url)
        except ValueError:
            warnings.append(f"{said} left out: its saved URL {snapshot.url!r} is not a valid URL")
            continue
        if key in seen:
            warnings.append(f"{said} left out: {hint_path(seen[key])} was saved from the same URL ({snapshot.url})")
            continue
        seen[key] = relative
        if snapshot.url.lower().startswith("file:"):  # run integrity: a local path is no web address
            warnings.append(f"{said}: saved from a local file ({snapshot.url}), not a web address: links "
                            "on other pages name the web address and will not reach it; save it from the web")
        side = _side_files_kept(root, path, relative, warnings)
        meta = dict(side).get("meta")
        pages.append(SitePage(url=snapshot.url, file=relative, title=snapshot.title or "", side=side,
                              aliases=_redirected_from(root / meta, snapshot.url, said, warnings) if meta else ()))
    kept = {p.file for p in pages}
    for meta in sorted(root.rglob("*" + SIDE_SUFFIXES["meta"])):  # a capture's page whose MHTML was deleted
        page = meta.with_name(meta.name.removesuffix(SIDE_SUFFIXES["meta"]) + ".mhtml")
        if not _in_removed(root, meta) and not page.is_file() and page.relative_to(root).as_posix() not in kept:
            warnings.append(f"{hint_path(page.relative_to(root).as_posix())} is gone from the folder (its "
                            f"{meta.name} is there); run the same `site capture` again to capture it again")
    if not pages:
        raise SiteError(f"{hint_path(root)} holds no saved page with a URL (.mhtml, or .html saved by a browser)")
    pages.sort(key=lambda p: normalise_url(p.url))
    site = Site(root=root, name=_indexed_name(root, warnings) or root.resolve().name, pages=pages,
                warnings=warnings, start=_captured_start(root, warnings))
    if write:
        _write_index(site)
    return site


def _side_files_kept(root: Path, page: Path, relative: str, warnings: list[str]) -> tuple[tuple[str, str], ...]:
    """The files a capture kept beside the page at `page` that the index names (kind, relative path); each one
    gone or linking out of the folder is said in `warnings`. One that links out is left out, and not read (its
    meta.json's aliases are not taken): `load_site` refuses an index naming a file outside the folder."""
    found = side_files(page)
    # Only a capture writes NAME.meta.json: without it, a NAME.png beside a hand-made page is just a file.
    if not found["meta"].is_file():
        return ()
    kept: list[tuple[str, str]] = []
    gone: list[str] = []
    outside: list[str] = []
    for kind, file in found.items():
        named = file.relative_to(root).as_posix()
        if not file.is_file():
            gone.append(file.name)
        elif not inside_site(root, named):
            outside.append(file.name)
        else:
            kept.append((kind, named))
    if gone:
        warnings.append(f"{hint_path(relative)}: its capture's {' and '.join(gone)} "
                        f"{'is' if len(gone) == 1 else 'are'} gone from the folder; run the same `site capture` again "
                        "to capture it again")
    if outside:
        one = len(outside) == 1
        warnings.append(f"{hint_path(relative)}: its capture's {' and '.join(outside)} {'is' if one else 'are'} left "
                        f"out: {'it links' if one else 'they link'} to a file outside the site folder")
    return tuple(kept)


def _in_removed(root: Path, path: Path) -> bool:
    """Whether `path` is in the site folder's removed/ (kept, not part of the site)."""
    return path.relative_to(root).parts[0] == SET_ASIDE_FOLDER


def _site_json(path: Path) -> Any:
    """What a JSON file of a site's folder holds (its index, its capture's state, a captured page's meta.json),
    read through the guarded reader: the folder is the user's, so a FIFO there is not waited on, and a hard link
    to a file of a database this process has open is not opened (closing it would drop this process's SQLite locks
    on it). Raises OSError (`unreadable_kind` says what the file is) or ValueError (no JSON in UTF-8)."""
    return json.loads(read_regular_file(path).decode("utf-8"))


def _cannot_read(path: Path, error: OSError, what: str) -> str:
    """"capture.json cannot be read (a FIFO (named pipe), not a regular file)": a file of the site's folder that is
    not read, by its name, for a warning."""
    return f"{path.name} cannot be read ({unreadable_kind(path, error, what) or system_words(error)})"


def _redirected_from(meta: Path, url: str, page: str, warnings: list[str]) -> tuple[str, ...]:
    """The URLs a captured page was reached through by redirects (its meta.json), other than its own; a meta.json
    that is no file to read is said in `warnings` (of the page named `page`)."""
    try:
        data = _site_json(meta)
        hops = [str(data.get("requested_url") or ""), *(str(h.get("url") or "") for h in data.get("redirects") or []),
                *(str(a) for a in data.get("aliases") or [])]  # URLs found later to redirect here (capture)
    except OSError as error:
        said = _cannot_read(meta, error, "captured page's meta file")
        warnings.append(f"{page}: its capture's {said}: a link to an address that redirected to it does not reach it")
        return ()
    except (ValueError, AttributeError, TypeError):
        return ()
    own = normalise_url(url)
    kept: list[str] = []
    for hop in hops:
        with contextlib.suppress(ValueError):
            if hop and normalise_url(hop) != own and hop not in kept:
                kept.append(hop)
    return tuple(kept)


def _indexed_name(root: Path, warnings: list[str]) -> str | None:
    """The name an existing index gives the site: a site copied to another folder and indexed again keeps it,
    as the tasks and runs that name it do. An index there that is no file to read is said in `warnings`."""
    try:
        name = _site_json(root / INDEX_FILE).get("name")
    except FileNotFoundError:
        return None
    except OSError as error:
        warnings.append(f"{_cannot_read(root / INDEX_FILE, error, 'site index')}: the site is named after its folder")
        return None
    except (ValueError, AttributeError):
        return None
    return name if isinstance(name, str) and name.strip() else None


def _captured_start(root: Path, warnings: list[str]) -> str:
    """The first root of the folder's capture (`capture.json`), or "" when it was not captured. A capture.json
    that is no file to read is said in `warnings`."""
    state = root / CAPTURE_STATE_FILE
    try:
        roots = _site_json(state).get("roots") or []
    except FileNotFoundError:
        return ""
    except OSError as error:
        warnings.append(f"{_cannot_read(state, error, 'capture state file')}: the site opens on its first page "
                        "by URL")
        return ""
    except (ValueError, AttributeError):
        return ""
    return str(roots[0]) if isinstance(roots, list) and roots and isinstance(roots[0], str) else ""


def load_site(folder: str | Path) -> Site:
    """The site as `site.json` indexes it; built in memory (not written) when the folder has no index yet."""
    root = Path(folder)
    index = root / INDEX_FILE
    if not index.exists():
        return build_site(root, write=False)
    warnings: list[str] = []
    try:
        data = _site_json(index)
        pages = [SitePage(url=str(p["url"]), file=str(p["file"]), title=str(p.get("title") or ""),
                          side=tuple((k, str(p[k])) for k in SIDE_SUFFIXES if p.get(k)),
                          aliases=tuple(str(a) for a in p.get("aliases") or ()))
                 for p in data["pages"]]
        name = str(data.get("name") or root.resolve().name)
        # an index written before it said its start
        start = str(data.get("start") or "") or _captured_start(root, warnings)
    except OSError as error:
        why = unreadable_kind(index, error, "site index") or system_words(error)
        raise SiteError(f"cannot read {hint_path(index)}: {why}; rebuild it with "
                        f"`recordlens site build {hint_path(root)}`") from None
    except (ValueError, KeyError, TypeError) as error:
        raise SiteError(f"cannot read {hint_path(index)}: {system_words(error)}; rebuild it with "
                        f"`recordlens site build {hint_path(root)}`") from None
    # --- run integrity: every file the index names must be inside the site folder (no /etc/passwd, no ../) ---
    named = [p.file for p in pages] + [file for p in pages for _, file in p.side]  # pages and their side files
    outside = [file for file in named if not inside_site(root, file)]
    if outside:
        raise SiteError(f"{hint_path(index)} lists files outside the site folder ({_paths(outside[:3])}); they are "
                        f"not read. Rebuild the index with `recordlens site build {hint_path(root)}`")
    unreadable = [f"{hint_path(p.file)}: {why}" for p in pages if (why := not_a_page_file(root / p.file))]
    if unreadable:
        raise SiteError(f"{hint_path(index)} lists page files that cannot be read ({'; '.join(unreadable[:3])}); "
                        f"rebuild it with `recordlens site build {hint_path(root)}`")
    return Site(root=root, name=name, pages=pages, warnings=warnings, start=start)


def _paths(files: list[str]) -> str:
    """Files of a site's index, each as a hint names a path, in a list."""
    return ", ".join(map(hint_path, files))


def inside_site(root: Path, file: str) -> bool:
    """True when `file` (as site.json writes it: relative, forward slashes) resolves inside `root`, symbolic
    links followed: an absolute path, `..` or a link out of the folder is not a page of the site."""
    if not file or Path(file).is_absolute() or file.startswith(("/", "\\")):
        return False
    try:
        (root / file).resolve().relative_to(root.resolve())
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop on older Pythons
        return False
    return True


def _write_index(site: Site) -> None:
    index = site.root / INDEX_FILE
    atomic.write_text(index, json.dumps(site.as_dict(), ensure_ascii=False, indent=2) + "\n")


# How many of the pages saved at the address of a page not saved (`Site.saved_beside`) its page names
SAVED_BESIDE_SHOWN = 20


def not_in_snapshot_html(url: str, beside: Sequence[str] = ()) -> str:
    """The page shown for a link the snapshot does not have: the same in the app and in tests. `beside`: the pages
    saved at its address under another query (`Site.saved_beside`), named as text (no links: the page's elements
    stay none), so that a search not saved says which searches the snapshot holds."""
    shown = html_escape.escape(url)
    saved = "".join(f"<li><code>{html_escape.escape(other)}</code></li>" for other in beside[:SAVED_BESIDE_SHOWN])
    more = len(beside) - SAVED_BESIDE_SHOWN
    held = (f"<p>The site holds this address only with the queries saved with it:</p><ul>{saved}</ul>"
            + (f"<p>and {more:,} more.</p>" if more > 0 else "")) if beside else ""
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{NOT_IN_SNAPSHOT_TITLE}</title></head>"
            f"<body><h1>{NOT_IN_SNAPSHOT_TITLE}</h1><p>This page was not saved with the site:</p>"
            f"<p><code>{shown}</code></p>{held}<p>Nothing was requested from the network. Go back to continue.</p>"
            "</body></html>")
