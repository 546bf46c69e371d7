"""The charset of a page that declares none (no byte order mark, no <meta> a browser honours), guessed from its
bytes as Chromium guesses it.

Chromium reads such a page by content detection (its Compact Encoding Detector), and it does so for a part of
an MHTML archive too, whatever charset the part's Content-Type header names (checked in QtWebEngine: the header is
never taken as the charset, even one naming UTF-16 or x-user-defined, though the detector may lean on it as a
hint: one short archive declared iso-8859-15 was read so). That detector is statistical and ships with Chromium
only, so this is a smaller one that agrees with it on what decides most pages (on 148 of the 199 archives made to
probe it, every language of the candidates short and long; of the others 43 are damaged UTF-8 or random bytes that
Chromium shows as mojibake in a code page of its own guess, 3 the same text under another name (Greek as
windows-1253, rare Chinese as gb18030), 5 a word or two (`да` read as Hebrew, `سلام` as GBK) or a Spanish line
that Chromium reads as iso-8859-4. An earlier set found besides that iso-8859-15 archive, two pages Chromium itself
shows as mojibake: Czech in ISO-8859-2 read as windows-1250, Japanese in EUC-JP read as GBK, and an archive with
LF-only line ends that Chromium shows empty):

- bytes without a byte above 0x7F read the same in every candidate; Chromium calls them windows-1252;
- bytes that are UTF-8 (all, or with a few bad bytes among many good sequences) are UTF-8;
- else each legacy encoding a browser detects decodes the first `SAMPLE_BYTES`, and the one whose text reads
  most plausibly wins (`implausibility`); of several that read alike, the earlier in `CANDIDATES` (windows-1252,
  the default, first), unless its letters are of a script whose letter frequencies are known: then the one whose
  letters are likeliest in a language of their script (`letter_likelihood`: Hebrew letters sit where
  windows-1251 has its small Cyrillic ones, which read as nothing odd, but Russian is not full of й, ш, щ, ъ).

When even the likeliest of them does not read as text (`reads_as_text`: bytes that are not text, or UTF-8 damaged
past the rule above), the bytes hold no evidence for any encoding, and the guess is the default a browser takes for
a page that declares none: windows-1252 (the Encoding Standard's default for Western locales; Chromium's answer,
checked in QtWebEngine, on damaged Russian UTF-8 and on most random bytes, while it shows damaged Chinese or
Japanese UTF-8 as gb18030 or ibm866 mojibake, and damaged French in one Latin code page or another, UTF-8 once).
Without this the least implausible reading won however implausible it was, and for damaged UTF-8 of Chinese,
Japanese or Korean text that was ibm866: the DOS code page maps every byte above 0x7F to a printable character,
and its letters sit where UTF-8's lead bytes (0xE0-0xEF) and most continuation bytes (0x80-0xAF) do, so such bytes
read in it as one long word of Cyrillic letters and box drawing, which costs less than the undefined bytes and C1
controls every windows code page reads there. A page really written in ibm866 reads cleanly in it and keeps it.

Text "reads plausibly" when its words are written in one script (`Cafй` mixes Latin and Cyrillic), its letters
take their case as words do (`пРИВЕТ` is Windows-1251 read as KOI8-R), a word's accented letters belong to one
language's alphabet (`Pøíliš kùò` is Czech read as windows-1252), a Greek word has one accent at most (`Ψόώ` is `Шью`
read as iso-8859-7), and it holds no control character, no private
or unassigned code point, no symbol between two letters (`gę¶lą`; Hebrew's gershayim in `צה״ל` is punctuation, as
`’` is in `l’été`), no combining mark on a character of another script (a Hebrew point on a Latin letter; Thai
vowel marks on Thai letters are text), no rare ideograph and no kana in an encoding of Chinese or Korean, no
half-width katakana but in a Japanese encoding and no lone jamo but those Korean writes in EUC-KR (`ㅋㅋㅋ`). Where
Chromium's statistics differ from these rules (a short or mixed text), the two may not agree; the page's warning
says the charset was guessed.
"""

from __future__ import annotations

import codecs
import functools
import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from ..unicode_scripts import script

# enough text to tell; weighing it takes 0.4-0.9 s the first time its words are met (16 KB of distinct words, on a
# busy machine) and ~0.05 s once they are cached, whatever the page's length
SAMPLE_BYTES = 16 * 1024

