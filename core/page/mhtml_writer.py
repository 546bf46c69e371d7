"""Writing MHTML that Chromium opens: one HTML part (quoted-printable) and its resources (base64), with
header values checked so that a written archive always reads back."""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Iterable
from email.utils import formatdate
from itertools import count
from pathlib import Path
from typing import TypedDict, Unpack

from .. import atomic
from .charset import meta_declarations, meta_encoding, resolve_charset
from .snapshot import DEFAULT_URL, Resource, title_from_html


class ArchiveOptions(TypedDict, total=False):
    """What `mhtml_bytes` takes besides the HTML, for the functions that hand it on."""

    url: str
    title: str | None
    resources: Iterable[Resource]
    date: str | None


def write_mhtml(path: str | Path, html: str, **options: Unpack[ArchiveOptions]) -> Path:
    """Save `html` and its resources as an MHTML file that Chromium opens (`options` as for `mhtml_bytes`);
    return the path.

    The file is written beside its target and renamed into place, so a failure never leaves half a file."""
    return atomic.write_bytes(Path(path), mhtml_bytes(html, **options))


def mhtml_bytes(
    html: str,
    *,
    url: str = DEFAULT_URL,
    title: str | None = None,
    resources: Iterable[Resource] = (),
    date: str | None = None,
) -> bytes:
    """The MHTML archive, in Chromium's layout: HTML quoted-printable in UTF-8 (the charsets its <meta> tags
    declare made `utf-8`, so that a browser reads it so), resources in base64.

    With `title=None` the Subject is the page's own <title> (what Chromium writes), or absent without one.
    `date` is the Date header (RFC 5322); by default the current time, so pass one for byte-identical output."""
    resources = list(resources)
    _check_writable(url, resources)
    html_body = _encode_quoted_printable(_declared_utf8(_utf8(html)))
    resource_bodies = [_encode_base64(resource.data) for resource in resources]
    token = _boundary_token([html_body, *resource_bodies])
    boundary = f"----MultipartBoundary--{token}----".encode("ascii")
    title = title_from_html(html) if title is None else title
    blocks = [
        _archive_header(url, title, boundary, date),
        _html_part(html_body, url, token),
        *(_resource_part(r, body) for r, body in zip(resources, resource_bodies, strict=True)),
    ]
    delimiter = b"\r\n--" + boundary + b"\r\n"
    return blocks[0] + b"--" + boundary + b"\r\n" + delimiter.join(blocks[1:]) + b"\r\n--" + boundary + b"--\r\n"


def _check_writable(url: str, resources: list[Resource]) -> None:
    """Refuse what could not be read back the same: header breaks, unnamed or duplicate resources."""
    if not url:
        raise ValueError("The url of a snapshot cannot be empty.")
    _check_header_value("url", url)
    seen: set[str] = set()
    for resource in resources:
        if not resource.location:
            raise ValueError(f"A resource needs a location (content type {resource.content_type!r}).")
        if resource.location in seen:
            raise ValueError(f"Two resources have the location {resource.location!r}; a snapshot keeps one.")
        seen.add(resource.location)
        _check_header_value("resource location", resource.location)
        _check_header_value("resource content type", resource.content_type)
        if resource.content_id is not None:
            _check_header_value("resource content id", resource.content_id)
            if not resource.content_id or "<" in resource.content_id or ">" in resource.content_id:
                raise ValueError(f"Give the content id {resource.content_id!r} without angle brackets.")


def _check_header_value(what: str, value: str) -> None:
    if "\r" in value or "\n" in value:
        raise ValueError(f"The {what} {value!r} contains a line break, which a MIME header cannot hold.")
    if value != value.strip():
        raise ValueError(f"The {what} {value!r} starts or ends with blanks, which a MIME header drops.")


def _boundary_token(bodies: list[bytes]) -> str:
    # derived from the content, so the same page gives the same file (apart from its Date)
    digest = hashlib.sha256()
    for body in bodies:
        digest.update(hashlib.sha256(body).digest())
    for attempt in count():
        token = hashlib.sha256(digest.digest() + str(attempt).encode()).hexdigest()[:40]
        if not any(token.encode() in body for body in bodies):
            return token
    raise AssertionError("unreachable")


