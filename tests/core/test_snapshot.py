"""Snapshots: reading what Chromium saves, writing what Chromium opens, refusing bad files with a clear reason."""

from __future__ import annotations

import base64
import builtins
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recordlens.core.errors import SnapshotError
from recordlens.core.page.charset import decode_or_replace, resolve_charset
from recordlens.core.page.mhtml_writer import mhtml_bytes, write_mhtml
from recordlens.core.page.snapshot import DEFAULT_URL, Resource, Snapshot, read_html, read_mhtml, read_snapshot


def crlf(text: str, encoding: str = "utf-8") -> bytes:
    """A literal MIME message as written on disk: CRLF line ends."""
    return text.replace("\n", "\r\n").encode(encoding)


def mhtml(*parts: str, boundary: str = "B", top: str = "") -> bytes:
    """A minimal archive around hand-written parts (each part: headers, blank line, body)."""
    head = f'MIME-Version: 1.0\nContent-Type: multipart/related; type="text/html"; boundary="{boundary}"\n{top}\n'
    body = "".join(f"--{boundary}\n{part}\n" for part in parts)
    return crlf(f"{head}{body}--{boundary}--\n")


HTML_PART = "Content-Type: text/html\nContent-Location: http://x/\n\n<html><body>ok</body></html>"

# What Chrome writes with "Save as... Webpage, Single File" (the layout of Blink's MHTMLArchive), by hand
CHROME_MHTML = crlf("""\
From: <Saved by Blink>
Snapshot-Content-Location: https://shop.example.com/cameras?page=2
Subject: =?utf-8?Q?Cam=C3=A9ras_=E2=80=93_Shop?=
Date: Tue, 14 May 2024 07:12:45 -0000
MIME-Version: 1.0
Content-Type: multipart/related;
\ttype="text/html";
\tboundary="----MultipartBoundary--abc----"


------MultipartBoundary--abc----
Content-Type: text/html
Content-ID: <frame-6A1B2C3D4E5F60718293A4B5C6D7E8F9@mhtml.blink>
Content-Transfer-Encoding: quoted-printable
Content-Location: https://shop.example.com/cameras?page=2

<!DOCTYPE html><html><head><meta http-equiv=3D"Content-Type" content=3D"tex=
t/html; charset=3DUTF-8"><link rel=3D"stylesheet" type=3D"text/css" href=3D=
"cid:css-0f4e8a@mhtml.blink" /><title>Cam=C3=A9ras</title></head><body><ul =
class=3D"grid"><li><img src=3D"https://shop.example.com/img/a.png"> Camera =
=E2=80=94 $399</li>
<li><iframe src=3D"cid:frame-99AA@mhtml.blink"></iframe></li></ul></body></=
html>
------MultipartBoundary--abc----
Content-Type: text/css
Content-Transfer-Encoding: quoted-printable
Content-Location: cid:css-0f4e8a@mhtml.blink

@charset "utf-8";

.grid { display: grid; }
------MultipartBoundary--abc----
Content-Type: image/png
Content-Transfer-Encoding: base64
Content-Location: https://shop.example.com/img/a.png

iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGA
WjR9awAAAABJRU5ErkJggg==
------MultipartBoundary--abc----
Content-Type: text/html
Content-ID: <frame-99AA@mhtml.blink>
Content-Transfer-Encoding: quoted-printable

<html><body>ad</body></html>
------MultipartBoundary--abc------
""")


# --- Chromium's own archives ------------------------------------------------------------------------------------


def test_a_chrome_saved_archive_gives_its_html_url_title_and_resources() -> None:
    snapshot = read_mhtml(CHROME_MHTML, name="cameras.mhtml")

    assert snapshot.html.startswith('<!DOCTYPE html><html><head><meta http-equiv="Content-Type" content="text/html')
    assert "Camera — $399</li>\n<li><iframe" in snapshot.html
    assert snapshot.html.endswith("</body></html>")
    assert snapshot.url == "https://shop.example.com/cameras?page=2"
    assert snapshot.title == "Caméras"  # the page's own <title>, as document.title; not the Subject "Caméras – Shop"
    assert snapshot.charset == "utf-8"  # from the page's <meta>, Chrome's part header names none
    assert snapshot.warnings == []
    assert set(snapshot.resources) == {
        "cid:css-0f4e8a@mhtml.blink",
        "https://shop.example.com/img/a.png",
        "cid:frame-99AA@mhtml.blink",
    }
    image = snapshot.resource("https://shop.example.com/img/a.png")
    assert image is not None and image.data.startswith(b"\x89PNG\r\n\x1a\n") and image.content_type == "image/png"


