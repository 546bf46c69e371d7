"""A variant's style sheets: the page's own, so that a variant looks like a page of the same site.

The core's parse drops <style> and <link> (they hold no text of the page), so a variant's <head> gets them back
here, in their document order: each inline <style> as it was, and each style sheet the page links that was saved
with it (a `text/css` part of its MHTML) inlined as a <style> of its own, its `media` kept. The sheets a sheet
imports (`@import`) and that were saved too come before it, as the cascade reads them. Inlined rather than linked,
so that the variant's HTML file is styled as its MHTML is, offline, and both formats hold the same HTML.

What is not kept: a sheet the page links but did not save (a plain HTML page's `site.css`: counted in the
manifest as left out), alternate and disabled sheets (a browser does not apply them), and every other resource
(images, fonts, scripts, frames). Nothing here changes an XPath: <style> is no element of the core's tree.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser

from ..page.bounds import bound_markup
from ..page.charset import decode_or_replace, resolve_charset
from ..page.snapshot import Resource, Snapshot

_CSS_TYPE = "text/css"
_IMPORT_DEPTH = 8  # sheets importing sheets: deeper than any site, shallow enough for a loop of imports


@dataclass(frozen=True)
class Sheet:
    """One <style> for the variant's <head>: its text and the attributes it keeps."""

    text: str
    attrs: dict[str, str]


@dataclass
class StyleSheets:
    """The sheets a variant keeps, in order, and how many the page names but could not give (not saved)."""

    sheets: list[Sheet]
    left_out: int = 0

    def counts(self) -> dict[str, int]:
        """What the manifest says of them."""
        return {"kept": len(self.sheets), "left_out": self.left_out}


def saved_style_sheets(snapshot: Snapshot) -> Snapshot | None:
    """The snapshot's style sheets alone (its URL to resolve links against, its CSS parts), for a page waiting
    for its turn: none of its HTML, images or fonts held. None when it saved no style sheet."""
    sheets = {location: r for location, r in snapshot.resources.items() if _is_css(r)}
    return replace(snapshot, html="", resources=sheets, warnings=[]) if sheets else None


def page_style_sheets(html: str, saved: Snapshot | None) -> StyleSheets:
    """Every style sheet the page applies, in document order: inline ones, and linked ones `saved` holds."""
    # bounded as every parse of the page is: lexbor's parse of hostile nesting takes minutes and gigabytes
    tree = LexborHTMLParser(bound_markup(html, []))
    base = _base_url(tree, saved.url if saved is not None else None)
    found = StyleSheets([])
    for node in tree.css("style, link"):
        if node.parent is not None and node.parent.tag in ("svg", "template"):
            continue
        attrs = {k: v for k, v in node.attributes.items() if v is not None}
        if node.tag == "style":
            kept = {k: v for k, v in attrs.items() if k in ("media", "type")}
            found.sheets += _with_imports(node.text(deep=True), base, kept, saved, found, depth=0)
        elif _applies(attrs):
            resource = _saved(saved, base, attrs.get("href", "").strip())
            if resource is None:
                found.left_out += 1
                continue
            kept = {"media": attrs["media"]} if attrs.get("media") else {}
            found.sheets += _with_imports(_css_text(resource), resource.location, kept, saved, found, depth=0)
    return found


def _applies(attrs: dict[str, str]) -> bool:
    """A <link> whose sheet a browser applies: rel="stylesheet", not an alternate, not disabled."""
    rel = attrs.get("rel", "").lower().split()
    return "stylesheet" in rel and "alternate" not in rel and "disabled" not in attrs and bool(attrs.get("href"))


def _base_url(tree: LexborHTMLParser, url: str | None) -> str:
    """The URL the page's links are relative to: its first <base href>, against the URL it was saved from."""
    base = next((n.attributes.get("href") for n in tree.css("base[href]")), None)
    return urljoin(url or "", (base or "").strip()) if base else (url or "")


