"""A page of a snapshot site made ready for the embedded browser, and the "not in this snapshot" page.

Why not open the MHTML file as an archive, as the page view does: Chromium disables every form control of an
archive (`IsDisabledFormControl` is true under an MHTML fetcher), so a search box could never be typed into. A
site page is therefore served as HTML through the `recordlens-page:` scheme, with

- a `<base href>` set to the page's saved URL, so that links, forms and relative references resolve exactly as
  on the saved site (navigation is then intercepted and mapped back onto the site), and
- every reference to an archived resource rewritten to a URL the scheme serves from memory: Chromium refuses
  interceptor redirects from http(s) to a local scheme or to data:, so the reference itself has to change, and
- the hidden form fields and `hidden` elements the capture kept (core/agent/hidden_fields.py) as they were on
  the live page (`as_served_live`): Chromium then labels, styles and sends them as it did there. The site
  browser marks them again before it saves the page (keep_hidden.js), as the capture did.

Only attributes change (and one `<base>` joins <head>), so every body element keeps its XPath. Relative
references resolve against the base and stay blocked unless the archive holds them under that absolute URL
(Chromium writes absolute locations, so its archives are complete).

Plain Python, no Qt: the browser side (site_browser.py) only hands these bytes to the scheme handler, and
`restore_saved` turns a page Chromium saved back into the site's form: without our `<base>`, and without the
elements the app's scripts draw in (set-of-mark's `<recordlens-som>`, whose closed shadow root Chromium writes out
as a `<template shadowmode>`), which are no part of the page. `note_resaved` tells a captured page's side files
that its MHTML was saved again: the tree and the screenshot are still the capture's.
"""

from __future__ import annotations

import hashlib
import html as html_lib
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urljoin

from ...core import atomic
from ...core.agent import Site, as_served_live
from ...core.page import Resource, Snapshot, read_snapshot

BASE_MARK = "data-recordlens-base"  # our <base> says it is ours, so a re-saved page can drop it
_HEAD = re.compile(r"<head(?:\s[^>]*)?>", re.IGNORECASE)
_HTML = re.compile(r"<html(?:\s[^>]*)?>", re.IGNORECASE)
_DOCTYPE = re.compile(r"<!doctype[^>]*>", re.IGNORECASE)
_PAGE_BASE = re.compile(r"<base\s[^>]*?href\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+)", re.IGNORECASE)
_OUR_BASE = re.compile(rf"<base {BASE_MARK}=\"\" href=\"[^\"]*\">")
# The hosts the app's scripts append to <html> (shadow_host.js: recordlens-som, recordlens-overlay), with the
# shadow root Chromium serialises inside them; no page's own element has these names.
_OUR_HOSTS = re.compile(r"<(recordlens-[a-z]+)(?:\s[^>]*)?>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
# A reference ends where a URL cannot go on: quotes, blanks, a closing bracket, srcset's comma.
_URL_END = r"(?=[\"'\s),>;]|$)"
_TEXT_TYPES = ("text/", "image/svg", "application/javascript", "application/xml")
STALE_SIDE_FILES = ("axtree", "screenshot")  # what a re-save leaves describing the page as captured


@dataclass
class PreparedPage:
    """What the browser gets for one saved page: HTML text with its base, and resources by served path."""

    url: str            # the saved URL, the page's identity in the site
    html: str
    title: str
    resources: dict[str, tuple[bytes, str]] = field(default_factory=dict)  # served path -> (bytes, content type)
    originals: dict[str, str] = field(default_factory=dict)  # served path -> the resource's saved location


def prepare_page(path: str | Path, url: str | None, served_prefix: str) -> PreparedPage:
    """Read a saved page and rewrite it for serving; resources get paths below `served_prefix`."""
    snapshot = read_snapshot(Path(path))
    saved_url = url or snapshot.url or Path(path).resolve().as_uri()
    return prepare_snapshot(snapshot, saved_url, served_prefix)


def prepare_snapshot(snapshot: Snapshot, url: str, served_prefix: str) -> PreparedPage:
    served = {r.location: f"{served_prefix}r{i}/{_file_name(r)}" for i, r in enumerate(_resources(snapshot))}
    for resource in snapshot.resources.values():
        if resource.content_id:
            served.setdefault(f"cid:{resource.content_id}", served[resource.location])
    rewrite = _rewriter(served)
    # A page saved with the app's numbers in it (before they were left out) would show them frozen on top.
    # The hidden fields and elements the capture kept, as they were on the live page.
    text = as_served_live(rewrite(without_app_elements(snapshot.html)))
    out = PreparedPage(url=url, html=with_base(text, url), title=snapshot.title or "")
    for resource in _resources(snapshot):
        data = resource.data
        if resource.content_type.startswith(_TEXT_TYPES):
            # Stylesheets name fonts and images by URL too, relative to the stylesheet's own location (Chromium
            # keeps them as written); latin-1 maps bytes to characters one to one.
            text = data.decode("latin-1")
            if resource.content_type.startswith("text/css"):
                text = absolute_css_urls(text, resource.location)
            data = rewrite(text).encode("latin-1")
        out.resources[served[resource.location]] = (data, resource.content_type or "application/octet-stream")
        out.originals[served[resource.location]] = resource.location
    return out


_CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")\s]+)\1\s*\)""")