def test_a_chrome_archive_resolves_the_cid_references_of_its_page() -> None:
    snapshot = read_mhtml(CHROME_MHTML)

    stylesheet = snapshot.resource("cid:css-0f4e8a@mhtml.blink")  # saved under a cid: Content-Location
    frame = snapshot.resource("cid:frame-99AA@mhtml.blink")  # saved with a Content-ID only
    assert stylesheet is not None and stylesheet.data == b'@charset "utf-8";\n\n.grid { display: grid; }'
    assert frame is not None and frame.content_id == "frame-99AA@mhtml.blink"
    assert frame.data == b"<html><body>ad</body></html>"
    assert snapshot.resource("cid:nothing@mhtml.blink") is None
    assert snapshot.resource("https://shop.example.com/img/a.png#top") is not None


# --- writing ------------------------------------------------------------------------------------------------------

NON_ASCII_HTML = (
    "<!DOCTYPE html>\n<html><head><title>Café 日本 🎉</title></head>\r\n"
    '<body><p class="price">€ 12 = 3 × 4</p>\t \n<pre>line\rbreaks\r\n\n</pre>' + "é" * 120 + "</body></html>\n"
)
RESOURCES = (
    Resource("https://example.com/logo.png", "logo@example.com", "image/png", bytes(range(256)) * 5),
    Resource("https://example.com/style.css", None, "text/css; charset=utf-8", "a::after{content:'→'}".encode()),
    Resource("https://example.com/empty.js", None, "", b""),
)


def test_a_written_archive_reads_back_the_same_html_url_title_and_resources() -> None:
    data = mhtml_bytes(NON_ASCII_HTML, url="https://example.com/ü?q=日本", title="Café 🎉 日本", resources=RESOURCES)
    snapshot = read_mhtml(data)

    assert snapshot.html == NON_ASCII_HTML
    assert snapshot.url == "https://example.com/ü?q=日本"
    assert snapshot.title == "Café 日本 🎉"  # the page's own <title>; the Subject written only stands in for none
    assert snapshot.charset == "utf-8"
    assert list(snapshot.resources.values()) == list(RESOURCES)
    assert snapshot.resource("cid:logo@example.com") == RESOURCES[0]
    assert snapshot.warnings == []


def test_a_written_archive_has_chromium_layout() -> None:
    data = mhtml_bytes(NON_ASCII_HTML, url="https://example.com/", title="Plain title", resources=RESOURCES)
    head, _, body = data.partition(b"\r\n\r\n")

    assert head.split(b"\r\n")[:3] == [
        b"From: <Saved by RecordLens>",
        b"Snapshot-Content-Location: https://example.com/",
        b"Subject: Plain title",
    ]
    assert re.search(rb"\r\nDate: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d -0000\r\n", head)
    assert b'\r\nMIME-Version: 1.0\r\nContent-Type: multipart/related;\r\n\ttype="text/html";\r\n' in head
    boundary = re.search(rb'boundary="(----MultipartBoundary--[0-9a-f]+----)"', head)
    assert boundary is not None
    parts = body.split(b"--" + boundary.group(1))
    assert parts[-1] == b"--\r\n"  # the closing boundary ends the file
    html_head = parts[1].split(b"\r\n\r\n")[0]
    assert b"Content-Type: text/html; charset=utf-8" in html_head
    assert b"Content-Transfer-Encoding: quoted-printable\r\nContent-Location: https://example.com/" in html_head
    assert all(b"Content-Transfer-Encoding: base64" in part for part in parts[2:-1])
    assert max(len(line) for line in body.split(b"\r\n")) <= 76
    assert b"\n" not in data.replace(b"\r\n", b"")  # every line ends CRLF


def test_the_title_defaults_to_the_pages_own_title() -> None:
    with_title = read_mhtml(mhtml_bytes("<title> A &amp;\n B </title>"))
    without = read_mhtml(mhtml_bytes("<p>no title</p>"))

    assert with_title.title == "A & B"
    assert without.title is None
    assert without.url == DEFAULT_URL


def test_write_mhtml_saves_a_file_that_read_snapshot_opens(tmp_path: Path) -> None:
    target = tmp_path / "page.mhtml"
    target.write_bytes(b"an older version")

    written = write_mhtml(target, NON_ASCII_HTML, title="T", resources=RESOURCES)
    snapshot = read_snapshot(written)

    assert written == target
    assert snapshot.source == target and snapshot.html == NON_ASCII_HTML
    assert [p.name for p in tmp_path.iterdir()] == ["page.mhtml"]  # no temporary file left behind


