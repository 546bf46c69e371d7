"""When a page a capture renders is a page it saved already under another address (/about, /About, /about/,
/about?session=1): the same HTML, whose links lead to the same pages, once every address of either page is read
as "this page". Such a page is kept as an alias of the saved one (core/agent/capture.py), not as a page more.

Why two steps. Chromium's MHTML writes every link absolute, resolved against the page's URL, so a page's own
addresses cannot be set apart alone: on /about, the navigation's link to /about and a "#main" link are both
/about…, while on /About the first stays /about and the second is /About#main. Only the pair tells that /about
and /About are both "this page". So a page's `page_shape` (its HTML with every link target blanked), which the
copies of one page share, finds the saved pages to compare it with, and `same_page` compares it with each: the
two HTMLs must be equal once each link target that is an address of either page is read as the page itself.
A target written relative (a hand-made page keeps it so) is resolved against the page's URL first: the same HTML
under /v1/ and /v2/, reaching /v1/intro and /v2/intro, is two pages, each with links to follow. A link to the
page itself (#top, "", a form sent to itself) is the same on every address of it.

Link targets are the values of `href`, `action` and `formaction` attributes; the rest of the HTML must be the
same character for character, once read by `page_document`: Chromium's MHTML writer makes up a name for each part
it writes of the page itself (a `<style>` written as `<link href="cid:css-…@mhtml.blink">`, a frame's document as
`<iframe src="cid:frame-…@mhtml.blink">`), new with every capture, so each such reference is read as the content
of the part it names. Two copies whose only difference is the content of such a part (one style sheet's rule)
stay two pages; the order the writer gives the parts, and their headers, are no part of a page.
"""

from __future__ import annotations

import hashlib
import html as html_text
import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import urldefrag, urljoin

from .sites import normalise_url

if TYPE_CHECKING:
    from ..page.snapshot import Snapshot

_TARGET = re.compile(r"""(\s(?:href|action|formaction)\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""",
                     re.IGNORECASE)
_ITSELF = "\0this page"  # what a link to any address of the page reads as (no URL can be it)
# A reference to a part Chromium's MHTML writer made of the page itself: its name is made up anew by each capture
_GENERATED_PART = re.compile(rb"""cid:[^\x00-\x20\x7f-\xff"'()<>]+?@mhtml\.blink""", re.IGNORECASE)


class PageCopy(NamedTuple):
    html: str                    # the main document's HTML, as `page_document` reads it
    url: str                     # the URL it was rendered at: its relative link targets are read against it
    addresses: tuple[str, ...]   # the other URLs it is known under: requested, redirected from, aliases


def page_document(snapshot: Snapshot) -> str:
    """The snapshot's page as copies of it are compared: its HTML with each reference to a part the MHTML writer
    made of the page (`cid:…@mhtml.blink`) read as that part's content (a name made of its sha256). A reference to
    no part the snapshot holds stays as written: a copy that lacks a part is the same as no other."""
    read = _parts_named(snapshot, snapshot.html.encode("utf-8", "surrogatepass"), ())
    return read.decode("utf-8", "surrogatepass")


def page_shape(html: str) -> str:
    """The sha256 of the HTML with every link target blanked: the same for every copy of one page, whatever its
    address (two pages of one shape are one when `same_page` says so)."""
    blanked = _TARGET.sub(lambda found: found[1] + '""', html)
    return hashlib.sha256(blanked.encode("utf-8", "surrogatepass")).hexdigest()


def same_page(copy: PageCopy, other: PageCopy) -> bool:
    """Whether two copies are one page: their HTML the same once every link target is read where it leads, and a
    target that is an address of either copy as the page itself."""
    itself = {link_key(address) for address in (copy.url, *copy.addresses, other.url, *other.addresses) if address}
    return _targets_read(copy, itself) == _targets_read(other, itself)


def link_key(link: str) -> str:
    """A link as pages are told apart by where they lead: its normalised URL without the fragment (as written
    when it cannot be read)."""
    address = urldefrag(link.strip())[0]
    try:
        return normalise_url(address)
    except ValueError:
        return address


def _targets_read(copy: PageCopy, itself: Iterable[str]) -> str:
    """The copy's HTML with each link target written as where it leads (its fragment kept), or as the page itself
    for an address in `itself`."""
    own = set(itself)

    def read(found: re.Match[str]) -> str:
        written = next(value for value in found.groups()[1:] if value is not None)
        address, fragment = urldefrag(urljoin(copy.url, html_text.unescape(written).strip()))
        key = link_key(address)
        return found[1] + json.dumps((_ITSELF if key in own else key) + (f"#{fragment}" if fragment else ""))

    return _TARGET.sub(read, copy.html)


def _parts_named(snapshot: Snapshot, document: bytes, within: tuple[str, ...]) -> bytes:
    """`document` with each reference to a generated part named by what the part holds, read the same way (a
    frame's document refers to its own style sheets and frames); `within`: the parts read on the way here, each
    read once on the way down."""
    def named(found: re.Match[bytes]) -> bytes:
        reference = found[0].decode("ascii")
        part = snapshot.resource(reference)
        if part is None or reference.lower() in within:
            return found[0]
        content = _parts_named(snapshot, part.data, (*within, reference.lower()))
        return f"cid:part-{hashlib.sha256(content).hexdigest()}".encode("ascii")

    return _GENERATED_PART.sub(named, document)