def _archive_header(url: str, title: str | None, boundary: bytes, date: str | None = None) -> bytes:
    lines = [b"From: <Saved by RecordLens>", b"Snapshot-Content-Location: " + url.encode("utf-8")]
    if title is not None:
        lines.append(_subject(title))
    lines += [
        b"Date: " + (date or formatdate(localtime=False)).encode("ascii"),
        b"MIME-Version: 1.0",
        b"Content-Type: multipart/related;",
        b'\ttype="text/html";',
        b'\tboundary="' + boundary + b'"',
        b"",
        b"",
    ]
    return b"\r\n".join(lines) + b"\r\n"


def _subject(title: str) -> bytes:
    """The Subject header; RFC 2047 encoded words unless the title is plain ASCII that reads back unchanged."""
    plain = title == title.strip(" \t") and "=?" not in title and len(title) < 900
    if plain and all(" " <= c <= "~" for c in title):
        return b"Subject: " + title.encode("ascii")
    words = [f"=?utf-8?B?{base64.b64encode(chunk).decode('ascii')}?=" for chunk in _utf8_chunks(title, 45)]
    return ("Subject: " + "\r\n ".join(words)).encode("ascii")


def _utf8_chunks(text: str, size: int) -> list[bytes]:
    """UTF-8 pieces of at most `size` bytes that never split a character (45 bytes: a 72-character word)."""
    chunks: list[bytes] = []
    current = b""
    for character in text:
        encoded = character.encode("utf-8")
        if len(current) + len(encoded) > size:
            chunks.append(current)
            current = b""
        current += encoded
    return [*chunks, current]


def _html_part(body: bytes, url: str, token: str) -> bytes:
    return (
        b"Content-Type: text/html; charset=utf-8\r\n"
        b"Content-ID: <frame-" + token[:32].upper().encode("ascii") + b"@mhtml.blink>\r\n"
        b"Content-Transfer-Encoding: quoted-printable\r\n"
        b"Content-Location: " + url.encode("utf-8") + b"\r\n\r\n" + body
    )


def _resource_part(resource: Resource, body: bytes) -> bytes:
    lines = [b"Content-Type: " + resource.content_type.encode("utf-8")] if resource.content_type else []
    if resource.content_id is not None:
        lines.append(b"Content-ID: <" + resource.content_id.encode("utf-8") + b">")
    lines.append(b"Content-Transfer-Encoding: base64")
    lines.append(b"Content-Location: " + resource.location.encode("utf-8"))
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


_LONE_LF = re.compile(rb"(?<!\r)\n")


def _utf8(html: str) -> bytes:
    try:
        return html.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValueError(f"The HTML cannot be saved as UTF-8: {error.reason} at character {error.start}.") from None


def _declared_utf8(page: bytes) -> bytes:
    """The page with every charset its <meta> tags declare to a browser made `utf-8`, the rest byte for byte.

    Chromium reads a part of an archive in the charset its <meta> declares before the one its header does: a page
    read from windows-1251, written in UTF-8 with its `<meta charset="windows-1251">` kept, would show as
    mojibake. Only the label changes, so the page's elements and texts stay what they were. Repeated because a
    shorter label can bring a later <meta> within the 1024 bytes a browser looks at."""
    while True:
        changes = [d for d in meta_declarations(page) if not _reads_as_utf8(d.label)]
        if not changes:
            return page
        for declaration in reversed(changes):
            page = page[: declaration.start] + b"utf-8" + page[declaration.end :]


def _reads_as_utf8(label: str) -> bool:
    """Whether a browser reads a page whose <meta> declares `label` as UTF-8, or ignores the label (unknown)."""
    charset = resolve_charset(label)
    return charset is None or meta_encoding(charset)[0] == "utf-8"


def _encode_quoted_printable(encoded: bytes) -> bytes:
    # A lone "\n" becomes a hard CRLF break; everything else, "\r" included, is encoded within a line, so that
    # decoding gives back exactly this text. A "\r\n" stays encoded too: written as "\r" plus a hard break,
    # Chromium would decode it to "\r\r\n", which its HTML parser reads as two line breaks.
    lines = (binascii.b2a_qp(line, istext=False) for line in _LONE_LF.split(encoded))
    return b"\r\n".join(line.replace(b"=\n", b"=\r\n") for line in lines)


def _encode_base64(data: bytes) -> bytes:
    encoded = binascii.b2a_base64(data, newline=False)
    return b"\r\n".join(encoded[i : i + 76] for i in range(0, len(encoded), 76))