@pytest.mark.parametrize(
    ("arguments", "complaint"),
    [
        ({"url": "http://x/\r\nX-Evil: 1"}, "line break"),
        ({"url": ""}, "cannot be empty"),
        ({"resources": [Resource("", None, "image/png", b"")]}, "needs a location"),
        ({"resources": [Resource("http://x/a", None, "", b"1"), Resource("http://x/a", None, "", b"2")]}, "Two"),
        ({"resources": [Resource("http://x/a", "<id@x>", "", b"")]}, "without angle brackets"),
    ],
)
def test_the_writer_refuses_what_would_not_read_back_the_same(arguments: dict, complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        mhtml_bytes("<p>x</p>", **arguments)


def test_html_that_contains_boundary_text_is_not_split() -> None:
    html = "<pre>\n------MultipartBoundary--abc----\n--B--\n</pre>"
    assert read_mhtml(mhtml_bytes(html)).html == html


@settings(derandomize=True, deadline=2000, max_examples=100)
@given(html=st.text(), title=st.text())
def test_any_unicode_html_and_title_survive_a_round_trip(html: str, title: str) -> None:
    snapshot = read_mhtml(mhtml_bytes(html, title=title))
    assert snapshot.html == html
    assert snapshot.title == title
    assert snapshot.warnings == []


# --- transfer encodings -----------------------------------------------------------------------------------------


def test_quoted_printable_soft_line_breaks_and_escaped_equals_are_decoded() -> None:
    part = (
        "Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
        '<a href=3D"http://x/?a=3D1&amp;b=3D2">lo=\nng li=\nne</a>  =\n\n'
        "<p>caf=C3=A9=20\n=E6=97=A5=E6=9C=AC</p>\t"
    )
    snapshot = read_mhtml(mhtml(part))

    # blanks that end an encoded line came from transport (RFC 2045); encoded blanks stay
    assert snapshot.html == '<a href="http://x/?a=1&amp;b=2">long line</a>  \n<p>café \n日本</p>'


def test_a_base64_html_part_is_decoded() -> None:
    html = "<html><body><p>naïve 日本</p></body></html>"
    encoded = base64.encodebytes(html.encode("utf-8")).decode("ascii")
    part = f"Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: base64\n\n{encoded}"

    assert read_mhtml(mhtml(part)).html == html


def test_an_archive_with_bare_lf_lines_and_transport_padding_is_read() -> None:
    data = b"Content-Type: multipart/related; boundary=B\nMIME-Version: 1.0\n\n--B  \n" + (
        b"Content-Type: text/html\n\n<p>lf</p>\n--B--\n"
    )
    assert read_snapshot(data).html == "<p>lf</p>"


# --- charsets -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("part_charset", "meta", "expected_charset", "expected_text"),
    [
        ("; charset=utf-8", 'charset="iso-8859-2"', "iso-8859-2", "Łódź"),  # the page's meta wins, as in Chromium
        ("", 'charset="iso-8859-2"', "iso-8859-2", "Łódź"),  # without one, <meta charset>
        ("", 'http-equiv="Content-Type" content="text/html; charset=ISO-8859-2"', "iso-8859-2", "Łódź"),
    ],
)
def test_the_charset_comes_from_the_pages_meta_then_the_part_header(
    part_charset: str, meta: str, expected_charset: str, expected_text: str
) -> None:
    page = f"<html><head><meta {meta if '=' in meta else f'charset={meta}'}></head><body>Łódź</body></html>"
    part = crlf(f"Content-Type: text/html{part_charset}\n\n") + page.encode("iso-8859-2")
    data = crlf('Content-Type: multipart/related; boundary="B"\n\n--B\n') + part + b"\r\n--B--\r\n"

    snapshot = read_mhtml(data)

    assert snapshot.charset == expected_charset
    assert expected_text in snapshot.html
    assert snapshot.warnings == []


def test_an_undeclared_windows_1252_page_is_decoded_with_a_warning() -> None:
    page = "<p>Café – “quoted” €</p>".encode("cp1252")
    snapshot = read_html(page)

    assert snapshot.html == "<p>Café – “quoted” €</p>"
    assert snapshot.charset == "windows-1252"
    assert "not valid UTF-8" in snapshot.warnings[0] and "windows-1252" in snapshot.warnings[0]


def test_latin_1_labels_decode_as_windows_1252_like_a_browser() -> None:
    snapshot = read_html(b'<meta charset="ISO-8859-1"><p>\x80 \x81 \xe9</p>')

    assert snapshot.charset == "windows-1252"
    assert snapshot.html.endswith("<p>€ \x81 é</p>")  # 0x81 is a C1 control in WHATWG windows-1252
    assert snapshot.warnings == []