def absolute_css_urls(css: str, base: str) -> str:
    """Every relative `url(...)` of a stylesheet made absolute against the stylesheet's location."""
    def absolute(match: re.Match[str]) -> str:
        quote, ref = match.group(1), match.group(2)
        if ref.startswith(("data:", "#")) or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", ref):
            return match.group(0)
        return f"url({quote}{urljoin(base, ref)}{quote})"

    return _CSS_URL.sub(absolute, css)


def _resources(snapshot: Snapshot) -> list[Resource]:
    return list(snapshot.resources.values())


def _file_name(resource: Resource) -> str:
    tail = resource.location.rstrip("/").rsplit("/", 1)[-1].split("?", 1)[0]
    return re.sub(r"[^A-Za-z0-9._-]", "_", tail)[:60] or "resource"


def _rewriter(served: dict[str, str]):  # noqa: ANN202 - a str -> str function
    if not served:
        return lambda text: text
    # Every spelling a reference can take in HTML: as is, and with & written as &amp;.
    spelled: dict[str, str] = {}
    for location, target in served.items():
        spelled[location] = target
        spelled.setdefault(html_lib.escape(location, quote=False), target)
    # Longest first, so that a location that is a prefix of another never takes the other's place.
    names = sorted(spelled, key=len, reverse=True)
    pattern = re.compile("(?:" + "|".join(re.escape(n) for n in names) + ")" + _URL_END)
    return lambda text: pattern.sub(lambda m: spelled[m.group(0)], text)


def with_base(text: str, url: str) -> str:
    """`text` with our `<base>` first in <head>; a base of the page's own keeps deciding, resolved as saved."""
    own = _PAGE_BASE.search(text)
    href = urljoin(url, html_lib.unescape(own.group(1).strip("\"'"))) if own else url
    tag = f'<base {BASE_MARK}="" href="{html_lib.escape(href, quote=True)}">'
    for pattern in (_HEAD, _HTML, _DOCTYPE):
        match = pattern.search(text)
        if match:
            return text[:match.end()] + tag + text[match.end():]
    return tag + text


def without_base(text: str) -> str:
    """The page as it was saved: our `<base>` taken out again (Chromium writes attributes as we did)."""
    return _OUR_BASE.sub("", text, count=1)


def without_app_elements(text: str) -> str:
    """The page without the elements the app's scripts drew in it (set-of-mark's numbers): those are ours."""
    return _OUR_HOSTS.sub("", text)


def restore_saved(saved: Snapshot, page: PreparedPage) -> tuple[str, list[Resource]]:
    """What Chromium saved from a served page, in the site's form again: our `<base>` and marks gone, every served
    resource URL back to the location it was saved under (in the HTML, in stylesheets, as Content-Location)."""
    back = _rewriter(page.originals)
    resources: list[Resource] = []
    seen: set[str] = set()
    for resource in saved.resources.values():
        location = page.originals.get(resource.location, resource.location)
        if location in seen:
            continue
        seen.add(location)
        data = resource.data
        if resource.content_type.startswith(_TEXT_TYPES):
            data = back(data.decode("latin-1")).encode("latin-1")
        resources.append(Resource(location, resource.content_id, resource.content_type, data))
    return without_app_elements(without_base(back(saved.html))), resources


def note_page_resaved(site: Site, url: str, target: Path, *, by: str = "Save this page to the site",
                      ) -> dict[str, object] | None:
    """`note_resaved` for the site's page at `url`, saved again as `target`: its side files as `site` indexes them
    (the index read before the save); None for a page without a meta.json."""
    page = site.page(url)
    side = dict(page.side) if page is not None else {}
    if not side.get("meta"):
        return None
    return note_resaved(target, site.root / side["meta"], [kind for kind in STALE_SIDE_FILES if side.get(kind)],
                        by=by)


def note_resaved(page: Path, meta_file: Path, stale: list[str], *, by: str = "Save this page to the site",
                 when: datetime | None = None) -> dict[str, object] | None:
    """Tell a captured page's meta.json (`meta_file`) that its MHTML (`page`) was saved again, here and now: the
    SHA-256 it gives for the MHTML becomes the new file's, and `resaved` says when, how (`by`), and that the side
    files named in `stale` (its accessibility tree and screenshot) are still the capture's: a save makes neither
    (the capture's DevTools did). The meta as written, or None when it cannot be read."""
    try:
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict):
        return None
    at = (when or datetime.now(UTC)).isoformat(timespec="seconds")
    sums = meta.get("sha256") if isinstance(meta.get("sha256"), dict) else {}
    meta["sha256"] = {**sums, "mhtml": hashlib.sha256(page.read_bytes()).hexdigest()}
    names = {"axtree": "accessibility tree", "screenshot": "screenshot"}
    meta["resaved"] = {
        "at": at, "by": by, "stale": list(stale),
        "note": (f"the MHTML was saved again at {at}; the "
                 f"{' and '.join(names.get(k, k) for k in stale) or 'side files'} beside it "
                 f"{'are' if len(stale) != 1 else 'is'} still the capture's, of "
                 f"{meta.get('captured_at') or 'an unknown time'}: capture the page again to refresh "
                 f"{'them' if len(stale) != 1 else 'it'}"),
    }
    atomic.write_text(meta_file, json.dumps(meta, ensure_ascii=False, indent=1) + "\n")
    return meta


def resaved_note(meta: dict[str, object] | None) -> str:
    """What a re-saved page's meta says is stale, in one sentence ("" for a page not saved again)."""
    resaved = meta.get("resaved") if isinstance(meta, dict) else None
    return str(resaved.get("note") or "") if isinstance(resaved, dict) else ""
