"""An MHTML part's header charset decides nothing, as in Chromium (tests/app/test_archive_charset_detection_
conformance.py compares these rules with QtWebEngine itself): a page without a byte order mark or a <meta> is
read in the charset its bytes are detected in, and a header that would have given it another text is said.
Scores follow: the text keys are those the browser shows."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from recordlens.core.page import read_snapshot
from recordlens.core.page.charset import decode_html, decode_served_html
from recordlens.core.page.charset_detection import guess_charset
from recordlens.core.page.dom import parse_html
from tests.core.charset_archives import CYRILLIC, archive
from tests.core.cli_runs import run

FRENCH = "Café crème brûlée naïve"
SHOP = b"<html><head><title>Shop</title></head><body><ul><li><b>Camera</b><span>\xa0</span></li>" \
       b"<li><b>Lens</b><span>\xa0</span></li></ul></body></html>"  # windows-1252: a no-break space in each item


def read(raw: bytes, header: str | None) -> tuple[str, str, list[str]]:
    warnings: list[str] = []
    text, charset = decode_html(raw, header, warnings)
    return text, charset, warnings


@pytest.mark.parametrize(
    ("text", "codec", "header", "charset"),
    [
        (FRENCH, "cp1252", "utf-8", "windows-1252"),
        (FRENCH, "cp1252", "shift_jis", "windows-1252"),
        (FRENCH, "utf-8", "windows-1252", "utf-8"),
        (FRENCH, "utf-8", "koi8-r", "utf-8"),
        (CYRILLIC, "cp1251", "koi8-r", "windows-1251"),
        (CYRILLIC, "koi8-r", "windows-1251", "koi8-r"),
        (CYRILLIC, "cp1251", None, "windows-1251"),
        ("東京の天気は晴れです", "cp932", "windows-1252", "shift_jis"),
        ("北京今天的天气很好，我们去公园散步吧", "gbk", None, "gbk"),
        ("台北今天的天氣很好，我們去公園散步吧", "big5", None, "big5"),
        ("안녕하세요 세계 오늘 날씨", "euc-kr", "gbk", "euc-kr"),
        ("Zażółć gęślą jaźń", "iso8859-2", "windows-1250", "iso-8859-2"),
        ("Příliš žlutý kůň úpěl ďábelské ódy", "cp1250", None, "windows-1250"),
        ("Günaydın dünya, şimdi İstanbul", "cp1254", None, "windows-1254"),
        ("Καλημέρα κόσμε", "iso8859-7", None, "iso-8859-7"),
        ("plain text", "ascii", "utf-8", "windows-1252"),
    ],
)
def test_a_page_without_a_meta_is_read_as_its_bytes_read_whatever_its_header(text, codec, header, charset) -> None:
    raw = f"<html><body><p>{text}</p><p>two</p></body></html>".encode(codec)
    decoded, found, _ = read(raw, header)
    assert found == charset
    assert text in decoded


# A long English page with the typographic quotes and dashes that read alike in windows-1251 and windows-874,
# then one line with a Latin-1 sign; and short lines of signs alone. Chromium reads each as windows-1252
# (tests/app/test_archive_charset_detection_conformance.py holds the rule to QtWebEngine on the same pages).
ENGLISH = "<p>This is a long English page. It’s got “smart quotes” and – dashes – in many places. </p>\n" * 50
WESTERN_LINES = ["Add ½ cup sugar", "Size: 10 × 20", "Only £5 ¦ tax", "Temp ±2°", "x² + y³", "Ages 3–5 · ½ off"]
WESTERN_SHORT = ["½ price • free shipping", "Price ½ off", "Total: £40 ¦ VAT", "20 × 30 cm ± 2", "Price ¼ off",
                 "café ½ price", "Item 1 ... 10 ¥ 200 × 3", "Add ½ cup sugar"]


def long_western_page(line: str) -> bytes:
    return f"<html><head><title>t</title></head><body>{ENGLISH}<p>{line}</p><p>two</p></body></html>".encode("cp1252")


def short_western_page(line: str) -> bytes:
    return f"<html><head><title>t</title></head><body><p>{line}</p><p>two</p></body></html>".encode("cp1252")


@pytest.mark.parametrize("raw", [*(pytest.param(long_western_page(line), id=f"long: {line}") for line in WESTERN_LINES),
                                 *(pytest.param(short_western_page(line), id=line) for line in WESTERN_SHORT)])
def test_one_latin_1_sign_leaves_a_western_page_in_windows_1252(raw: bytes) -> None:
    # a lone `½` costs no more than the lone letter another code page reads at its byte (`ѕ` in windows-1251)
    assert guess_charset(raw).charset == ("windows-1252", "cp1252")
    assert read(raw, None)[:2] == (raw.decode("cp1252"), "windows-1252")


def test_a_page_in_iso_8859_15_reads_as_chromium_shows_it() -> None:
    # Chromium names no page iso-8859-15 (checked in QtWebEngine): a French sentence in it shows as windows-1252,
    # the euro sign as `¤` and each `œ` as `½`
    text = "Le prix est de 5 € pour une œuvre, et 10 € pour deux œuvres du cœur"
    raw = f"<html><body><p>{text}</p><p>two</p></body></html>".encode("iso8859-15")
    decoded, charset, _ = read(raw, None)
    assert charset == "windows-1252"
    assert "Le prix est de 5 ¤ pour une ½uvre" in decoded


def test_a_header_that_would_give_another_text_is_said() -> None:
    raw = f"<p>{FRENCH}</p>".encode("cp1252")
    _, charset, warnings = read(raw, "shift_jis")
    assert charset == "windows-1252"
    assert ("The page's charset 'shift_jis' (from its Content-Type header) was ignored, as Chromium ignores an "
            "archive part's header: the page was read as windows-1252, which gives it another text.") in warnings
    # a header naming the charset detected only confirms it: nothing to say
    assert read(raw, "windows-1252")[2] == []
    # nor a header whose charset gives the same text (ASCII reads alike in every one)
    assert read(b"<p>plain</p>", "utf-8") == ("<p>plain</p>", "windows-1252", [])


def test_the_meta_and_the_byte_order_mark_still_come_first() -> None:
    assert read(f'<meta charset="windows-1251"><p>{FRENCH}</p>'.encode("cp1252"), "utf-8")[1] == "windows-1251"
    assert read(b"\xef\xbb\xbf" + FRENCH.encode(), "windows-1252")[:2] == (FRENCH, "utf-8")


def test_utf_8_with_a_stray_byte_is_still_utf_8() -> None:
    text, charset, warnings = read(("Café 東京 Привет " * 3).encode() + b"\xff", None)
    assert charset == "utf-8" and text.endswith("\ufffd")
    assert "not valid utf-8" in warnings[0]


def test_a_large_page_is_guessed_quickly() -> None:
    words = ["Привет", "мир", "Ёлка", "сегодня", "хорошая", "погода", "и", "мы", "пойдём", "гулять", "в", "парк"]
    rng = random.Random(7)
    paragraphs = "".join(f"<p>{' '.join(rng.choice(words) for _ in range(12))}</p>" for _ in range(20_000))
    raw = f"<html><body>{paragraphs}</body></html>".encode("cp1251")
    start = time.perf_counter()
    assert guess_charset(raw).name == "windows-1251"
    assert time.perf_counter() - start < 5  # ~0.2 s here: only the first 16 KB of text are weighed


def test_the_archive_the_review_scored_keys_what_the_browser_shows(tmp_path: Path, capsys) -> None:
    # its part says utf-8, its bytes are windows-1252: Chromium reads windows-1252, so each NBSP is trimmed away
    # and the spans key nothing; read as UTF-8 they were U+FFFD and keyed, and the prediction below scored 0.5
    (tmp_path / "mhtml").mkdir()
    (tmp_path / "gt").mkdir()
    (tmp_path / "pred").mkdir()
    path = tmp_path / "mhtml" / "1.mhtml"
    path.write_bytes(archive(SHOP, "utf-8"))
    snapshot = read_snapshot(path)
    assert snapshot.charset == "windows-1252"
    assert list(parse_html(snapshot.html).text_map) == ["/head[1]/title[1]", "/body[1]/ul[1]/li[1]/b[1]",
                                                        "/body[1]/ul[1]/li[2]/b[1]"]
    (tmp_path / "gt" / "1.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]"]]))
    (tmp_path / "pred" / "1.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]/b[1]"],
                                                          ["/body[1]/ul[1]/li[2]/b[1]"]]))
    code, out, _ = run(capsys, "score", "--pred", str(tmp_path / "pred"), "--gt", str(tmp_path / "gt"), "--pages",
                       str(tmp_path / "mhtml"), "--json", "-q")
    assert code == 0
    assert json.loads(out)["mean"]["f1"] == 1.0


def test_a_transport_s_charset_still_comes_first() -> None:
    # a `data:` URL's charset parameter is a transport's, as an HTTP header: before the <meta>, unlike a part's
    raw = '<meta charset="windows-1251"><p>café</p>'.encode()
    warnings: list[str] = []
    assert decode_served_html(raw, "utf-8", warnings) == ('<meta charset="windows-1251"><p>café</p>', "utf-8")
    assert warnings == []
    assert decode_served_html(raw, None, [])[1] == "windows-1251"  # none declared: as a page