@pytest.mark.parametrize(
    ("data", "charset", "text"),
    [
        (b"\xef\xbb\xbf<p>\xc3\xa9</p>", "utf-8", "<p>é</p>"),
        ("<p>日本</p>".encode("utf-16-le").join([b"\xff\xfe", b""]), "utf-16le", "<p>日本</p>"),
        ("<p>日本</p>".encode("utf-16-be").join([b"\xfe\xff", b""]), "utf-16be", "<p>日本</p>"),
        (
            '<meta http-equiv="content-type" content="text/html;charset=Shift_JIS"><p>日本</p>'.encode("cp932"),
            "shift_jis",
            "<p>日本</p>",
        ),
        (b"<p>\xe6\x97\xa5</p>", "utf-8", "<p>日</p>"),
    ],
)
def test_a_plain_html_charset_comes_from_its_bom_then_its_meta_else_utf_8(data: bytes, charset: str, text: str) -> None:
    snapshot = read_html(data)

    assert snapshot.charset == charset
    assert snapshot.html.endswith(text)
    assert snapshot.warnings == []


def test_an_unknown_charset_name_is_ignored_with_a_warning() -> None:
    part = "Content-Type: text/html; charset=klingon-8\n\n<p>caf\u00e9</p>"
    snapshot = read_mhtml(mhtml(part))

    assert snapshot.html == "<p>café</p>" and snapshot.charset == "utf-8"
    assert snapshot.warnings == [
        "The page's charset 'klingon-8' (from its Content-Type header) is not a known encoding; it was ignored."
    ]


@pytest.mark.parametrize(
    ("label", "data", "charset", "text"),
    [
        ("koi8-ru", "Привет".encode("koi8_u"), "koi8-u", "Привет"),  # labels Python does not know
        ("x-mac-roman", "Café “q”".encode("mac_roman"), "macintosh", "Café “q”"),
        ("csibm866", "Привет".encode("cp866"), "ibm866", "Привет"),
        ("visual", "שלום".encode("iso8859_8"), "iso-8859-8", "שלום"),
        ("iso_8859-1:1987", "Café “q”".encode("cp1252"), "windows-1252", "Café “q”"),  # not strict ISO-8859-1
        ("unicode", "Café".encode(), "utf-8", "Café"),  # UTF-16 in an ASCII <meta>: the standard reads UTF-8
        ("x-user-defined", "Café “q”".encode("cp1252"), "windows-1252", "Café “q”"),
    ],
)
def test_charset_labels_are_the_web_s_own(label: str, data: bytes, charset: str, text: str) -> None:
    snapshot = read_html(f'<meta charset="{label}">'.encode() + data)

    assert (snapshot.charset, snapshot.html.split(">", 1)[1], snapshot.warnings) == (charset, text, [])


@pytest.mark.parametrize(("label", "data", "text"), [
    ("windows-1250", b"a\x81b", "a\x81b"),  # a code page's gap from 0x80 to 0x9F is that C1 control
    ("windows-1255", b"\xca\x9c", "\u05ba\x9c"),  # and 0xCA is a Hebrew point, in the standard's table only
    ("windows-874", b"\x81\x85", "\x81\u2026"),
    ("gbk", b"\x80\xc4\xe3", "\u20ac\u4f60"),  # a lone 0x80 is the euro sign
    ("koi8-u", bytes([0xAE, 0xBE, 0xC1]), "\u045e\u040e\u0430"),  # KOI8-RU's two Belarusian letters
])
def test_bytes_python_leaves_out_decode_as_the_encoding_standard_says(label: str, data: bytes, text: str) -> None:
    snapshot = read_html(f'<meta charset="{label}">'.encode() + data)

    assert snapshot.html.split(">", 1)[1] == text and snapshot.warnings == []


@pytest.mark.parametrize("label", ["cp037", "utf-7", "utf-32", "hz", "cp850", "latin-1", "base64", "rot13"])
def test_a_python_codec_no_browser_knows_is_an_unknown_charset(label: str) -> None:
    # cp037 would turn an ASCII page into EBCDIC garbage, utf-7 would decode "Caf+AOk-" to "Café": a browser
    # ignores such a <meta> and reads the page as UTF-8 (or windows-1252)
    snapshot = read_html(f'<meta charset="{label}"><p>Caf+AOk- \u00e9</p>'.encode())

    assert snapshot.charset == "utf-8" and snapshot.html.endswith("<p>Caf+AOk- é</p>")
    assert snapshot.warnings == [f"The page's charset {label!r} (from its <meta> tag) is not a known encoding; "
                                 "it was ignored."]