# The encodings a guess chooses among, in the order that breaks a tie (a browser's name, the Python codec that
# decodes it). Each is one Chromium's detector gives for a page in it (checked in QtWebEngine). Not iso-8859-15:
# Chromium gave it for none of the French and Estonian pages written in it (a sentence or longer: windows-1252,
# short texts iso-8859-10 or windows-1250), and a page of ordinary French in it reads as windows-1252 bar `½` for `œ`.
CANDIDATES: tuple[tuple[str, str], ...] = (
    ("windows-1252", "cp1252"),
    ("windows-1251", "cp1251"),
    ("windows-1250", "cp1250"),
    ("iso-8859-2", "iso8859-2"),
    ("windows-1257", "cp1257"),
    ("windows-1254", "cp1254"),
    ("iso-8859-7", "iso8859-7"),
    ("windows-1253", "cp1253"),
    ("shift_jis", "cp932"),
    ("euc-kr", "cp949"),
    ("gbk", "gb18030"),
    ("euc-jp", "euc-jp"),
    ("big5", "big5hkscs"),
    ("windows-1255", "cp1255"),
    ("windows-1256", "cp1256"),
    ("windows-874", "cp874"),
    ("koi8-r", "koi8-r"),
    ("koi8-u", "koi8-u"),  # after koi8-r: Russian reads alike in both, and Chromium names it koi8-r
    ("iso-8859-5", "iso8859-5"),
    ("ibm866", "cp866"),
)
_JAPANESE = frozenset({"shift_jis", "euc-jp"})

# Punctuation and signs that sit in ordinary text (typographic quotes and dashes, currency, the CJK full stops,
# Hebrew's geresh, gershayim and maqaf, Arabic's comma, semicolon and question mark, the zero-width spaces and
# joiners), and every Latin-1 sign (U+00A1-U+00BF, × and ÷: `½ cup`, `10 × 20`, `±2°`, `x²`): standing alone
# each costs what a lone letter of another code page at its byte costs (0xBD is `ѕ` in windows-1251), so one
# such sign on a Western page leaves the tie to windows-1252, as Chromium decides it, and `120 ₪`, `צה״ל` or
# `مرحبا بالعالم،` leave a Hebrew or Arabic page in its script (0xA1 is a Thai letter in windows-874). Not the
# direction marks U+200E/U+200F: invisible, a page writes them between runs of text, not as its text, and they
# sit at 0xFD/0xFE of windows-1255 and windows-1256, where windows-1251 has `э` and `ю` (`Меню` read as
# `جهي` and a right-to-left mark)
_TYPOGRAPHIC = (frozenset("\u00a0“”‘’‚„–—…«»‹›·•€£¥¢₪©®™°№§¡¿†‡\u05be\u05f3\u05f4\u060c\u061b\u061f"
                          "\u200b\u200c\u200d\u2009\u202f")
                | frozenset(chr(c) for c in range(0xA1, 0xC0)) | frozenset("×÷"))
# The letters beyond a-z that each language written in a Latin or Cyrillic alphabet uses (lower case)
_ALPHABETS = tuple(frozenset(letters) for letters in (
    "àâæçéèêëîïôœùûüÿ",  # French
    "äöüß",  # German
    "áéíóúñü",  # Spanish
    "áâãàçéêíóôõú",  # Portuguese
    "àèéìíîòóùú",  # Italian
    "áéèëïíóöúü",  # Dutch
    "æøåé",  # Danish, Norwegian
    "åäöé",  # Swedish
    "åäöšž",  # Finnish
    "áéíóúýþæöð",  # Icelandic
    "àçèéíïòóúü",  # Catalan
    "áčďéěíňóřšťúůýž",  # Czech
    "áäčďéíĺľňóôŕšťúýž",  # Slovak
    "ąćęłńóśźż",  # Polish
    "áéíóöőúüű",  # Hungarian
    "ăâîșțşţ",  # Romanian
    "čćđšž",  # Croatian, Bosnian, Slovene
    "çğıöşü",  # Turkish
    "äõöüšž",  # Estonian
    "āčēģīķļņšūž",  # Latvian
    "ąčęėįšųūž",  # Lithuanian
    "çë",  # Albanian
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",  # Russian
    "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя",  # Ukrainian
    "абвгдеёжзійклмнопрстуўфхцчшыьэюя",  # Belarusian
    "абвгдђежзијклљмнњопрстћуфхцчџш",  # Serbian
    "абвгдѓежзѕијклљмнњопрстќуфхцчџш",  # Macedonian
    "абвгдежзийклмнопрстуфхцчшщъьюя",  # Bulgarian
))
_WORD = re.compile(r"[A-Za-z]*[^\x00-\x7f\s][^\x00-\x40\x5b-\x60\x7b-\x7f\s]*")  # a run holding a non-ASCII