def _saved(saved: Snapshot | None, base: str, href: str) -> Resource | None:
    """The saved style sheet a link or an import names (absolute, as Chromium saves parts, or as written)."""
    if saved is None or not href:
        return None
    found = saved.resource(urljoin(base, href)) if base else None
    found = found or saved.resource(href)
    return found if found is not None and _is_css(found) else None


def _is_css(resource: Resource) -> bool:
    return resource.content_type.split(";", 1)[0].strip().lower() == _CSS_TYPE


def _css_text(resource: Resource) -> str:
    """A saved sheet's text, decoded as a browser decodes it: its byte order mark, the charset its part
    declares, its own `@charset`, else UTF-8; bytes that do not decode become U+FFFD. Made safe to sit in a
    <style>: a `</style` in it (in a string or a comment) would end the element there."""
    data = resource.data
    charset = _bom_charset(data) or _declared(resource.content_type) or _at_charset(data) or resolve_charset("utf-8")
    assert charset is not None
    text = decode_or_replace(data, charset, f"the style sheet {resource.location}", []).lstrip("\ufeff")
    return _STYLE_END.sub(lambda m: "<\\/" + m.group(0)[2:], text)


_STYLE_END = re.compile(r"</style", re.IGNORECASE)


def _bom_charset(data: bytes) -> tuple[str, str] | None:
    for bom, label in ((b"\xef\xbb\xbf", "utf-8"), (b"\xfe\xff", "utf-16be"), (b"\xff\xfe", "utf-16le")):
        if data.startswith(bom):
            return resolve_charset(label)
    return None


def _declared(content_type: str) -> tuple[str, str] | None:
    found = re.search(r";\s*charset\s*=\s*\"?([^\";\s]+)", content_type, re.IGNORECASE)
    return resolve_charset(found.group(1)) if found else None


def _at_charset(data: bytes) -> tuple[str, str] | None:
    found = re.match(rb'@charset "([^"]{1,40})";', data)
    return resolve_charset(found.group(1).decode("ascii", "replace")) if found else None


# An @import at the head of a sheet: its URL (in url(), quoted or not, or a string) and what follows it up to ";"
_IMPORT = re.compile(r"""@import\s+(?:url\(\s*(["']?)(?P<url>[^"')]*)\1\s*\)|(["'])(?P<string>[^"']*)\3)"""
                     r"""\s*(?P<condition>[^;{}]*);""", re.IGNORECASE)
_SKIPPED = re.compile(r"(?:\s+|/\*.*?\*/|@charset\s+\"[^\"]*\"\s*;)+", re.DOTALL | re.IGNORECASE)


def _with_imports(text: str, location: str, attrs: dict[str, str], saved: Snapshot | None,
                  found: StyleSheets, depth: int) -> list[Sheet]:
    """The sheet, preceded by the saved sheets it imports (each in its turn with theirs); an import whose sheet
    was not saved, or that a layer or a condition qualifies, stays in the sheet as written (said left out when
    not saved)."""
    sheets: list[Sheet] = []
    kept_text = []
    position = 0
    for match in _imports(text):
        url = match.group("url") if match.group("url") is not None else match.group("string")
        condition = match.group("condition").strip()
        media = condition if condition and not re.search(r"\b(layer|supports)\b|\(", condition, re.I) else ""
        resource = _saved(saved, location, url) if depth < _IMPORT_DEPTH else None
        if resource is None or (condition and not media) or (media and attrs.get("media")):
            found.left_out += resource is None
            continue
        sheets += _with_imports(_css_text(resource), resource.location,
                                {"media": media} if media else dict(attrs), saved, found, depth + 1)
        kept_text.append(text[position:match.start()])
        position = match.end()
    return [*sheets, Sheet("".join(kept_text) + text[position:], attrs)]


def _imports(text: str) -> Iterator[re.Match[str]]:
    """The @import rules a sheet starts with (after blanks, comments and its @charset), in order."""
    position = 0
    while True:
        skipped = _SKIPPED.match(text, position)
        position = skipped.end() if skipped else position
        match = _IMPORT.match(text, position)
        if match is None:
            return
        yield match
        position = match.end()