def test_an_encoding_browsers_refuse_to_decode_reads_as_one_replacement_character() -> None:
    part = 'Content-Type: text/html\n\n<meta charset="iso-2022-kr"><p>hidden</p>'
    snapshot = read_mhtml(mhtml(part))

    assert snapshot.html == "\ufffd" and snapshot.charset == "replacement"
    assert "browsers do not decode" in snapshot.warnings[0]


def test_a_part_header_naming_such_an_encoding_is_ignored_as_chromium_ignores_it() -> None:
    snapshot = read_mhtml(mhtml("Content-Type: text/html; charset=iso-2022-kr\n\n<p>hidden</p>"))

    assert snapshot.html == "<p>hidden</p>" and snapshot.charset == "windows-1252"  # its bytes are ASCII
    assert "'iso-2022-kr' (from its Content-Type header) was ignored" in snapshot.warnings[0]


def test_x_user_defined_maps_high_bytes_to_private_use_characters() -> None:
    charset = resolve_charset("x-user-defined")
    assert charset is not None
    assert decode_or_replace(b"<p>a\x80\xff</p>", charset, "the page", []) == "<p>a\uf780\uf7ff</p>"
    # a part's header naming it decides nothing (Chromium ignores the header): the bytes are read as detected
    body = base64.b64encode(b"<p>a\x80\xff</p>").decode()
    snapshot = read_mhtml(mhtml(f"Content-Type: text/html; charset=x-user-defined\n"
                                f"Content-Transfer-Encoding: base64\n\n{body}"))
    assert snapshot.charset != "x-user-defined" and "\uf780" not in snapshot.html


def test_bytes_invalid_in_the_declared_charset_become_u_fffd_with_a_warning() -> None:
    snapshot = read_html(b'<meta charset="utf-8"><p>ok \xff\xfe then</p>')

    assert snapshot.html.endswith("<p>ok \ufffd\ufffd then</p>")
    assert snapshot.warnings == [
        "Some bytes of the page are not valid utf-8 (the first at byte 28); they were replaced with U+FFFD."
    ]


# --- URL, title, resources ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("subject", "title"),
    [
        ("=?utf-8?Q?Caf=C3=A9_au_lait?=", "Café au lait"),
        ("=?UTF-8?B?5pel5pys?=", "日本"),
        ("Re: =?iso-8859-1?q?caf=E9?= =?utf-8?B?8J+OiQ==?=\n and more", "Re: café🎉 and more"),  # folded
        ("=?utf-8*en?Q?tagged?=", "tagged"),
        ("plain ASCII", "plain ASCII"),
    ],
)
def test_the_subject_header_gives_a_page_without_a_title_its_title_rfc_2047_decoded(subject: str, title: str) -> None:
    assert read_mhtml(mhtml(HTML_PART, top=f"Subject: {subject}\n")).title == title


def test_without_a_subject_the_title_comes_from_the_html() -> None:
    part = "Content-Type: text/html\n\n<html><head><title>\n  Jobs &amp; careers\n</title></head></html>"
    assert read_mhtml(mhtml(part)).title == "Jobs & careers"


def test_without_snapshot_content_location_the_url_is_the_html_parts_location() -> None:
    assert read_mhtml(mhtml(HTML_PART)).url == "http://x/"


def test_a_page_saved_as_html_only_gives_its_saved_from_url() -> None:
    snapshot = read_html(b"<!-- saved from url=(0022)http://example.com/a -->\n<html><title>t</title></html>")
    assert snapshot.url == "http://example.com/a" and snapshot.title == "t" and snapshot.resources == {}


def test_two_parts_for_one_location_keep_the_later_like_chromium_and_say_so() -> None:
    image = "Content-Type: image/gif\nContent-Location: http://x/a.gif\nContent-Transfer-Encoding: base64\n\n"
    snapshot = read_mhtml(mhtml(HTML_PART, image + "AQ==", image + "Ag=="))

    assert snapshot.resource("http://x/a.gif") == Resource("http://x/a.gif", None, "image/gif", b"\x02")
    assert "Two parts are saved for http://x/a.gif" in snapshot.warnings[0]


def test_a_resource_part_that_cannot_be_decoded_is_dropped_with_a_warning() -> None:
    bad = "Content-Type: image/gif\nContent-Location: http://x/a.gif\nContent-Transfer-Encoding: base64\n\nAQA"
    snapshot = read_mhtml(mhtml(HTML_PART, bad))

    assert snapshot.resources == {}
    assert "Part 2 (image/gif, http://x/a.gif) cannot be decoded (broken base64 data" in snapshot.warnings[0]


