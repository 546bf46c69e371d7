"""Archives whose HTML part Chromium reads line by line: `7bit`, `8bit` and quoted-printable parts written as raw
bytes (as hand-made archives and savers other than a browser write them), in legacy charsets and in UTF-8, with
CRLF lines. Chromium takes each such line that is not UTF-8 as Latin-1, and joins a 7bit or 8bit part's lines
without their breaks; the core reads the bytes as written."""

from __future__ import annotations

FORECAST = "東京の天気予報"
CAMERA = "新しいカメラ"
PRIVET = "Привет мир, магазин книг"
CREME = "Café crème brûlée"


def archive(page: bytes, transfer_encoding: str | None, *, frame: bytes | None = None,
            frame_encoding: str = "8bit") -> bytes:
    """A CRLF archive of one HTML part whose body is `page` as it is (`transfer_encoding` None: no such header),
    and, with `frame`, a second HTML part (a frame's page) sent as `frame_encoding`."""
    parts = [_part(page, transfer_encoding, "http://shop.example/")]
    if frame is not None:
        parts.append(_part(frame, frame_encoding, "http://shop.example/frame.html"))
    return (b"From: <Saved by a script>\r\nSnapshot-Content-Location: http://shop.example/\r\nSubject: page\r\n"
            b'MIME-Version: 1.0\r\nContent-Type: multipart/related;\r\n\ttype="text/html";\r\n\tboundary="B-B"\r\n'
            b"\r\n" + b"".join(b"--B-B\r\n" + part + b"\r\n" for part in parts) + b"--B-B--\r\n")


def _part(body: bytes, transfer_encoding: str | None, location: str) -> bytes:
    encoding = b"" if transfer_encoding is None else f"Content-Transfer-Encoding: {transfer_encoding}\r\n".encode()
    return b"Content-Type: text/html\r\n" + encoding + f"Content-Location: {location}\r\n\r\n".encode() + body


def list_page(items: tuple[str, ...], charset: str | None, codec: str) -> bytes:
    """A page of a list, one item to a CRLF line, its charset declared by a <meta> (None: undeclared)."""
    meta = f'<meta charset="{charset}">' if charset else ""
    lines = [f"<html><head>{meta}<title>{items[0]}</title></head><body>", "<ul>",
             *(f"<li>{item}</li>" for item in items), "</ul>", "</body></html>"]
    return "\r\n".join(lines).encode(codec)


# UTF-8, so Chromium keeps every line's bytes; but the part's lines are joined: "one two" reads "onetwo", and the
# <p> whose tag is split over two lines becomes a <pclass=k> element.
SPLIT_LINES = ('<html><head><meta charset="utf-8"><title>t</title></head><body><p>one\r\ntwo</p>'
               '<p\r\nclass="k">Café</p></body></html>').encode()
