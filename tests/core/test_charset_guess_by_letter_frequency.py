"""A page that declares no charset is read in its script where two code pages read its bytes alike: Hebrew
(windows-1255 or ISO-8859-8) was read as windows-1251, whose small Cyrillic letters sit at the same bytes and
read with nothing odd, and Ukrainian in KOI8-U as windows-1256, koi8-u being no candidate. Chromium reads both
right (tests/app/test_archive_charset_detection_conformance.py holds the same pages to QtWebEngine)."""

from __future__ import annotations

import pytest

from recordlens.core.page.charset import decode_html
from recordlens.core.page.charset_detection import guess_charset, letter_likelihood

HEBREW_SHORT = "שלום עולם, היום יום יפה"
HEBREW_LONG = ("הספר החדש של הסופר נמכר היטב בחנויות ברחבי הארץ. המבקרים כתבו שהוא מרגש ומצחיק, "
               "והקוראים ממליצים עליו לחברים ולמשפחה. בשבוע הבא תתקיים פגישה עם הסופר בספרייה העירונית. ")
UKRAINIAN_SHORT = "Привіт світе, як справи?"
UKRAINIAN_LONG = ("Привіт світе, це довгий український текст про магазин з книжками та іграшками. Їжак шукає "
                  "яблука в осінньому лісі, а діти ґречно вітаються з сусідами. Ціни на товари змінюються. ")
RUSSIAN = "Привет, как дела? Сегодня хорошая погода, и мы пойдём гулять в парк. "


def page(text: str) -> str:
    return f"<html><head><title>t</title></head><body><p>{text}</p><p>two</p></body></html>"


def read(raw: bytes) -> tuple[str, str]:
    text, charset = decode_html(raw, None, [])
    return text, charset


def assert_read_in(text: str, codec: str, charset: str) -> None:
    raw = page(text).encode(codec)
    guess = guess_charset(raw)
    assert (guess.name, guess.reads_as_text) == (charset, True)
    decoded, found = read(raw)
    assert found == charset and text in decoded


@pytest.mark.parametrize("codec", ["cp1255", "iso8859-8"])
@pytest.mark.parametrize("text", ["שלום", "שלום עולם", HEBREW_SHORT, HEBREW_LONG, HEBREW_LONG * 20],
                         ids=["word", "two-words", "short", "long", "long-x20"])
def test_a_hebrew_page_is_read_as_hebrew_not_cyrillic(text: str, codec: str) -> None:
    # Chromium names both windows-1255 (ISO-8859-8's letters are at the same bytes)
    assert_read_in(text, codec, "windows-1255")


@pytest.mark.parametrize("text", [
    pytest.param("מחיר: 120 ₪ · משלוח חינם לכל הארץ", id="shekel"),  # a currency sign as € is
    # gershayim, geresh and maqaf sit between letters as `’` does
    pytest.param("חייל צה״ל נסע לת״א עם ג׳ירפה מבית־הספר", id="gershayim"),
    pytest.param("בְּרֵאשִׁית בָּרָא אֱלֹהִים אֵת הַשָּׁמַיִם וְאֵת הָאָרֶץ", id="points"),  # points on their letters
    pytest.param("הורדת Python 3.12 למערכת Windows ו-Linux, מדריך מלא למתחילים", id="latin-words"),
])
def test_hebrew_punctuation_and_points_keep_a_page_hebrew(text: str) -> None:
    assert_read_in(text, "cp1255", "windows-1255")


@pytest.mark.parametrize("text", ["Привіт", UKRAINIAN_SHORT, UKRAINIAN_LONG, UKRAINIAN_LONG * 20],
                         ids=["word", "short", "long", "long-x20"])
def test_a_ukrainian_page_in_koi8_u_is_koi8_u(text: str) -> None:
    assert_read_in(text, "koi8-u", "koi8-u")


def test_a_belarusian_page_in_koi8_u_reads_its_short_u_as_browsers_do() -> None:
    # Chromium's koi8-u is KOI8-RU: ў where Python's KOI8-U has a box-drawing character
    text = "Беларуская мова - адна з усходнеславянскіх моў. Сёння добрае надвор'е, і мы пойдзем у парк."
    raw = page(text).replace("ў", "\u255d").encode("koi8-u")
    assert guess_charset(raw).name == "koi8-u"
    assert text in read(raw)[0]