def test_the_start_parameter_picks_the_root_part() -> None:
    first = "Content-Type: text/html\nContent-ID: <other>\n\n<p>other</p>"
    root = "Content-Type: text/html\nContent-ID: <root@x>\n\n<p>root</p>"
    data = mhtml(first, root).replace(b'type="text/html";', b'type="text/html"; start="<root@x>";')

    snapshot = read_mhtml(data)
    assert snapshot.html == "<p>root</p>" and snapshot.resource("cid:other") is not None


# --- bad input ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "reasons"),
    [
        (crlf("MIME-Version: 1.0\nContent-Type: text/plain\n\n<p>x</p>"), ["not an MHTML archive", "text/plain"]),
        (crlf("MIME-Version: 1.0\nSubject: x\n\n<p>x</p>"), ["not an MHTML archive", "no Content-Type"]),
        (crlf("MIME-Version: 1.0\nContent-Type: multipart/related"), ["not an MHTML archive", "no blank line"]),
        (crlf("Content-Type: multipart/related; type=text/html\n\n--B\n"), ["gives no boundary"]),
        (crlf('Content-Type: multipart/related; boundary="B"\n\nno parts here'), ["no part starts", "'B'"]),
        (
            mhtml("Content-Type: image/png\nContent-Location: http://x/a.png\n\nPNG", "Content-Type: text/css\n\na{}"),
            ["no HTML part", "image/png, text/css"],
        ),
        (
            crlf('Content-Type: multipart/related; boundary="B"\n\n--B\nContent-Type: text/html\n\n<html><body><p>cu'),
            ["truncated", "ends inside the HTML part", "Save the page again"],
        ),
        (
            crlf('Content-Type: multipart/related; boundary="B"\n\n--B\nContent-Type: image/png\n\nAAAA\n--B\nConte'),
            ["no HTML part", "probably truncated"],
        ),
        (
            mhtml("Content-Type: text/html\nContent-Transfer-Encoding: base64\n\nPGh0b"),
            ["HTML part 1 (text/html, with no location) cannot be decoded", "broken base64"],
        ),
        (
            mhtml("Content-Type: text/html\nContent-Transfer-Encoding: x-uuencode\n\nbegin"),
            ["cannot be decoded", "unknown Content-Transfer-Encoding 'x-uuencode'"],
        ),
    ],
    ids=[
        "not-multipart",
        "no-content-type",
        "no-header-end",
        "no-boundary",
        "boundary-never-used",
        "no-html-part",
        "truncated-html",
        "truncated-before-html",
        "broken-base64-html",
        "unknown-transfer-encoding",
    ],
)
def test_bad_archives_raise_snapshot_error_naming_the_file_and_the_reason(data: bytes, reasons: list[str]) -> None:
    with pytest.raises(SnapshotError) as raised:
        read_snapshot(data, name="shop.mhtml")

    message = str(raised.value)
    assert message.startswith("Cannot read shop.mhtml: ")
    for reason in reasons:
        assert reason in message


def test_an_archive_cut_after_its_html_keeps_the_complete_parts_and_says_what_was_lost() -> None:
    whole = mhtml(
        HTML_PART,
        "Content-Type: text/css\nContent-Location: http://x/a.css\n\na{}",
        "Content-Type: "
        "image/png\nContent-Location: http://x/b.png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgoAAAA",
    )
    cut = whole[: whole.index(b"iVBORw0K") + 10]

    snapshot = read_mhtml(cut, name="cut.mhtml")

    assert snapshot.html == "<html><body>ok</body></html>"
    assert set(snapshot.resources) == {"http://x/a.css"}
    assert snapshot.warnings == [
        "The archive ends before its closing boundary (the file is truncated): part 3 (image/png, "
        "http://x/b.png) was cut off and was dropped; the HTML and the other parts are complete."
    ]


PNG_PART = ("Content-Type: image/png\nContent-Location: http://x/b.png\nContent-Transfer-Encoding: base64\n\n"
            + base64.encodebytes(b"\x89PNG\r\n\x1a\n" + bytes(range(60))).decode())  # a line, then "...Nzg5Ojs="


