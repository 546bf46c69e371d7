"""A page that declares no charset (or one plainly wrong) and whose bytes read as text in no encoding (damaged
UTF-8, random bytes) is read as windows-1252, the default, and the warning says so; until then the least
implausible reading won, which for damaged UTF-8 of Chinese, Japanese or Korean text was ibm866. Pages really
written in a legacy encoding are still read in it."""

from __future__ import annotations

import random

import pytest

from recordlens.core.page.charset import decode_html, decode_windows_1252
from recordlens.core.page.charset_detection import CANDIDATES, guess_charset, oddities
from tests.core.charset_archives import damaged_utf_8

RUSSIAN = "Привет, как дела? Сегодня хорошая погода, и мы пойдём гулять в парк. "
JAPANESE = "日本語のテキストです。今日は天気が良いので、公園に散歩に行きましょう。"
CHINESE = "这是一个中文网页。今天天气很好，我们去公园散步吧。北京是中国的首都。"
KOREAN = "안녕하세요 세계 오늘 날씨가 좋습니다 "
FRENCH = "Le café était déjà fermé quand nous sommes arrivés à la gare, où l’on s’arrête. "
NO_TEXT = "read as text in no encoding a browser detects"


def page(text: str) -> str:
    return f"<html><head><title>t</title></head><body><p>{text}</p><p>two</p></body></html>"


def read(raw: bytes, header: str | None = None) -> tuple[str, str, list[str]]:
    warnings: list[str] = []
    text, charset = decode_html(raw, header, warnings)
    return text, charset, warnings


@pytest.mark.parametrize(
    ("text", "codec", "charset"),
    [
        ("Über die Brücke gehen wir täglich, während die Straße nass ist. ", "latin-1", "windows-1252"),
        (FRENCH, "cp1252", "windows-1252"),
        (RUSSIAN, "cp1251", "windows-1251"),
        (RUSSIAN, "koi8-r", "koi8-r"),
        (RUSSIAN, "cp866", "ibm866"),  # rare, but a page really in it reads cleanly in it and keeps it
        (JAPANESE, "cp932", "shift_jis"),
        (CHINESE, "gbk", "gbk"),
        ("台北今天的天氣很好，我們去公園散步吧。這是一個繁體中文網頁。", "gbk", "gbk"),  # one in three rare in it
        ("สวัสดีชาวโลก วันนี้เป็นวันที่ดี ", "cp874", "windows-874"),  # its vowel marks are text, not signs
    ],
)
@pytest.mark.parametrize("repeat", [1, 20])
def test_a_page_in_a_legacy_encoding_is_read_in_it(text: str, codec: str, charset: str, repeat: int) -> None:
    raw = page(text * repeat).encode(codec)
    guess = guess_charset(raw)
    assert (guess.name, guess.reads_as_text) == (charset, True)
    decoded, found, warnings = read(raw)
    assert found == charset and text * repeat in decoded
    assert "as Chromium detects a page's charset (a guess)" in warnings[0]


@pytest.mark.parametrize("text", [JAPANESE, CHINESE, KOREAN, RUSSIAN, FRENCH])
@pytest.mark.parametrize("share", [0.3, 0.5])
def test_damaged_utf_8_is_read_as_the_default_and_said(text: str, share: float) -> None:
    raw = damaged_utf_8(page(text * 20).encode(), seed=7, share=share)
    guess = guess_charset(raw)
    assert (guess.name, guess.reads_as_text) == ("windows-1252", False)  # Japanese, Chinese, Korean: ibm866 before
    decoded, charset, warnings = read(raw)
    assert (decoded, charset) == (decode_windows_1252(raw), "windows-1252")
    assert len(warnings) == 1 and NO_TEXT in warnings[0] and "windows-1252, the default" in warnings[0]


