"""Malformed quoted-printable escapes in an archive: kept as written, as Chromium keeps them, and said where the
page is read (`inspect`, `import`), as broken base64 and undecodable bytes are."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recordlens.core.page.charset import decode_windows_1252
from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.page.snapshot import read_mhtml
from tests.core.cli_runs import run


def archive(body: bytes, *, css: bytes = b"p{}") -> bytes:
    """A Chrome-like archive whose HTML part (and stylesheet) is quoted-printable, its body as written."""
    return (b"From: <Saved by Blink>\r\nSnapshot-Content-Location: https://example.com/p\r\nSubject: p\r\n"
            b'MIME-Version: 1.0\r\nContent-Type: multipart/related;\r\n\ttype="text/html";\r\n\tboundary="B"\r\n\r\n'
            b"--B\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n"
            b"Content-Location: https://example.com/p\r\n\r\n" + body + b"\r\n"
            b"--B\r\nContent-Type: text/css\r\nContent-Transfer-Encoding: quoted-printable\r\n"
            b"Content-Location: https://example.com/s.css\r\n\r\n" + css + b"\r\n--B--\r\n")


BROKEN = b'<html><body><ul class=ZZ"list"><li>Caf=C3=A9 =G1 price =\r\n</li><li>b=E</li></ul></body></html>'


def test_malformed_escapes_are_kept_and_said_with_the_part_their_count_and_the_first() -> None:
    snapshot = read_mhtml(archive(BROKEN))

    assert snapshot.html == '<html><body><ul class=ZZ"list"><li>Café =G1 price </li><li>b=E</li></ul></body></html>'
    assert snapshot.warnings == [
        "Part 1 (text/html, https://example.com/p) has 3 malformed quoted-printable escapes (an '=' followed by "
        "neither two hex digits nor a line break); they were kept as written, as Chromium does. The first "
        "is '=ZZ', on line 1 of the part's body."]


def test_the_first_malformed_escape_is_placed_by_its_line_and_shown_with_the_bytes_after_it() -> None:
    body = b"<html><body>\r\n<p>one=\r\n line</p>\r\n<p>=E\r\n</p></body></html>"
    (said,) = read_mhtml(archive(body)).warnings

    assert "has 1 malformed quoted-printable escape (" in said and "it was kept as written" in said
    assert said.endswith("The first is '=E\\n', on line 4 of the part's body.")


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        # as QtWebEngine shows them: a malformed escape takes the two bytes after it along, "=" or not
        (b"x=A=41y", "x=A=41y"),
        (b"a==41b", "a==41b"),
        (b"a=\rbc", "a=\rbc"),  # not a soft line break that would swallow "bc"
        (b"k=G\r\nl", "k=G\nl"),
    ],
)
def test_a_malformed_escape_reads_as_chromium_reads_it(written: bytes, shown: str) -> None:
    snapshot = read_mhtml(archive(b"<p>" + written + b"=C3=A9</p>"))

    assert snapshot.html == f"<p>{shown}é</p>"
    assert len(snapshot.warnings) == 1 and "1 malformed quoted-printable escape" in snapshot.warnings[0]


@pytest.mark.parametrize(
    "body",
    [
        b"<p>caf=c3=a9 lo=\r\nng</p>",  # lower-case hex digits: decoded by Chromium too
        b"<p>a=3Db</p>=",  # an "=" that ends the body ends its last line
        b"<p>x</p>=  \r\n<p>y</p>",  # blanks after a soft line break came from transport
    ],
)
def test_well_formed_quoted_printable_reads_without_a_warning(body: bytes) -> None:
    assert read_mhtml(archive(body)).warnings == []


def test_a_written_archive_reads_back_without_a_warning() -> None:
    html = "<html><body><p>a = b, =G1 stays, 50% =3D off, ünïcode 日本</p>\n<p>" + "x" * 200 + "=</p></body></html>"
    snapshot = read_mhtml(mhtml_bytes(html))

    assert snapshot.html == html and snapshot.warnings == []


def test_a_stylesheet_with_a_malformed_escape_is_named() -> None:
    (said,) = read_mhtml(archive(b"<p>ok</p>", css=b"p{content:'=XY'}")).warnings

    assert said.startswith("Part 2 (text/css, https://example.com/s.css) has 1 malformed quoted-printable escape")


def test_inspect_and_import_say_the_malformed_escapes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "qp.mhtml"
    page.write_bytes(archive(BROKEN))

    code, out, _ = run(capsys, "inspect", str(page), "--json")
    assert code == 0 and any("3 malformed quoted-printable escapes" in w for w in json.loads(out)["warnings"])

    assert run(capsys, "project", "init", str(tmp_path / "P"))[0] == 0
    code, _, err = run(capsys, "import", str(page), "--project", str(tmp_path / "P"))
    assert code == 0 and "page qp: Part 1 (text/html, https://example.com/p) has 3 malformed quoted-printable" in err


def blink_decoded(body: bytes) -> bytes:
    """Blink's QuotedPrintableDecode (mhtml_parser.cc) of a part's CRLF lines, each given back its CRLF: "=" and
    two hex digits is a byte, "=" CRLF a soft line break, and any other "=" is kept with the two bytes after it."""
    data, out, i = body + b"\r\n", bytearray(), 0
    while i < len(data):
        if data[i : i + 1] != b"=" or len(data) - i < 3:
            out += data[i : i + 1]
            i += 1
            continue
        pair = data[i + 1 : i + 3]
        if pair != b"\r\n":
            out += bytes.fromhex(pair.decode()) if re.fullmatch(rb"[0-9A-Fa-f]{2}", pair) else data[i : i + 3]
        i += 3
    return bytes(out)


def as_parsed(text: str) -> str:
    """Line breaks as the HTML parser reads them: CRLF and a lone CR are LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from([b"=", b"A", b"f", b"0", b"9", b"G", b"x", b"\r\n", b"\xc3"]), max_size=40))
def test_any_quoted_printable_body_reads_as_blink_reads_it(tokens: list[bytes]) -> None:
    body = b"".join(tokens) + b"!"  # not "=" last: Blink's CRLF after the last line is not in the part's body
    # the page says its charset in a <meta> (an "=" written =3D): a part's header decides nothing, as in Chromium
    meta = b"<meta charset=3Dwindows-1252>"
    snapshot = read_mhtml(archive(meta + body))

    assert as_parsed(snapshot.html) == as_parsed(decode_windows_1252(blink_decoded(meta + body)))[:-1]
    malformed = [w for w in snapshot.warnings if "malformed quoted-printable" in w]
    assert bool(malformed) == (re.search(rb"=(?![0-9A-Fa-f]{2}|\r\n)", body + b"\r\n") is not None)
    # A raw byte that is not UTF-8 (b"\xc3" here) Chromium first takes as Latin-1, which blink_decoded leaves out:
    # the core reads it as written, and says that a browser shows the page otherwise.
    assert snapshot.chromium_reads_otherwise == (b"\xc3" in body)