def test_a_whole_last_part_is_kept_when_only_the_closing_boundary_is_missing() -> None:
    whole = mhtml(HTML_PART, PNG_PART)
    snapshot = read_mhtml(whole[: whole.rindex(b"\r\n--B--")], name="noclose.mhtml")

    assert snapshot.resources["http://x/b.png"].data == b"\x89PNG\r\n\x1a\n" + bytes(range(60))
    assert snapshot.warnings == [
        "The archive lacks only its closing boundary: its last part, part 2 (image/png, http://x/b.png), is whole "
        "(its base64 ends with its final padding) and was kept."]


@pytest.mark.parametrize("cut", [2, 5])  # inside a group of four letters: "...Nzg5Oj", "...Nzg"
def test_a_last_part_cut_inside_its_base64_is_still_said_cut_off_and_dropped(cut: int) -> None:
    whole = mhtml(HTML_PART, PNG_PART)
    end = whole.rindex(b"=\r\n\r\n--B--") + 1
    snapshot = read_mhtml(whole[: end - cut], name="cut.mhtml")

    assert "http://x/b.png" not in snapshot.resources
    assert snapshot.warnings == [
        "The archive ends before its closing boundary (the file is truncated): part 2 (image/png, "
        "http://x/b.png) was cut off and was dropped; the HTML and the other parts are complete."]


def test_a_last_part_whose_end_cannot_be_checked_is_dropped_as_possibly_cut() -> None:
    # Plain text, and base64 cut after a whole group of four letters (no padding), read the same whole or cut.
    css = mhtml(HTML_PART, "Content-Type: text/css\nContent-Location: http://x/a.css\n\na{color:red}")
    png = mhtml(HTML_PART, PNG_PART)
    for cut, part in [(css[: css.rindex(b"\r\n--B--")], "part 2 (text/css, http://x/a.css)"),
                      (png[: png.rindex(b"Ojs=")], "part 2 (image/png, http://x/b.png)")]:
        snapshot = read_mhtml(cut)

        assert len(snapshot.resources) == 0
        assert snapshot.warnings == [
            f"The archive ends before its closing boundary (the file may be truncated): {part} may have been cut "
            "off (where it ends cannot be checked) and was dropped; the HTML and the other parts are complete."]


def test_an_archive_that_only_lacks_its_closing_boundary_is_read_with_a_warning() -> None:
    whole = mhtml(HTML_PART)
    snapshot = read_mhtml(whole[: whole.rindex(b"--B--")])

    assert snapshot.html == "<html><body>ok</body></html>"
    assert "ends before its closing boundary, but its HTML ends with </html>" in snapshot.warnings[0]


def test_an_archive_cut_right_after_a_boundary_line_says_it_may_be_truncated() -> None:
    whole = mhtml(HTML_PART)
    snapshot = read_mhtml(whole[: whole.rindex(b"--B--")] + b"--B\r\n")

    assert snapshot.html == "<html><body>ok</body></html>"
    assert "may have been truncated after its last complete part" in snapshot.warnings[0]


def test_a_file_over_max_bytes_is_refused_before_it_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.mhtml"
    big.write_bytes(mhtml(HTML_PART))

    def no_reading(*args: object, **kwargs: object) -> None:
        raise AssertionError("the file was opened")

    monkeypatch.setattr(Path, "open", no_reading)
    monkeypatch.setattr(Path, "read_bytes", no_reading)
    monkeypatch.setattr(builtins, "open", no_reading)
    with pytest.raises(SnapshotError, match=r"big\.mhtml: it is [\d,]+ bytes, more than the limit of 100 bytes"):
        read_snapshot(big, max_bytes=100)


def test_bytes_over_max_bytes_are_refused() -> None:
    with pytest.raises(SnapshotError, match="Cannot read the snapshot: it is 1,001 bytes, more than the limit"):
        read_snapshot(b"x" * 1001, max_bytes=1000)


def test_missing_empty_and_folder_sources_are_refused_clearly(tmp_path: Path) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"  \n")

    with pytest.raises(SnapshotError, match=r"missing\.mhtml: the file does not exist"):
        read_snapshot(tmp_path / "missing.mhtml")
    with pytest.raises(SnapshotError, match=r"empty\.html: the file is empty"):
        read_snapshot(empty)
    with pytest.raises(SnapshotError, match="it is a folder"):
        read_snapshot(tmp_path)


# --- format sniffing ------------------------------------------------------------------------------------------------


