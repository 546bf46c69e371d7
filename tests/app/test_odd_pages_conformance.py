"""Odd pages the core must read as QtWebEngine shows them: archives whose part header and <meta> disagree on the
charset, legacy-charset pages written again by RecordLens, and SVG titles.

Each page is shown the way the app shows it (an archive from its file, Chromium decoding it), and the core's
charset, XPaths, text map and title are compared with the browser's."""

from __future__ import annotations

import pytest

from recordlens.core.page.dom import parse_html
from recordlens.core.page.mhtml_writer import write_mhtml
from recordlens.core.page.snapshot import read_html, title_from_html
from tests.app.charset_conformance import assert_core_reads_as_shown, shown
from tests.core.charset_archives import CYRILLIC, archive

pytestmark = pytest.mark.app


@pytest.mark.parametrize(
    ("header", "head", "codec"),
    [
        ("utf-8", '<meta charset="windows-1251">', "utf-8"),
        ("utf-8", '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">', "utf-8"),
        ("windows-1251", '<meta charset="koi8-r">', "cp1251"),
        ("windows-1251", "", "cp1251"),
        (None, '<meta charset="windows-1251">', "cp1251"),
        ("windows-1251", '<meta charset="bogus"><meta charset="koi8-r">', "cp1251"),
        ("windows-1251", '<meta charset="utf-8">', "cp1251"),
        ("windows-1251", '<meta charset="x-user-defined">', "cp1251"),
        ("windows-1251", "<!--" + "x" * 1100 + '--><meta charset="koi8-r">', "cp1251"),
        ("windows-1251", '</head><body><meta charset="koi8-r">', "cp1251"),
        ("windows-1251", "</head><body><div>" + "y" * 1100 + '</div><meta charset="koi8-r">', "cp1251"),
        ("windows-1251", "<!--<meta charset=koi8-r>--><script>'<meta charset=koi8-r>'</script>", "cp1251"),
        ("windows-1251", "<meta name=x content='text/html; charset=koi8-r'>", "cp1251"),
        ("windows-1251", "<meta http-equiv=content-type content='text/html; charset=koi8-r' charset=iso-8859-5>",
         "cp1251"),
    ],
)
def test_an_archive_whose_header_and_meta_disagree_reads_as_shown(offline_page, tmp_path, header, head, codec):
    page = f"<html><head>{head}<title>t</title></head><body><ul><li>{CYRILLIC}</li><li>№5 €</li></ul></body></html>"
    path = tmp_path / "page.mhtml"
    path.write_bytes(archive(page.encode(codec), header))
    assert_core_reads_as_shown(offline_page, path)


@pytest.mark.parametrize(
    ("page", "codec"),
    [
        (f'<html><head><meta charset="windows-1251"><title>Кириллица</title></head><body><ul><li>{CYRILLIC}</li>'
         "<li>Ёлка – ёж “кавычки” №5 €</li></ul></body></html>", "cp1251"),
        ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><title>日本</title>'
         "</head><body><ul><li>日本語テキスト</li><li>～ＮＥＣ特殊①②</li></ul></body></html>", "cp932"),
    ],
)
def test_a_legacy_charset_page_written_again_shows_its_text(offline_page, tmp_path, page, codec):
    original = read_html(page.encode(codec))
    path = write_mhtml(tmp_path / "again.mhtml", original.html, date="Mon, 01 Jan 2024 00:00:00 +0000")

    charset, xpaths, text = shown(offline_page, path)
    before = parse_html(original.html)
    assert charset == "utf-8"
    assert xpaths == before.element_xpaths()
    assert text == list(before.text_map.items())
    assert_core_reads_as_shown(offline_page, path)


@pytest.mark.parametrize(
    "html",
    [
        "<html><head></head><body><svg><title>svg title</title></svg><p>x</p></body></html>",
        "<html><head></head><body><svg><title>svg</title></svg><title> Page  &amp; co </title></body></html>",
        "<html><body><svg/><title>after a closed svg</title></body></html>",
        "<html><body><template><title>t</title></template><math><title>m</title></math><p>x</p></body></html>",
    ],
)
def test_the_title_is_document_title(offline_page, html):
    offline_page.load_html(html, "title.html")
    assert offline_page.wait_until_loaded(60_000)
    assert (title_from_html(html) or "") == offline_page.run_js("document.title")