def test_a_plainly_wrong_header_charset_changes_nothing() -> None:
    # an archive part's header naming a charset its bytes do not read in is ignored, as Chromium ignores it
    raw = damaged_utf_8(page(JAPANESE * 20).encode(), seed=3)
    for header in ("ibm866", "utf-8", "koi8-r", "windows-1252"):
        _, charset, warnings = read(raw, header)
        assert charset == "windows-1252"
        assert any(NO_TEXT in warning for warning in warnings), header


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("length", [1, 5, 40, 300, 5000])
def test_random_bytes_are_a_stated_guess(seed: int, length: int) -> None:
    rng = random.Random(seed)
    raw = page("").encode()[:50] + bytes(rng.randrange(256) for _ in range(length)) + b"</p></body></html>"
    guess = guess_charset(raw)
    assert guess.charset in CANDIDATES or guess.name == "utf-8"
    decoded, charset, warnings = read(raw)
    assert charset == guess.name and decoded
    if not raw.isascii() and charset != "utf-8":
        assert "(a guess" in warnings[-1]
    if length >= 300:  # enough bytes to tell that they are no text
        assert (guess.name, guess.reads_as_text) == ("windows-1252", False)


def test_oddities_count_what_text_never_holds() -> None:
    assert oddities("Привет, как дела? Café, Zażółć gęślą jaźń, l’été", "windows-1251") == 0
    assert oddities("東京の天気は晴れです。Tシャツ", "shift_jis") == 0
    assert oddities("龘靐齉 這是繁體", "gbk") == 0  # rare ideographs are text (traditional characters in GBK)
    # half-width katakana are JIS X 0201's own, text in a Japanese encoding; elsewhere what other bytes read as
    assert oddities("ｱｲｳ", "shift_jis") == oddities("ｱｲｳ", "euc-jp") == 0
    assert oddities("ｱｲｳ", "gbk") == 3
    # lone jamo are Korean writing (`ㅋㅋㅋ`, laughter) in EUC-KR; in another encoding what other bytes read as
    assert oddities("ㅋㅋㅋ", "euc-kr") == 0
    assert oddities("ㅋㅋㅋ", "gbk") == 3
    assert oddities("РџСЂРёРІРµС‚", "windows-1251") == 3  # UTF-8 read as windows-1251: capitals after џ, ё, µ
    assert oddities("Cafй", "windows-1251") == 1  # a Latin letter beside a Cyrillic one
    assert oddities("у┐а", "ibm866") == 1  # a symbol between two letters (not a sign of ordinary text, `l’été`)
    assert oddities("cafֳ©", "windows-1255") == 1  # a Hebrew point on a Latin letter
    assert oddities("a\x85b \ufffd", "windows-1252") == 2  # a C1 control, an undecodable byte


def _cp1258(text: str) -> bytes:
    """Vietnamese as windows-1258 writes it: a letter the code page has whole as its byte, else its base letter
    and a combining tone mark (the code page's five: grave, acute, tilde, hook, dot below)."""
    import unicodedata

    written = b""
    for c in text:
        try:
            written += c.encode("cp1258")
        except UnicodeEncodeError:
            parts = unicodedata.normalize("NFD", c)
            tones = "".join(m for m in parts[1:] if m in "\u0300\u0301\u0303\u0309\u0323")
            base = unicodedata.normalize("NFC", "".join(m for m in parts if m not in tones))
            written += (base + tones).encode("cp1258")
    return written


def test_a_page_in_an_encoding_no_browser_detects_is_not_said_to_be_damaged() -> None:
    # Vietnamese in windows-1258 reads as text in no candidate (Chromium shows it as windows-1252 too): the
    # warning said it was "damaged, or not text"
    raw = _cp1258(page("Tiếng Việt là ngôn ngữ của người Việt. Hà Nội là thủ đô của Việt Nam. Xin chào các bạn."))
    _, charset, warnings = read(raw)
    assert charset == "windows-1252" and len(warnings) == 1
    assert NO_TEXT in warnings[0] and "damaged, or not text" not in warnings[0]
    assert "damaged, not text, or in an encoding browsers do not detect, such as Vietnamese windows-1258" \
        in warnings[0]