DEFAULT = CANDIDATES[0]  # windows-1252: what a browser reads a page in when nothing says otherwise


@dataclass(frozen=True)
class CharsetGuess:
    """The charset of a page that declares none, and whether its bytes read as text in it (False: not even in the
    likeliest candidate, and the guess is the `DEFAULT`, taken for want of any evidence)."""

    name: str
    codec: str
    reads_as_text: bool = True

    @property
    def charset(self) -> tuple[str, str]:
        return self.name, self.codec


def guess_charset(raw: bytes) -> CharsetGuess:
    """The charset of a page that declares no charset (see the module notes), and whether it reads as text."""
    if raw.isascii():
        return CharsetGuess(*DEFAULT)
    if _reads_as_utf_8(raw):
        return CharsetGuess("utf-8", "utf-8")
    sample = _sample(raw)
    name, codec = _likeliest(sample)
    if reads_as_text(sample, name, codec):
        return CharsetGuess(name, codec)
    return CharsetGuess(*DEFAULT, reads_as_text=False)


def _likeliest(sample: bytes) -> tuple[str, str]:
    """The candidate whose text reads most plausibly. Of several that read alike (nothing odd in any: Hebrew
    letters sit where windows-1251 has small Cyrillic ones), the earliest, unless its letters are of a script
    whose letter frequencies are known (`letter_likelihood`): then the one whose letters are likeliest in a
    language of their script, however few (QtWebEngine reads one short Hebrew word, `שלום`, `בית`, as windows-1255
    and one short Russian word, `Меню`, `Шью`, as windows-1251: letting the order decide a text of a few letters
    would read the Hebrew as windows-1251). (A Latin reading keeps the tie: `é` alone on a Portuguese page is
    windows-1252, though `י` is the commonest Hebrew letter.)"""
    costs = {candidate: implausibility(sample, *candidate) for candidate in CANDIDATES}
    least = min(costs.values())
    tied = [candidate for candidate in CANDIDATES if costs[candidate] == least]
    if len(tied) == 1:
        return tied[0]
    likelihoods = {candidate: letter_likelihood(_decoded(sample, *candidate)) for candidate in tied}
    weighed = {candidate: bits for candidate, bits in likelihoods.items() if bits is not None}
    if tied[0] not in weighed:
        return tied[0]
    return max(weighed, key=weighed.__getitem__)  # in the order of CANDIDATES: the earlier of equals


def _decoded(sample: bytes, name: str, codec: str) -> str:
    """`sample` read as the encoding `name`, as a browser reads it; a sample cut inside a character ends at the
    last whole one."""
    text = codecs.getincrementaldecoder(codec)("replace").decode(sample, final=False)
    return text.translate(KOI8_RU) if name == "koi8-u" else text


# Python's koi8_u is KOI8-U; the Encoding Standard's (Chromium's koi8-u) is KOI8-RU, with the two Belarusian
# letters ў and Ў in place of two box-drawing characters
KOI8_RU = str.maketrans({"\u255d": "\u045e", "\u256c": "\u040e"})


def _sample(raw: bytes) -> bytes:
    """The bytes the guess weighs: from the start of the word that holds the first byte above 0x7F (the ASCII
    markup before it reads the same in every candidate, and the page's whole length would take seconds)."""
    first = re.search(rb"[\x80-\xff]", raw)
    start = 0 if first is None else max(raw.rfind(b">", 0, first.start()), *(raw.rfind(space, 0, first.start())
                                                                              for space in (b" ", b"\n")), 0)
    return raw[start : start + SAMPLE_BYTES]


