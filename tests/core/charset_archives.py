"""Pages in a legacy charset as the charset tests archive them: an MHTML archive of one HTML part whose header
states a charset or none (as Chromium writes), Cyrillic text to write in such charsets, and UTF-8 damaged past
reading."""

from __future__ import annotations

import quopri
import random

CYRILLIC = "Привет мир Ёлка"


def archive(page: bytes, header_charset: str | None) -> bytes:
    """An MHTML archive of one HTML part, its header stating `header_charset` (or none, as Chromium writes)."""
    charset = b"" if header_charset is None else b"; charset=" + header_charset.encode()
    return (b'Content-Type: multipart/related; type="text/html"; boundary="B"\r\n\r\n--B\r\n'
            b"Content-Type: text/html" + charset + b"\r\nContent-Transfer-Encoding: quoted-printable\r\n"
            b"Content-Location: http://example.invalid/p.html\r\n\r\n"
            + quopri.encodestring(page).replace(b"\n", b"\r\n") + b"\r\n--B--\r\n")


def damaged_utf_8(page: bytes, seed: int, share: float = 0.3) -> bytes:
    """A UTF-8 `page` with `share` of its bytes above 0x7F lost, at random from `seed` (its multi-byte sequences
    cut: mostly invalid UTF-8, text in no encoding)."""
    rng = random.Random(seed)
    return bytes(b for b in page if b < 0x80 or rng.random() >= share)
