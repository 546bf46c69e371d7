"""Letters a legacy East Asian encoding holds that ordinary text of another one does not: half-width katakana
(JIS X 0201's own, on Japanese shop and mobile pages: `ﾃﾞｼﾞﾀﾙｶﾒﾗ`) in Shift_JIS and EUC-JP, and the lone jamo Korean
writes (`ㅋㅋㅋ` laughter, `ㅠㅠ` tears) in EUC-KR. A Japanese page with a few half-width words was read as
windows-1252 and said to be damaged, and a Korean one with a `ㅋㅋㅋ` as EUC-JP (QtWebEngine reads each in its
own encoding: tests/app/test_archive_charset_detection_conformance.py); Japanese in EUC-JP, whose hiragana read as
jamo in EUC-KR, is still read as Japanese."""

from __future__ import annotations

import pytest

from recordlens.core.page.charset import decode_html
from recordlens.core.page.charset_detection import guess_charset

JAPANESE = "本日は晴天なり。新製品のご案内です。当店では送料無料キャンペーンを実施中です。ぜひご利用ください。"
KOREAN = ("오늘은 날씨가 정말 좋아서 친구들과 함께 공원에 산책을 다녀왔습니다. "
          "점심으로는 김치찌개를 먹었는데 정말 맛있었어요. ")


def page(text: str) -> str:
    return f"<html><head><title>t</title></head><body><p>{text}</p><p>two</p></body></html>"


@pytest.mark.parametrize(("codec", "charset"), [("cp932", "shift_jis"), ("euc-jp", "euc-jp")])
@pytest.mark.parametrize("words", ["ﾃﾞｼﾞﾀﾙｶﾒﾗ " * 2, "ｾｰﾙ " * 4], ids=["digital-camera", "sale"])
def test_a_japanese_page_with_half_width_katakana_is_japanese(words: str, codec: str, charset: str) -> None:
    text = JAPANESE * 2 + words
    warnings: list[str] = []
    decoded, found = decode_html(page(text).encode(codec), None, warnings)
    assert found == charset and text in decoded
    assert "damaged" not in warnings[0] and f"detected as {charset}" in warnings[0]


@pytest.mark.parametrize("text", [KOREAN * 2 + "ㅋㅋㅋ ", KOREAN * 2 + "ㅎㅎ ", KOREAN + "ㅠㅠ ", "감사합니다 ㅠㅠ",
                                  "안녕하세요 ㅎㅎ"], ids=["laughter", "grin", "tears", "thanks-tears", "hello-grin"])
def test_a_korean_page_with_lone_jamo_is_euc_kr(text: str) -> None:
    raw = page(text).encode("cp949")
    guess = guess_charset(raw)
    assert (guess.name, guess.reads_as_text) == ("euc-kr", True)


@pytest.mark.parametrize("text", [
    "本日は晴天なり。", "今日はいい天気ですね。", "ありがとうございます", "こんにちは、元気ですか？", "私は学生です。",
    "ようこそ", "はい", "いいえ", "さようなら", "新しい", "行きます", "大きな山と小さな川があります。",
    "東京都千代田区丸の内", "日本語のテキストです。今日は天気が良いので、公園に散歩に行きましょう。"])
def test_japanese_in_euc_jp_is_not_read_as_korean(text: str) -> None:
    # EUC-JP's hiragana are EUC-KR's jamo and its commonest kanji EUC-KR's syllables: free jamo made these Korean
    assert guess_charset(page(text).encode("euc-jp")).name == "euc-jp"
