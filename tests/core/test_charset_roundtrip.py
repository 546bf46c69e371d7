"""A page saved in a legacy charset keeps its text when RecordLens writes it again as MHTML, and an archive
whose part header and <meta> disagree reads as Chromium reads it (the <meta> first).

The expected charsets are what QtWebEngine showed for the same files (tests/app/test_odd_pages_conformance.py
checks them against the browser itself)."""

from __future__ import annotations

import pytest

from recordlens.core.page.charset import meta_declarations
from recordlens.core.page.dom import parse_html
from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.page.snapshot import read_html, read_mhtml
from tests.core.charset_archives import CYRILLIC, archive

DATE = "Mon, 01 Jan 2024 00:00:00 +0000"


LEGACY_PAGES = [
    pytest.param(f'<html><head><meta charset="windows-1251"><title>Кириллица</title></head><body><ul><li>{CYRILLIC}'
                 "</li><li>Ёлка – ёж “кавычки” №5 €</li></ul></body></html>", "cp1251", id="meta-charset"),
    pytest.param('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><title>日本'
                 "</title></head><body><ul><li>日本語テキスト</li><li>～ＮＥＣ特殊①②</li></ul></body></html>", "cp932",
                 id="http-equiv"),
    pytest.param("<html><head><meta name=viewport content=x><META CHARSET='KOI8-R'>"
                 f"<meta http-equiv=content-type content='text/html; charset=\"koi8-r\"'></head><body><p>{CYRILLIC}"
                 "</p></body></html>", "koi8-r", id="two-declarations"),
]


@pytest.mark.parametrize(("page", "codec"), LEGACY_PAGES)
def test_a_legacy_charset_page_keeps_its_text_through_read_write_read(page: str, codec: str) -> None:
    first = read_html(page.encode(codec))
    again = read_mhtml(mhtml_bytes(first.html, date=DATE))

    assert first.html == page
    assert again.charset == "utf-8"
    assert again.warnings == []
    before, after = parse_html(first.html), parse_html(again.html)
    assert after.element_xpaths() == before.element_xpaths()
    assert after.text_map == before.text_map


@pytest.mark.parametrize(("page", "codec"), LEGACY_PAGES)
def test_the_writer_changes_only_the_declared_labels(page: str, codec: str) -> None:
    written = read_mhtml(mhtml_bytes(read_html(page.encode(codec)).html, date=DATE)).html

    labels = [d.label for d in meta_declarations(written.encode())]
    assert labels and all(label == "utf-8" for label in labels)
    for declaration in reversed(list(meta_declarations(page.encode(codec)))):
        page = page[: declaration.start] + "utf-8" + page[declaration.end :]  # the declarations are ASCII
    assert written == page


def test_a_page_declaring_utf_8_or_an_unknown_charset_is_written_unchanged() -> None:
    page = "<html><head><meta charset=UTF8><meta charset=x-klingon></head><body><p>Grüße</p></body></html>"
    assert read_mhtml(mhtml_bytes(page, date=DATE)).html == page


def test_a_later_declaration_a_shorter_label_brings_into_reach_is_made_utf_8_too() -> None:
    # 1024 bytes are looked at past <head>: "windows-1251" -> "utf-8" brings the second <meta> within them
    page = ('<html><head><meta charset="windows-1251"></head><body><div>' + "x" * 990 + "</div>"
            f'<meta charset="koi8-r"><p>{CYRILLIC}</p></body></html>')
    written = mhtml_bytes(page, date=DATE)
    assert read_mhtml(written).charset == "utf-8"
    assert CYRILLIC in read_mhtml(written).html


@pytest.mark.parametrize(
    ("header", "head", "codec", "charset"),
    [
        ("utf-8", '<meta charset="windows-1251">', "utf-8", "windows-1251"),  # the <meta> wins: mojibake
        ("utf-8", '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">', "utf-8", "shift_jis"),
        ("windows-1251", '<meta charset="koi8-r">', "cp1251", "koi8-r"),
        ("windows-1251", "", "cp1251", "windows-1251"),  # without a <meta>, the header
        (None, '<meta charset="windows-1251">', "cp1251", "windows-1251"),
        ("windows-1251", '<meta charset="bogus-x">', "cp1251", "windows-1251"),  # an unknown label is passed over
        ("windows-1251", '<meta charset="bogus"><meta charset="koi8-r">', "cp1251", "koi8-r"),
        ("windows-1251", '<meta charset="utf-16">', "cp1251", "utf-8"),
        ("windows-1251", '<meta charset="x-user-defined">', "cp1251", "windows-1252"),
        ("windows-1251", "<!--" + "x" * 1100 + '--><meta charset="koi8-r">', "cp1251", "koi8-r"),  # still in <head>
        ("windows-1251", '</head><body><meta charset="koi8-r">', "cp1251", "koi8-r"),  # within 1024 bytes
        ("windows-1251", '</head><body><div>' + "y" * 1100 + '</div><meta charset="koi8-r">', "cp1251",
         "windows-1251"),  # past them, out of <head>
        ("windows-1251", "<!--<meta charset=koi8-r>--><script>'<meta charset=koi8-r>'</script>", "cp1251",
         "windows-1251"),  # not tags
        ("windows-1251", "<meta name=x content='text/html; charset=koi8-r'>", "cp1251", "windows-1251"),
        ("windows-1251", "<meta http-equiv=content-type content='text/html; charset=koi8-r' charset=iso-8859-5>",
         "cp1251", "iso-8859-5"),
    ],
)
def test_an_archived_page_is_read_in_the_charset_its_meta_declares_before_its_header(
        header: str | None, head: str, codec: str, charset: str) -> None:
    page = f"<html><head>{head}<title>t</title></head><body><p>{CYRILLIC}</p></body></html>"
    snapshot = read_mhtml(archive(page.encode(codec), header))

    assert snapshot.charset == charset
    assert (CYRILLIC in snapshot.html) == (charset == {"utf-8": "utf-8", "cp1251": "windows-1251"}[codec])