def test_read_snapshot_tells_mhtml_from_html_by_content(tmp_path: Path) -> None:
    as_html = tmp_path / "saved.html"
    as_html.write_bytes(mhtml(HTML_PART))
    as_mhtml = tmp_path / "plain.mhtml"
    as_mhtml.write_bytes(b"<html><body>plain</body></html>")
    plain = tmp_path / "plain.html"
    plain.write_bytes(b"\n<html><body>plain</body></html>")

    assert read_snapshot(as_html).url == "http://x/"
    assert "named .html but holds an MHTML archive" in read_snapshot(as_html).warnings[0]
    assert read_snapshot(as_mhtml).html == "<html><body>plain</body></html>"
    assert "named .mhtml but holds plain HTML" in read_snapshot(as_mhtml).warnings[0]
    assert read_snapshot(plain).warnings == [] and read_snapshot(str(plain)).source == plain
    assert read_snapshot(CHROME_MHTML).title == "Caméras"


def test_a_snapshot_is_a_plain_dataclass_others_can_build() -> None:
    snapshot = Snapshot(html="<p/>", url=None, title=None, charset="utf-8")
    assert snapshot.resources == {} and snapshot.warnings == [] and snapshot.resource("cid:x") is None


# --- size (timing lives in bench/snapshot.py) ----------------------------------------------------------------


def test_a_3_mb_archive_with_resources_reads_completely() -> None:
    html = "<html><body>" + '<div class="card">Caméra numérique = 399 €</div>\n' * 50_000 + "</body></html>"
    images = [Resource(f"https://example.com/{i}.png", None, "image/png", bytes(40_000)) for i in range(20)]
    data = mhtml_bytes(html, resources=images)
    assert len(data) > 3_000_000
    snapshot = read_snapshot(data)
    assert snapshot.html == html and len(snapshot.resources) == 20


# --- archives Chromium opens that are not one flat multipart/related -------------------------------------------


def test_a_single_part_archive_of_html_alone_is_read_as_its_page() -> None:
    data = crlf("MIME-Version: 1.0\nSubject: Shop\nContent-Type: text/html; charset=utf-8\n"
                "Content-Transfer-Encoding: quoted-printable\nContent-Location: https://shop.example/\n\n"
                "<html><head><title>Shop</title></head><body><p>Caf=C3=A9</p></body></html>\n")
    snapshot = read_mhtml(data)

    assert snapshot.html.startswith("<html>") and "<p>Café</p>" in snapshot.html
    assert (snapshot.url, snapshot.title, snapshot.resources, snapshot.warnings) == (
        "https://shop.example/", "Shop", {}, [])


def test_html_inside_a_nested_multipart_is_found_as_chromium_finds_it() -> None:
    inner = ('Content-Type: multipart/alternative; boundary="IN"\n\n--IN\nContent-Type: text/plain\n\nplain\n'
             "--IN\nContent-Type: text/html\nContent-Location: http://x/\n\n<html><body>ok</body></html>\n--IN--\n")
    image = "Content-Type: image/png\nContent-Location: http://x/a.png\nContent-Transfer-Encoding: base64\n\nAAEC"
    snapshot = read_mhtml(mhtml(inner, image))

    assert snapshot.html.strip() == "<html><body>ok</body></html>"
    assert snapshot.url == "http://x/" and snapshot.resources["http://x/a.png"].data == b"\x00\x01\x02"


def test_hostile_nesting_of_multiparts_is_cut_with_a_warning() -> None:
    part = "Content-Type: text/html\nContent-Location: http://x/\n\n<html><body>deep</body></html>"
    for depth in range(40):  # forty multiparts, each inside the last
        part = f'Content-Type: multipart/mixed; boundary="N{depth}"\n\n--N{depth}\n{part}\n--N{depth}--\n'
    snapshot = read_mhtml(mhtml(part, HTML_PART))  # the page deep inside is not reached; the next part is
    assert snapshot.html.endswith("<body>ok</body></html>")
    assert any("nests multiparts more than 8 deep" in w for w in snapshot.warnings)


def test_a_frame_saved_before_the_page_is_shown_as_chromium_shows_it_and_said() -> None:
    frame = "Content-Type: text/html\nContent-Location: http://x/frame\n\n<p>frame</p>"
    page = "Content-Type: text/html\nContent-Location: http://x/\n\n<p>page</p>"
    top = "Snapshot-Content-Location: http://x/\n"
    snapshot = read_mhtml(mhtml(frame, page, top=top))

    assert snapshot.html == "<p>frame</p>"  # Chromium's rule: the first HTML part
    assert snapshot.warnings == ["The HTML shown (part 1 (text/html, http://x/frame)) is not the saved page "
                                 "(http://x/): the page's own HTML is part 2 (text/html, http://x/), after it: "
                                 "Chromium shows the first HTML part too, so this is what it shows of the file."]
    lost = read_mhtml(mhtml(frame, top=top))
    assert "may be damaged, and the page's own HTML part missing or unreadable" in lost.warnings[0]
