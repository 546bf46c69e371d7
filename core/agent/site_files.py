"""The naming rules of a snapshot site's files: which file a page saved from a URL goes into.

A page saved from a URL the site already holds goes over that page's file (`existing_site_file`); a new one gets
a file named after its URL (`site_file_name`), made unique when another URL's page has that name already
(`free_site_file`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from .sites import SiteError, build_site, load_site, normalise_url

MAX_NAME = 100
SAVED_SUFFIX = ".mhtml"


def _url_digest(url: str) -> str:
    return hashlib.sha1(normalise_url(url).encode("utf-8")).hexdigest()[:8]


def site_file_name(url: str) -> str:
    """A file name for the page saved from `url`: host, port, path and query, readable, ending in .mhtml.

    Characters outside [A-Za-z0-9._-] become "-"; a name that would be too long, or that had a query (two
    queries can differ only in characters that were replaced), ends with a hash of the normalised URL."""
    parts = urlsplit(url)
    host = (parts.hostname or "page").lower()
    pieces = [host + (f"-{parts.port}" if parts.port else ""), parts.path.strip("/") or "home"]
    if parts.query:
        pieces.append(parts.query)
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", "-".join(pieces)).strip("-.") or "page"
    if parts.query or len(stem) > MAX_NAME:
        stem = f"{stem[:MAX_NAME].rstrip('-.')}-{_url_digest(url)}"
    return f"{stem}{SAVED_SUFFIX}"


def existing_site_file(site_root: Path, url: str) -> Path | None:
    """The site's file for `url`, when the site already holds it (so that it is updated, not duplicated)."""
    if not site_root.is_dir():
        return None
    try:
        try:
            site = load_site(site_root)
        except SiteError:
            site = build_site(site_root, write=False)  # a stale index: what the folder holds now
    except SiteError:
        return None  # no page yet
    page = site.page(url, exact=True)  # /dir/ is not saved over /dir: two pages to a site that holds both
    return site.resolve(page.url) if page is not None else None


def free_site_file(site_root: Path, url: str) -> Path:
    """Where a page saved from `url` goes when the site does not hold the URL yet (`free_site_file_name`)."""
    return site_root / free_site_file_name(url, lambda name: (site_root / name).exists())


def free_site_file_name(url: str, taken: Callable[[str], bool]) -> str:
    """The file name for the page saved from `url`: its name (`site_file_name`), or, when `taken(name)` says
    another URL's page has it, the name with a hash of the URL. Names replace the characters a file name cannot
    hold, so /a b and /a-b, or /About and /about on a disk that ignores case, would otherwise share one file."""
    name = site_file_name(url)
    if taken(name):
        name = f"{name.removesuffix(SAVED_SUFFIX)}-{_url_digest(url)}{SAVED_SUFFIX}"
    return name