@pytest.mark.parametrize(
    ("text", "codec", "charset"),
    [
        (RUSSIAN, "koi8-u", "koi8-r"),  # Russian reads alike in both: Chromium names it koi8-r
        (RUSSIAN, "koi8-r", "koi8-r"),
        (RUSSIAN, "cp1251", "windows-1251"),
        (RUSSIAN, "cp866", "ibm866"),
        (RUSSIAN, "iso8859-5", "iso-8859-5"),
        ("он пошел в лес за грибами", "cp1251", "windows-1251"),  # small letters alone, as Hebrew reads
        ("он пошел в лес за грибами", "koi8-r", "koi8-r"),  # was windows-1256: Arabic letters at those bytes
        (UKRAINIAN_LONG, "cp1251", "windows-1251"),
        ("Здравей, свят! Това е дълъг български текст за магазин с книги.", "cp1251", "windows-1251"),
        ("Здраво свете, ово је дугачак српски текст о продавници књига.", "cp1251", "windows-1251"),
        ("Καλημέρα κόσμε, αυτό είναι ένα ελληνικό κείμενο για ένα βιβλιοπωλείο.", "iso8859-7", "iso-8859-7"),
        ("Γεια σου κόσμε", "cp1253", "iso-8859-7"),  # was windows-1251; Chromium: iso-8859-7 (same letters)
        ("مرحبا بالعالم، هذا نص عربي طويل عن متجر للكتب والألعاب.", "cp1256", "windows-1256"),
        ("مرحبا بالعالم، هذا", "cp1256", "windows-1256"),  # was windows-874: `،` is Arabic's comma
        ("ما سعر الهاتف الذكي؟", "cp1256", "windows-1256"),
        ("สวัสดีครับ นี่คือข้อความภาษาไทยที่ยาวพอสมควร ร้านอาหารไทยอร่อยมาก", "cp874", "windows-874"),
        ("これは日本語の長い文章です。東京は晴れです。", "cp932", "shift_jis"),
        ("这是一段关于书店和玩具店的中文长文。北京今天天气很好。", "gbk", "gbk"),
        ("這是一段關於書店和玩具店的中文長文。臺北今天天氣很好。", "big5", "big5"),
        ("안녕하세요 이것은 한국어로 된 긴 문장입니다", "euc-kr", "euc-kr"),
        ("O livro é bom. A casa é grande.", "cp1252", "windows-1252"),  # `é` alone: not the Hebrew letter yod
        ("Rendez-vous à la gare à midi", "cp1252", "windows-1252"),
    ],
)
def test_other_scripts_are_still_read_in_theirs(text: str, codec: str, charset: str) -> None:
    assert_read_in(text, codec, charset)


def menu(word: str) -> str:
    """An English page whose one non-ASCII text is `word`, a link in its menu (a language switch, a section)."""
    return (f"<html><body><ul><li><a href='/en'>English</a></li><li><a href='/ru'>{word}</a></li></ul>"
            "<p>Welcome to our shop. Free shipping on all orders.</p></body></html>")


@pytest.mark.parametrize("word", ["Меню", "Чай", "Мышь", "Шью", "Дом", "Цены", "Поиск"])
def test_one_short_russian_word_on_an_english_page_is_windows_1251(word: str) -> None:
    # Chromium: windows-1251 for each. Меню read as Arabic (`ю` is U+200F in windows-1256, taken for punctuation),
    # Чай and Мышь as Greek (ΰ, ϋ counted as the common α, υ), Шью as Greek `Ψόώ` (two accents: no Greek word)
    guess = guess_charset(menu(word).encode("cp1251"))
    assert (guess.name, guess.reads_as_text) == ("windows-1251", True)


@pytest.mark.parametrize("codec", ["cp1255", "iso8859-8"])
@pytest.mark.parametrize("word", ["שלום", "בית", "עברית", "חדשות", "מחיר", "ישראל"])
def test_one_short_hebrew_word_on_an_english_page_is_windows_1255(word: str, codec: str) -> None:
    # Chromium: windows-1255 for each, so frequencies decide a word of three letters too (a rule that let the order
    # of CANDIDATES decide short texts would make all of them windows-1251)
    assert guess_charset(menu(word).encode(codec)).name == "windows-1255"


@pytest.mark.parametrize("codec", ["cp1253", "iso8859-7"])
def test_a_greek_word_with_an_enclitic_s_second_accent_is_still_greek(codec: str) -> None:
    assert_read_in("Το όνομά μου είναι Γιάννης και ο άνθρωπός μου ήρθε", codec, "iso-8859-7")


def test_letter_likelihood_prefers_a_language_s_own_letters() -> None:
    hebrew = HEBREW_LONG.encode("cp1255")
    as_hebrew, as_cyrillic = letter_likelihood(hebrew.decode("cp1255")), letter_likelihood(hebrew.decode("cp1251"))
    assert as_hebrew is not None and as_cyrillic is not None
    assert as_hebrew > 0.2 * sum(c.isalpha() for c in HEBREW_LONG) > 0 > as_cyrillic  # й, ш, щ, ъ; no ы, ь, я
    russian = RUSSIAN.encode("cp1251")
    assert letter_likelihood(russian.decode("cp1251")) > 0.2 * sum(c.isalpha() for c in RUSSIAN)
    assert letter_likelihood(russian.decode("cp1255", "replace")) < 0  # undecodable bytes aside, unlike Hebrew
    assert letter_likelihood("Le café était fermé") is None  # no table for Latin: the order decides
    assert letter_likelihood("plain ASCII") is None