def _reads_as_utf_8(raw: bytes) -> bool:
    """Whether the bytes are UTF-8: all of them, or with a bad byte here and there among twice as many good
    sequences (a page in UTF-8 with a stray byte; a legacy page holds next to no valid sequence)."""
    try:
        raw.decode("utf-8")  # the common case, at the C codec's speed: a page of 40 MB in a tenth of a second
        return True
    except UnicodeDecodeError:
        pass
    text = raw.decode("utf-8", "replace")
    bad = text.count("\ufffd")
    # the characters above 0x7F, counted by C-level operations: a loop over a large page's text takes seconds
    good = len(text) - len(text.encode("ascii", "ignore")) - bad
    return good >= 2 * bad


def implausibility(sample: bytes, name: str, codec: str) -> int:
    """How unlike text `sample` reads when decoded as `name` (0: nothing odd). A byte the encoding has no
    character for costs the most."""
    text = _decoded(sample, name, codec)
    cost = 10 * text.count("\ufffd")
    cost += sum(_word_cost(word, name) for word in _WORD.findall(text))
    if name not in _JAPANESE:  # kana are Japanese: in an encoding of Chinese or Korean they are another text
        cost += 2 * len(_KANA.findall(text))
    elif len(_IDEOGRAPH.findall(text)) >= _FEW_IDEOGRAPHS and not _KANA.search(text):
        cost += 1  # Japanese text of some length without a kana: Korean or Chinese bytes that read as kanji too
    if name == "euc-kr":
        cost += _korean_jamo_cost(text)
    return cost


def _korean_jamo_cost(text: str) -> int:
    """The lone jamo Korean writes (`_KOREAN_JAMO`) cost nothing in EUC-KR among more Hangul syllables, as in
    Korean text (a `ㅋㅋㅋ` in a comment); as many as the syllables or more cost as any rare letter: that is
    Japanese in EUC-JP read as EUC-KR, whose hiragana (row 0xA4) read as jamo and its kanji as syllables."""
    jamo = len(_KOREAN_JAMO.findall(text))
    return 0 if jamo < len(_HANGUL.findall(text)) else 2 * jamo


# Text holds next to none of the oddities `oddities` counts (none in any sample of ordinary text in its own
# encoding), while bytes read in the wrong encoding or in none hold one every few characters (1 in 3 to 1 in 5 in
# random bytes and damaged UTF-8 read in the likeliest candidate): more than 1 in 10 is no text
MAX_ODD_SHARE = 0.1


def reads_as_text(sample: bytes, name: str, codec: str) -> bool:
    """Whether `sample` decoded as `name` reads as text: at most `MAX_ODD_SHARE` of its characters above ASCII
    are oddities that no ordinary text holds. (`implausibility` ranks the candidates; this says whether the
    likeliest of them is text at all.)"""
    text = _decoded(sample, name, codec)
    beyond_ascii = len(text) - len(text.encode("ascii", "ignore"))
    return oddities(text, name) <= MAX_ODD_SHARE * beyond_ascii


def oddities(text: str, name: str) -> int:
    """How many times `text`, decoded as `name`, does what ordinary text never does: each undecodable byte,
    control, private or unassigned character, half-width katakana (but in a Japanese encoding) or lone Hangul jamo
    (but those Korean writes, in EUC-KR), and in a word each capital
    after a lower-case letter (`РџСЂРёРІРµС‚`: UTF-8 read as windows-1251), letter of another alphabet (`Cafй`),
    symbol between two letters (`у┐а`, `ذ¸²ذµ`; not `l’été`) and combining mark of another script (`cafֳ©`: a
    Hebrew point on a Latin letter). A rare ideograph is none (`implausibility` weighs it): a page in traditional
    characters in GBK holds one in three. Unlike `implausibility`, each is counted where it occurs, however long
    its word: damaged UTF-8 of Japanese text is one word of thousands of letters."""
    characters = Counter(c for c in text if c > "\x7f")
    count = sum(n for c, n in characters.items() if c == "\ufffd" or _is_oddity(c, name))
    return count + sum(_word_oddities(word) for word in _WORD.findall(text))


def _is_oddity(c: str, name: str) -> bool:
    """A character no ordinary text in the encoding `name` holds. Half-width katakana are none in a Japanese
    encoding: JIS X 0201's own, shop and mobile pages write product names in them (`ﾃﾞｼﾞﾀﾙｶﾒﾗ`); in another
    encoding they are what other bytes read as."""
    if _is_cjk(c) or name in _JAPANESE and _is_half_width_katakana(c):
        return False
    return _character_cost(c, name) >= 2


