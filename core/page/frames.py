"""What a frame of a saved page shows, as far as the snapshot holds it.

Chromium saves each frame of a page as a part of the page's MHTML: the frame's HTML under the frame's URL, with a
Content-ID that the saved page's `<iframe src="cid:...">` names. A `srcdoc` frame and a `data:` frame carry their
document in the page itself. Any other frame showed the live web: the snapshot has nothing of it, and nothing here
fetches it (there is no way to). This is what the Qt site browser loads into a frame (a part of the archive, a
`data:` URL, a `srcdoc`), and core's text browser reads the same documents.

A frame's part is decoded as the archive's page is (`decode_html`: a byte order mark, its <meta>, else the
charset detected in its bytes; its part's Content-Type charset decides nothing, as in Chromium); a `data:` URL as
the Fetch standard reads one (percent-decoded, then base64 when it says so), its own charset parameter first
(`decode_served_html`: a transport's charset comes before the <meta>). Only HTML documents are read: a frame
showing an image or plain text has no page to parse.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass
from urllib.parse import unquote_to_bytes, urljoin

from .charset import decode_html, decode_served_html
from .dom import Element
from .snapshot import _HTML_TYPES as HTML_TYPES  # the archive reader's own: what it reads as a page
from .snapshot import Snapshot
from .snapshot import _media_type as media_type  # the archive reader's own reading of a Content-Type

FRAME_TAGS = frozenset({"iframe", "frame"})
_BASE64_MARK = re.compile(r";[ ]*base64$", re.IGNORECASE)  # the Fetch standard's mark of a base64 data: URL


@dataclass(frozen=True)
class FrameDocument:
    """The HTML a frame shows, and the URL its relative references resolve against (before a `<base>` of its own).
    `source` names where it came from (a part's location, a `data:` URL), "" for a `srcdoc`, which is new with
    each frame element."""

    html: str
    url: str
    source: str


def frame_document(snapshot: Snapshot, frame: Element, base: str) -> FrameDocument | None:
    """The document the frame element `frame` (of a page of `snapshot` whose base URL is `base`) shows, when the
    snapshot holds it; None for a frame of the live web, an empty one, or one that shows no HTML."""
    if frame.tag not in FRAME_TAGS:
        return None
    if frame.tag == "iframe" and "srcdoc" in frame.attrs:  # srcdoc wins over src; a <frame> has none
        return FrameDocument(frame.attrs.get("srcdoc") or "", base, "")  # about:srcdoc takes its parent's base
    src = (frame.attrs.get("src") or "").strip()
    if not src:
        return None  # about:blank
    url = urljoin(base, src)
    if url[:5].lower() == "data:":
        return _data_document(url)
    resource = snapshot.resource(url)
    if resource is None:
        return None
    kind, parameters = media_type(resource.content_type)
    if kind not in HTML_TYPES:
        return None
    html, _ = decode_html(resource.data, parameters.get("charset"), [])
    return FrameDocument(html, resource.location, resource.location)


def _data_document(url: str) -> FrameDocument | None:
    """The HTML document of a `data:` URL (the Fetch standard's data: URL processor), None for another type."""
    header, comma, payload = url[5:].split("#", 1)[0].partition(",")
    if not comma:
        return None
    header = header.strip(" \t\n\f\r")
    marked = _BASE64_MARK.search(header)
    if marked:
        header = header[: marked.start()]
    data = unquote_to_bytes(payload)
    if marked:
        try:
            data = binascii.a2b_base64(data)
        except binascii.Error:
            return None  # a browser shows a network error: nothing
    kind, parameters = media_type(header or "text/plain")
    if kind not in HTML_TYPES:
        return None
    html, _ = decode_served_html(data, parameters.get("charset"), [])
    return FrameDocument(html, url, url)