@functools.lru_cache(maxsize=65536)
def _word_oddities(word: str) -> int:
    pairs = list(zip(word, word[1:], strict=False))
    flips = sum(1 for a, b in pairs if a.islower() and b.isupper() and (a > "\x7f" or b > "\x7f"))
    scripts = sum(1 for a, b in pairs if a.isalpha() and (b.isalpha() or _is_mark(b)) and _alphabets_differ(a, b))
    symbols = sum(1 for a, c, b in zip(word, word[1:], word[2:], strict=False)
                  if a.isalpha() and b.isalpha() and _is_sign(c) and c not in _INSIDE_WORDS)
    return flips + scripts + symbols


def _alphabets_differ(a: str, b: str) -> bool:
    """Whether two characters belong to two different alphabets (CJK, which mixes with Latin letters in
    ordinary text, `Tシャツ`, and signs such as `º` belong to none)."""
    first, second = _script(a), _script(b)
    return first != second and first in _LETTER_SCRIPTS and second in _LETTER_SCRIPTS


_KANA = re.compile(r"[\u3041-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
# The lone jamo Korean writing uses (`ㅋㅋㅋ` laughter, `ㅠㅠ` tears, `ㄷㄷ`, `ㅇㅋ`, `ㅡㅡ`): the consonants and
# three vowels. Not a consonant cluster (ㄳ, ㄺ), the other vowels, nor the archaic letters, which Korean never
# writes alone and which EUC-JP's commonest hiragana (う, か, の, は, ま, る, ん) read as in EUC-KR.
_KOREAN_JAMO = re.compile("[ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎㅜㅠㅡ]")
_IDEOGRAPH = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_FEW_IDEOGRAPHS = 4


@functools.lru_cache(maxsize=65536)  # words recur: each is weighed once per encoding
def _word_cost(word: str, name: str) -> int:
    letters = [c for c in word if c.isalpha()]
    return (sum(_character_cost(c, name) for c in word) + _sign_cost(word) + _script_cost(letters)
            + _case_cost(letters) + _alphabet_cost(letters) + _accent_cost(letters))


def _sign_cost(word: str) -> int:
    """Signs inside the word, and a combining mark that has no letter to combine with, or follows a character of
    another script (a Hebrew point on a Latin letter; Thai vowel and tone marks on Thai letters are its text)."""
    cost = sum(_inner_cost(before, c, after) for before, c, after in zip(word, word[1:], word[2:], strict=False))
    cost += sum(1 for c, letter in zip(word, word[1:], strict=False)
                if _is_sign(c) and letter.isalpha() and letter > "\x7f")  # `’λφα`: a sign glued to a letter
    cost += sum(1 for before, mark in zip(word, word[1:], strict=False)
                if _is_mark(mark) and _script(before) != _script(mark))
    return cost + (2 if _is_mark(word[0]) else 0)


def _is_mark(c: str) -> bool:
    return unicodedata.category(c).startswith("M")


def _script_cost(letters: list[str]) -> int:
    """One word in two scripts (`Cafй`); a Greek final sigma inside a word."""
    scripts = {_script(c) for c in letters if c > "\x7f"}
    mixed = len(scripts) > 1 or bool(scripts & _ALPHABETIC_SCRIPTS and any(c.isascii() for c in letters))
    return (5 if mixed else 0) + (2 if "ς" in letters[:-1] else 0)


_ALPHABETIC_SCRIPTS = frozenset({"CYRILLIC", "GREEK", "HEBREW", "ARABIC", "THAI"})  # never in a word with a-z
_LETTER_SCRIPTS = _ALPHABETIC_SCRIPTS | {"LATIN"}  # the alphabets: a letter of one beside one of another is odd
# The signs ordinary text writes between two letters: apostrophes (`l’été`, `l´été`), Catalan's middle dot
# (`col·lecció`), hyphens and dashes (`word—word`), Hebrew's geresh, gershayim and maqaf (`צה״ל`, `בית־ספר`), the
# soft hyphen and the zero-width (non-)joiners
_INSIDE_WORDS = frozenset("’‘´·‐‑–—\u05f3\u05f4\u05be\u00ad\u200b\u200c\u200d")


def _case_cost(letters: list[str]) -> int:
    """Capitals where words have none: inside a lower-case word (`пРИВЕТ`: Windows-1251 read as KOI8-R, which
    swaps the cases), a whole word (text is mostly in lower case), capitals running into lower case."""
    pairs = list(zip(letters, letters[1:], strict=False))
    if any(a.islower() and b.isupper() and (a > "\x7f" or b > "\x7f") for a, b in pairs):
        cost = 3
    else:
        cased = [c for c in letters if not _is_cjk(c)]
        cost = int(len(letters) >= 2 and all(c.isupper() for c in cased) and any(c > "\x7f" for c in cased))
    runs = zip(letters, letters[1:], letters[2:], strict=False)
    return cost + int(any(a.isupper() and b.isupper() and c.islower() and c > "\x7f" for a, b, c in runs))


def _alphabet_cost(letters: list[str]) -> int:
    """The word's accented letters that the language whose alphabet holds most of them has not (`Pøíliš`), and
    a Latin word of accented letters alone (`Ïðèâåò`: Windows-1251 read as windows-1252)."""
    # İ lower-cases to an i and a dot: its first character is the letter
    accented = Counter(c.lower()[0] for c in letters if c > "\x7f" and _script(c) in ("LATIN", "CYRILLIC"))
    if not accented:
        return 0
    cost = min(sum(n for c, n in accented.items() if c not in alphabet and c > "\x7f") for alphabet in _ALPHABETS)
    return cost + (3 if len(letters) >= 3 and all(c > "\x7f" and _script(c) == "LATIN" for c in letters) else 0)


def _accent_cost(letters: list[str]) -> int:
    """A Greek word with two accented letters (`Ψόώ`: the Russian `Шью` read as iso-8859-7, whose ό ύ ώ sit where
    windows-1251 has ь э ю): Greek stresses a word once (a second accent only where an enclitic follows a word
    stressed on its third-last syllable, `όνομά μου`: rare)."""
    return int(sum(1 for c in letters if c in _GREEK_ACCENTED) > 1)


_GREEK_ACCENTED = frozenset("άέήίόύώΐΰΆΈΉΊΌΎΏ")


def _inner_cost(before: str, c: str, after: str) -> int:
    """A sign inside a word: a symbol between two letters is another letter read wrongly (`gę¶lą`); a
    typographic sign there (`l’été`) is a little odd."""
    if not _is_sign(c):
        return 0
    if c in _TYPOGRAPHIC:
        return 1
    return 3 if before.isalpha() and after.isalpha() else 1


def _is_sign(c: str) -> bool:
    """A character that is neither ASCII, nor a letter or combining mark, nor CJK punctuation."""
    return c > "\x7f" and not c.isalpha() and not _is_mark(c) and not _is_cjk(c)


@functools.lru_cache(maxsize=65536)
def _character_cost(c: str, name: str) -> int:
    if c.isascii() or c in _TYPOGRAPHIC or c.isalpha() and not _is_cjk(c) and not _is_rare_letter(c, name):
        return 0
    category = unicodedata.category(c)
    if category[0] == "M":
        return 0  # a combining mark: weighed with the character it follows (`_sign_cost`)
    if category in ("Cc", "Co", "Cn", "Cs"):
        return 10  # a C1 control (a byte a code page leaves undefined), a private or unassigned code point
    if _is_cjk(c):
        return 0 if _is_common_cjk(c, name) else 2
    return 2 if category[0] == "L" else 1  # a rare letter; a sign or symbol


def _is_rare_letter(c: str, name: str) -> bool:
    """Letters that ordinary text in the encoding `name` next to never holds: half-width katakana, and lone
    Hangul jamo but for those Korean writes, in EUC-KR (`_korean_jamo_cost` weighs how many)."""
    return _is_half_width_katakana(c) or _is_lone_jamo(c) and not (name == "euc-kr" and _KOREAN_JAMO.match(c))


def _is_half_width_katakana(c: str) -> bool:
    return "\uff61" <= c <= "\uff9f"


def _is_lone_jamo(c: str) -> bool:
    return "\u3130" <= c <= "\u318f"


def _is_cjk(c: str) -> bool:
    return ("\u3000" <= c <= "\u30ff" or "\u3400" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7a3"
            or "\uf900" <= c <= "\ufaff" or "\uff00" <= c <= "\uff60")


def _is_common_cjk(c: str, name: str) -> bool:
    """Kana, Hangul syllables, CJK punctuation and full-width forms, and the ideographs the national standard of
    the encoding `name` counts among its frequent ones (GB 2312's level 1, Big5's frequent set, JIS X 0208's
    level 1; Korean text writes few); of the Hangul syllables, the 2,350 of KS X 1001 (EUC-KR's own: the others,
    which Windows' code page 949 adds, are what other bytes read as)."""
    if "\uac00" <= c <= "\ud7a3":
        return _lead_byte(c, "euc-kr") is not None
    if not _IDEOGRAPH.match(c):
        return True
    codec, leads = _FREQUENT_IDEOGRAPHS.get(name, ("", range(0)))
    return _lead_byte(c, codec) in leads if codec else False


_FREQUENT_IDEOGRAPHS = {
    "gbk": ("gb2312", range(0xB0, 0xD8)),
    "big5": ("big5", range(0xA4, 0xC7)),
    "shift_jis": ("euc-jp", range(0xB0, 0xD0)),
    "euc-jp": ("euc-jp", range(0xB0, 0xD0)),
}


def _lead_byte(c: str, codec: str) -> int | None:
    try:
        encoded = c.encode(codec)
    except UnicodeEncodeError:
        return None
    return encoded[0] if len(encoded) == 2 else None


@functools.lru_cache(maxsize=65536)
def _script(c: str) -> str:
    """The script of a letter (`script`), the scripts of Chinese, Japanese and Korean text that mix in one word
    (ideographs, kana) taken as one."""
    first = script(c)
    return "CJK" if first in _CJK_SCRIPTS else first


_CJK_SCRIPTS = frozenset({"CJK", "HIRAGANA", "KATAKANA", "FULLWIDTH", "HALFWIDTH", "IDEOGRAPHIC"})


def letter_likelihood(text: str) -> float | None:
    """How much likelier the letters above ASCII of `text` are as ordinary text of a language of their script
    than as letters of its alphabet drawn at random, in bits (log2 of the ratio), for the language that fits
    best: a sentence or more of ordinary text gains 0.2 to 1 a letter, another script's text read in a code page
    of this one mostly loses (Hebrew as windows-1251: -0.5 a letter). None where their script has no table
    (Latin, Thai, CJK) or there are none."""
    counts = Counter(text)
    letters: Counter[str] = Counter()
    for c, n in counts.items():
        if c > "\x7f" and c.isalpha():
            letters[_folded(c)] += n
    scripts: Counter[str] = Counter()
    for c, n in letters.items():
        scripts[_script(c)] += n
    if not scripts:
        return None
    script = scripts.most_common(1)[0][0]
    return max((sum(n * _letter_bits(c, frequencies) for c, n in letters.items() if _script(c) == script)
                for frequencies in _LANGUAGES.get(script, ())), default=None)


def _folded(letter: str) -> str:
    """A letter as the frequency tables count it: in lower case, Greek without its tonos, the Persian forms of
    yeh and kaf as the Arabic ones that code pages write them with. A Greek letter with a dialytika (ϊ ϋ ΐ ΰ)
    stays as written, so rare (`_RARE_LETTER`) as it is in Greek: ϊ and ΰ sit where windows-1251 has ъ and а."""
    small = letter.lower()[0]
    if _script(small) == "GREEK":
        base, *accents = unicodedata.normalize("NFD", small)
        return small if _DIALYTIKA in accents else base
    return {"\u06cc": "\u064a", "\u06a9": "\u0643"}.get(small, small)


_DIALYTIKA = "\u0308"


def _letter_bits(letter: str, frequencies: dict[str, float]) -> float:
    """log2 of how much likelier `letter` is in the language than at random among its letters."""
    return math.log2(frequencies.get(letter, _RARE_LETTER) * len(frequencies))


_RARE_LETTER = 0.0001  # a letter of the script that the language does not write: rarer than its rarest

# How often each letter occurs in ordinary text of the languages whose scripts share byte ranges in the code pages
# (per cent of letters, corpus counts rounded). Hebrew read as windows-1251 is small Cyrillic letters, nothing odd
# in any, but full of й, ш, щ and ъ (yod, resh, shin and tav: a quarter of Hebrew letters), which Russian writes
# one letter in 40, and without the ы, ь and я that Russian writes one in 18; Russian read as windows-1255 is the
# reverse. A language is the alphabet its table lists: a letter of the script outside it counts as `_RARE_LETTER`.
_FREQUENCIES = {
    "Russian": "о10.97 е8.45 а8.01 и7.35 н6.70 т6.26 с5.47 р4.73 в4.54 л4.40 к3.49 м3.21 д2.98 п2.81 у2.62 я2.01"
               " ы1.90 ь1.74 г1.70 з1.65 б1.59 ч1.44 й1.21 х0.97 ж0.94 ш0.73 ю0.64 ц0.48 щ0.36 э0.32 ф0.26 ъ0.04 ё0.04",
    "Ukrainian": "о9.4 а8.0 н6.9 и6.2 і5.6 в5.4 т5.0 е4.9 р4.7 с4.3 к3.9 л3.8 у3.4 д3.3 м3.2 п2.9 я2.2 з2.2 ь1.7"
                 " б1.6 г1.5 ч1.3 й1.3 х1.1 ц1.0 ї0.9 ж0.9 ш0.8 ю0.7 є0.5 щ0.4 ф0.2 ґ0.05",
    "Bulgarian": "а9.8 о8.5 е8.1 и7.9 т7.0 н6.9 р5.3 с4.6 в4.3 л3.5 к3.4 д3.3 п3.1 м2.8 ъ2.6 з1.9 я1.9 у1.6 б1.5"
                 " ч1.4 г1.3 щ0.9 ж0.8 й0.8 х0.7 ц0.7 ш0.7 ю0.3 ф0.2 ь0.1",
    "Serbian": "а11.2 и9.6 о9.3 е8.5 н5.4 р5.0 с4.9 т4.6 ј4.5 у4.2 к3.7 д3.4 в3.4 л3.3 м3.2 п2.8 з1.7 г1.6 б1.4"
               " ч1.1 ш0.9 ц0.9 ћ0.9 ж0.7 љ0.5 њ0.5 х0.3 ђ0.2 ф0.2 џ0.1",
    "Greek": "α12.0 ο9.8 ι9.0 ε8.3 τ8.0 ν6.6 σ5.4 η5.0 ρ4.6 υ4.2 π4.1 κ4.1 μ3.5 λ2.9 ς2.6 γ1.9 ω1.7 δ1.7 θ1.3"
             " χ1.1 φ0.8 β0.7 ξ0.4 ζ0.4 ψ0.2",
    "Hebrew": "י11.1 ו10.4 ה8.7 ל7.2 א6.3 מ5.6 ר5.6 ת5.3 ב4.7 ש4.2 נ4.0 ע3.3 ם2.8 כ2.7 ד2.6 ח2.2 ק2.0 פ1.7 ן1.4"
              " ג1.3 ט1.2 ס1.1 צ1.1 ז0.9 ך0.6 ף0.2 ץ0.2",
    "Arabic": "ا12.5 ل11.0 ي6.5 م6.0 و5.8 ن5.5 ر4.3 ت4.3 ب3.9 ه3.8 ع3.3 ة2.8 د2.8 أ2.6 ف2.6 س2.5 ق2.3 ك2.3 ح1.9"
              " ج1.4 إ1.0 ى1.0 ش1.0 ص0.9 ط0.8 خ0.7 ذ0.7 ض0.6 ز0.5 ث0.5 غ0.4 ئ0.4 ء0.3 ظ0.2 آ0.1 ؤ0.1",
    "Persian": "ا11.5 ي9.0 ر6.0 د5.5 ن5.5 ه5.5 و5.0 م4.8 ت4.0 ب3.5 ك3.2 س2.8 ل2.5 ش1.8 ز1.5 خ1.3 گ1.2 آ1.0 ف1.0"
               " ع1.0 ق0.8 ج0.8 پ0.8 ح0.8 چ0.6 ط0.4 ص0.4 غ0.2 ئ0.2 أ0.2 ذ0.1 ض0.1 ث0.1 ء0.1 ظ0.05 ژ0.05",
}


def _shares(counts: str) -> dict[str, float]:
    """Each letter's share of a language's letters, from its `_FREQUENCIES` entry."""
    percents = {entry[0]: float(entry[1:]) for entry in counts.split()}
    return {letter: percent / sum(percents.values()) for letter, percent in percents.items()}


def _languages_by_script() -> dict[str, list[dict[str, float]]]:
    """The letter shares of each script's languages, by the script's name as `_script` says it."""
    languages: dict[str, list[dict[str, float]]] = {}
    for counts in _FREQUENCIES.values():
        languages.setdefault(_script(counts[0]), []).append(_shares(counts))
    return languages


_LANGUAGES = _languages_by_script()
