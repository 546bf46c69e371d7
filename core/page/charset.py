"""Decoding a page as a browser does: byte order marks, the `<meta>` charset, else the charset detected in its
bytes (an MHTML part's header charset is ignored, as Chromium ignores it), WHATWG label mapping, and the U+FFFD
replacement of undecodable bytes with a warning that says where."""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import shortened
from .charset_detection import KOI8_RU, CharsetGuess, guess_charset

PRESCAN_BYTES = 1024  # the HTML standard's limit for finding a <meta> charset (Chromium looks on within <head>)

# Every label a browser accepts, and the encoding it names (the WHATWG Encoding Standard's table). A label
# outside it is unknown to a browser even where Python has a codec of that name (cp037, utf-7, utf-32): the
# page is then read as if it declared nothing, as a browser reads it.
_WHATWG_LABELS = {
    label: name
    for name, labels in (
        ("utf-8", "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8"),
        ("ibm866", "866 cp866 csibm866 ibm866"),
        ("iso-8859-2", "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2"),
        ("iso-8859-3", "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 latin3"),
        ("iso-8859-4", "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 latin4"),
        ("iso-8859-5", "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 iso_8859-5"
                       " iso_8859-5:1988"),
        ("iso-8859-6", "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6 iso-8859-6-e"
                       " iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987"),
        ("iso-8859-7", "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 iso8859-7 iso88597"
                       " iso_8859-7 iso_8859-7:1987 sun_eu_greek"),
        ("iso-8859-8", "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 iso8859-8 iso88598"
                       " iso_8859-8 iso_8859-8:1988 visual"),
        ("iso-8859-8-i", "csiso88598i iso-8859-8-i logical"),
        ("iso-8859-10", "csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6"),
        ("iso-8859-13", "iso-8859-13 iso8859-13 iso885913"),
        ("iso-8859-14", "iso-8859-14 iso8859-14 iso885914"),
        ("iso-8859-15", "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9"),
        ("iso-8859-16", "iso-8859-16"),
        ("koi8-r", "cskoi8r koi koi8 koi8-r koi8_r"),
        ("koi8-u", "koi8-ru koi8-u"),
        ("macintosh", "csmacintosh mac macintosh x-mac-roman"),
        ("windows-874", "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874"),
        ("windows-1250", "cp1250 windows-1250 x-cp1250"),
        ("windows-1251", "cp1251 windows-1251 x-cp1251"),
        ("windows-1252", "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1"
                         " iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252"),
        ("windows-1253", "cp1253 windows-1253 x-cp1253"),
        ("windows-1254", "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989"
                         " l5 latin5 windows-1254 x-cp1254"),
        ("windows-1255", "cp1255 windows-1255 x-cp1255"),
        ("windows-1256", "cp1256 windows-1256 x-cp1256"),
        ("windows-1257", "cp1257 windows-1257 x-cp1257"),
        ("windows-1258", "cp1258 windows-1258 x-cp1258"),
        ("x-mac-cyrillic", "x-mac-cyrillic x-mac-ukrainian"),
        ("gbk", "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk"),
        ("gb18030", "gb18030"),
        ("big5", "big5 big5-hkscs cn-big5 csbig5 x-x-big5"),
        ("euc-jp", "cseucpkdfmtjapanese euc-jp x-euc-jp"),
        ("iso-2022-jp", "csiso2022jp iso-2022-jp"),
        ("shift_jis", "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis"),
        ("euc-kr", "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601"
                   " ksc_5601 windows-949"),
        ("replacement", "csiso2022kr hz-gb-2312 iso-2022-cn iso-2022-cn-ext iso-2022-kr replacement"),
        ("utf-16be", "unicodefffe utf-16be"),
        ("utf-16le", "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le"),
        ("x-user-defined", "x-user-defined"),
    )
    for label in labels.split()
}
# The Python codec that decodes each encoding as a browser does (a superset where Python's is narrower); the
# others are Python's codec of the same name. "replacement" and "x-user-defined" have decoders of their own.
_BROWSER_CODECS = {
    "ibm866": "cp866",
    "iso-8859-8-i": "iso8859-8",
    "macintosh": "mac-roman",
    "x-mac-cyrillic": "mac-cyrillic",
    "windows-874": "cp874",
    **{f"windows-125{k}": f"cp125{k}" for k in range(9)},
    "gbk": "gb18030",
    "euc-kr": "cp949",
    "shift_jis": "cp932",
    "big5": "big5hkscs",
    "replacement": "replacement",
    "x-user-defined": "x-user-defined",
}
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_BE, "utf-16be"), (codecs.BOM_UTF16_LE, "utf-16le"))
WHITESPACE = "\t\n\f\r "  # what the Encoding Standard trims from a label


def _browser_bytes(error: UnicodeError, codec: str, replace: bool) -> tuple[str, int]:
    """What the Encoding Standard decodes where Python's codec has nothing: in the windows-125x and windows-874
    code pages a byte from 0x80 to 0x9F is the C1 control of that value (0x81 in windows-1252) and windows-1255's
    0xCA is U+05BA; in GBK and gb18030 a lone 0x80 is the euro sign. Anything else is an error: replaced with
    U+FFFD when `replace`, as a browser does, else raised, so that the caller can say so."""
    assert isinstance(error, UnicodeDecodeError)
    byte = error.object[error.start]
    if codec.startswith("cp") and codec != "cp932" and 0x80 <= byte <= 0x9F:
        return chr(byte), error.start + 1
    if codec == "cp1255" and byte == 0xCA:
        return "\u05ba", error.start + 1
    if codec == "gb18030" and byte == 0x80:
        return "\u20ac", error.start + 1
    if replace and codec == "cp932" and _unmapped_shift_jis_pair(error.object, error.start):
        return "\ufffd", error.start + 2  # the Encoding Standard drops a pair whose trail byte is not ASCII
    if replace:
        return "\ufffd", error.start + 1
    raise error


def _unmapped_shift_jis_pair(raw: bytes, start: int) -> bool:
    lead, trail = raw[start], raw[start + 1] if start + 1 < len(raw) else 0
    return (0x81 <= lead <= 0x9F or 0xE0 <= lead <= 0xFC) and 0x80 <= trail <= 0xFC


def _browser_errors(codec: str, replace: bool) -> str:
    """The name of the error handler that decodes `codec`'s gaps as the standard does (a charmap codec's error
    names no code page, so each gets its own handler)."""
    name = f"recordlens.browser-{codec}{'-replace' if replace else ''}"
    try:
        codecs.lookup_error(name)
    except LookupError:
        codecs.register_error(name, lambda error: _browser_bytes(error, codec, replace))
    return name


def decode_windows_1252(raw: bytes) -> str:
    return raw.decode("cp1252", _browser_errors("cp1252", replace=False))  # never fails: its gaps are C1 controls


def resolve_charset(label: str) -> tuple[str, str] | None:
    """(the encoding's name, the Python codec that decodes it as a browser does), or None if a browser does not
    know the label."""
    name = _WHATWG_LABELS.get(label.strip(WHITESPACE + "\"'").lower())
    return None if name is None else (name, _BROWSER_CODECS.get(name, name))


def decode_html(raw: bytes, declared: str | None, warnings: list[str]) -> tuple[str, str]:
    """The page's text and the charset it was decoded with, as Chromium finds it: its BOM, else the first <meta>
    its prescan honours, else the charset its bytes are detected in (`guess_charset`).

    `declared`, the charset an MHTML part's Content-Type header names, does not decide: Chromium ignores it
    (checked in QtWebEngine: a part declared utf-8 whose page says windows-1251 shows as windows-1251, one
    declared shift_jis or koi8-r without a <meta> shows as its bytes read, UTF-8 or windows-1252...). Where it
    would have given the page another text, a warning says so. A page served over HTTP is another matter (its
    header comes before the <meta>), but the app never shows a page so (it serves the core's text with utf-8
    both declared and used)."""
    by_bom = _decoded_by_bom(raw, warnings)
    if by_bom is not None:
        return by_bom
    meta = _meta_charset(raw, warnings)
    if meta is not None:
        decoded = _decoded_as_declared(raw, meta, f"{meta[0]!r} (from its <meta> tag)", warnings)
        if decoded is not None:
            return decoded
    header = resolve_charset(declared) if declared else None
    text, charset = _decode_undeclared(raw, header, warnings)
    _say_an_ignored_header(raw, declared, (text, charset), warnings)
    return text, charset


def decode_served_html(raw: bytes, declared: str | None, warnings: list[str]) -> tuple[str, str]:
    """A document whose transport declares its charset (a `data:` URL's charset parameter, as an HTTP header
    would): its BOM, then that charset when a browser knows it and it fits the bytes, then as `decode_html` (the
    HTML standard's order, where the transport's charset comes before the <meta>; an MHTML part's header is no
    such transport: Chromium ignores it)."""
    by_bom = _decoded_by_bom(raw, warnings)
    if by_bom is not None:
        return by_bom
    charset = _declared_charset(declared, "its Content-Type", warnings)
    if charset is not None and declared is not None:
        decoded = _decoded_as_declared(raw, charset, f"{declared.strip()!r} (from its Content-Type)", warnings)
        if decoded is not None:
            return decoded
    return decode_html(raw, None, warnings)


def _decoded_by_bom(raw: bytes, warnings: list[str]) -> tuple[str, str] | None:
    for bom, name in _BOMS:
        if raw.startswith(bom):
            return decode_or_replace(raw[len(bom) :], (name, name), "the page", warnings), name
    return None


def _say_an_ignored_header(raw: bytes, declared: str | None, decoded: tuple[str, str], warnings: list[str]
                           ) -> None:
    """Warn of an MHTML part's header charset that would have given the page another text than the one it was
    decoded to (Chromium ignores such a header, and so does the core): unknown, unfit for its bytes (the markup
    lost), or simply another."""
    header = _declared_charset(declared, "its Content-Type header", warnings)
    if header is None:
        return
    label = f"{declared.strip()!r} (from its Content-Type header)"  # type: ignore[union-attr]
    said: list[str] = []
    as_declared = _decoded_as_declared(raw, header, label, said)
    if as_declared is None:
        warnings += said  # its markup would be gone
    elif as_declared[0] != decoded[0]:
        warnings.append(f"The page's charset {shortened(label, 100)} was ignored, as Chromium ignores an archive "
                        f"part's header: the page was read as {decoded[1]}, which gives it another text.")


def _decoded_as_declared(raw: bytes, charset: tuple[str, str], declared: str, warnings: list[str]
                         ) -> tuple[str, str] | None:
    """The page decoded with the charset it declares, or None (said) when that charset clearly does not fit its
    bytes: decoded so, the page's markup is gone (UTF-16 declared on UTF-8 bytes reads as a line of CJK)."""
    said: list[str] = []
    text = decode_or_replace(raw, charset, "the page", said)
    if charset[0] != "replacement" and _markup_lost(raw, text):  # browsers blank "replacement" out on purpose
        warnings.append(f"The page's charset {shortened(declared, 100)} does not fit its bytes: decoded so, its "
                        f"markup is gone ({text.count('<')} of its {raw.count(b'<')} '<' left); it was ignored.")
        return None
    warnings += said
    return text, charset[0]


def _markup_lost(raw: bytes, text: str) -> bool:
    """Whether decoding turned most of the page's tags into other characters. The markup of an HTML page is
    ASCII, which every charset a page may declare keeps, except UTF-16 (whose ASCII holds zero bytes, which no
    page in any other charset holds): a page without zero bytes whose '<' mostly went is decoded wrongly."""
    tags = raw.count(b"<")
    return tags >= _FEW_TAGS and b"\x00" not in raw and text.count("<") * 2 < tags


_FEW_TAGS = 4  # fewer '<' than this tell nothing


def _declared_charset(label: str | None, where: str, warnings: list[str]) -> tuple[str, str] | None:
    if not label:
        return None
    charset = resolve_charset(label)
    if charset is None:
        warnings.append(f"The page's charset {shortened(label)!r} (from {where}) is not a known encoding; "
                        "it was ignored.")
    return charset


def _meta_charset(raw: bytes, warnings: list[str]) -> tuple[str, str] | None:
    """The first charset a <meta> declares that a browser knows (an unknown one is said, and the look goes on)."""
    for declaration in meta_declarations(raw):
        charset = _declared_charset(declaration.label, "its <meta> tag", warnings)
        if charset is not None:
            return meta_encoding(charset)
    return None


def meta_encoding(charset: tuple[str, str]) -> tuple[str, str]:
    """The encoding a <meta> declaring `charset` gives: the HTML standard reads a page that can hold this ASCII
    <meta> as neither UTF-16 (it is UTF-8) nor x-user-defined (windows-1252)."""
    if charset[0] in ("utf-16be", "utf-16le", "x-user-defined"):
        return resolve_charset("utf-8" if charset[0].startswith("utf-16") else "windows-1252")  # type: ignore[return-value]
    return charset


@dataclass(frozen=True)
class MetaDeclaration:
    """A charset label a <meta> declares (its `charset`, or the charset in a content-type http-equiv's
    `content`), with the span of the label's bytes in the page."""

    label: str
    start: int
    end: int


def meta_declarations(raw: bytes) -> Iterator[MetaDeclaration]:
    """The charsets the page's <meta> tags declare, in order, as far as Chromium's prescan looks
    (HTMLMetaCharsetParser, checked in QtWebEngine): real tags only (not in comments, scripts, styles, titles),
    through the first 1024 bytes and on while still in <head>, that is until a tag other than those a head holds
    (a `</head>` or `<body>`, a `<div>`, an `<svg>`) once the 1024 bytes are past."""
    text = raw.decode("latin-1")  # one character a byte: positions are byte offsets, the markup is ASCII
    position, in_head = 0, True
    while (tag := _next_tag(text, position)) is not None:
        start, end, name, closing = tag
        if not in_head and start > position and start >= PRESCAN_BYTES:
            return  # the text before this tag ended past the limit
        if name == "meta" and not closing:
            yield from _declarations_of(text, start, end)
        if closing or name not in _HEAD_START_TAGS:
            in_head = in_head and name in _HEAD_TAGS
        if not in_head and end >= PRESCAN_BYTES:
            return
        position = _end_of_raw_text(text, end, name) if not closing else end


# the tags that leave Chromium's prescan in <head>: these, and the start tags of <html> and <head>
_HEAD_TAGS = frozenset({"script", "noscript", "style", "link", "meta", "object", "title", "base"})
_HEAD_START_TAGS = _HEAD_TAGS | {"html", "head"}
# Whose content is text to a tokenizer with scripting off (noscript and noembed are markup to it)
_RAW_TEXT_TAGS = frozenset({"script", "style", "iframe", "xmp", "noframes", "title", "textarea"})
_MARKUP = re.compile(r"<(?:(!--)|([!?])|(/?)([A-Za-z][^\t\n\f\r />]*))")
_COMMENT_END = re.compile(r"-?-?>|.*?--!?>", re.DOTALL)
_ATTRIBUTE = re.compile(r"""[\t\n\f\r /]*([^\t\n\f\r />][^\t\n\f\r /=>]*)(?:[\t\n\f\r ]*=[\t\n\f\r ]*"""
                        r"""(?:"([^"]*)"|'([^']*)'|([^\t\n\f\r >]*)))?""")
_CONTENT_CHARSET = re.compile(r"charset[\t\n\f\r ]*=[\t\n\f\r ]*(?:\"([^\"]*)\"?|'([^']*)'?|([^\t\n\f\r ;]*))",
                              re.IGNORECASE)


def _next_tag(text: str, position: int) -> tuple[int, int, str, bool] | None:
    """(start, end, lowercased name, whether an end tag) of the next tag from `position`, past comments and
    `<!...>`/`<?...>`; None at the end of the page or of its last whole tag."""
    while (match := _MARKUP.search(text, position)) is not None:
        if match.group(1):  # a comment runs to "-->" (or is "<!-->" / "<!--->")
            end = _COMMENT_END.match(text, match.end())
            if end is None:
                return None
            position = end.end()
        elif match.group(2):  # a bogus comment runs to ">"
            position = text.find(">", match.end())
            if position < 0:
                return None
        else:
            end = _end_of_tag(text, match.end())
            if end is None:
                return None
            return match.start(), end, match.group(4).lower(), bool(match.group(3))
    return None


def _end_of_tag(text: str, position: int) -> int | None:
    while True:
        attribute = _ATTRIBUTE.match(text, position)
        position = attribute.end() if attribute and attribute.end() > position else position
        while position < len(text) and text[position] in "\t\n\f\r /":
            position += 1
        if position >= len(text):
            return None
        if text[position] == ">":
            return position + 1
        if attribute is None or attribute.end() == position:  # a stray character: step over it
            position += 1


def _attributes(text: str, start: int, end: int) -> dict[str, tuple[str, int]]:
    """A tag's attributes by lowercased name (the first of a name counts): value and its offset in the page."""
    name = _MARKUP.match(text, start)
    position = end if name is None else name.end()
    attributes: dict[str, tuple[str, int]] = {}
    while position < end - 1 and (match := _ATTRIBUTE.match(text, position)) is not None and match.end() > position:
        value_group = next((g for g in (2, 3, 4) if match.group(g) is not None), None)
        value = ("", match.end()) if value_group is None else (match.group(value_group), match.start(value_group))
        attributes.setdefault(match.group(1).lower(), value)
        position = match.end()
    return attributes


def _declarations_of(text: str, start: int, end: int) -> Iterator[MetaDeclaration]:
    """What one <meta> declares: its `charset`, else with a content-type `http-equiv` the charset in its
    `content` (HTMLMetaCharsetParser's order)."""
    attributes = _attributes(text, start, end)
    if "charset" in attributes:
        value, offset = attributes["charset"]
        yield MetaDeclaration(value, offset, offset + len(value))
        return
    pragma = attributes.get("http-equiv", ("", 0))[0].strip(WHITESPACE).lower() == "content-type"
    if pragma and "content" in attributes:
        value, offset = attributes["content"]
        found = _CONTENT_CHARSET.search(value)
        if found is not None:
            group = next(g for g in (1, 2, 3) if found.group(g) is not None)
            yield MetaDeclaration(found.group(group), offset + found.start(group), offset + found.end(group))


def _end_of_raw_text(text: str, position: int, name: str) -> int:
    """Where the text content of a script, style, title... that starts at `position` ends (its end tag)."""
    if name not in _RAW_TEXT_TAGS:
        return position
    match = re.compile(rf"</{name}[\t\n\f\r />]", re.IGNORECASE).search(text, position)
    return len(text) if match is None else match.start()


def decode_or_replace(raw: bytes, charset: tuple[str, str], what: str, warnings: list[str]) -> str:
    """Decode strictly; where that fails, replace the bad bytes with U+FFFD as a browser does, and say so."""
    name, codec = charset
    if name == "windows-1252":
        return decode_windows_1252(raw)
    if name == "x-user-defined":  # ASCII, and each byte above it to a private-use character of its own
        return "".join(chr(b) if b < 0x80 else chr(0xF700 + b) for b in raw)
    if name == "replacement":
        # labels of encodings a browser refuses to decode (ISO-2022-KR, HZ): the whole page becomes one U+FFFD
        warnings.append(f"{what.capitalize()} declares an encoding browsers do not decode ({name}): "
                        "it reads as one U+FFFD.")
        return "\ufffd" if raw else ""
    text = _decode_as_browsers_do(raw, codec, name, what, warnings)
    return text.translate(KOI8_RU) if name == "koi8-u" else text  # KOI8-RU, as browsers read it


def _decode_as_browsers_do(raw: bytes, codec: str, name: str, what: str, warnings: list[str]) -> str:
    # The code pages and GBK have bytes Python leaves out and the standard does not, and Shift_JIS drops a bad
    # pair whole (see _browser_bytes)
    browser = name.startswith("windows-") or name in ("gbk", "gb18030", "shift_jis")
    strict, replace = (_browser_errors(codec, False), _browser_errors(codec, True)) if browser else ("strict",
                                                                                                    "replace")
    try:
        return raw.decode(codec, strict)
    except UnicodeDecodeError as error:
        warnings.append(
            f"Some bytes of {what} are not valid {name} (the first at byte {error.start}); "
            "they were replaced with U+FFFD."
        )
    except (UnicodeError, ValueError) as error:  # a codec that fails in its own way
        warnings.append(f"{what.capitalize()} cannot be decoded as {name} ({error}); bad bytes became U+FFFD.")
    return raw.decode(codec, replace)


def _decode_undeclared(raw: bytes, header: tuple[str, str] | None, warnings: list[str]) -> tuple[str, str]:
    """A page that declares no charset (or none a browser honours), decoded in the one its bytes are detected in;
    a guess other than UTF-8 is said, with where the bytes stop being UTF-8, unless its part's `header` names
    the same charset (the guess then only confirms it) and the bytes read as text in it."""
    guess = guess_charset(raw)
    if guess.name == "utf-8":
        return decode_or_replace(raw, guess.charset, "the page", warnings), "utf-8"
    if not raw.isascii() and (header is None or header[0] != guess.name or not guess.reads_as_text):
        warnings.append(f"The page declares no charset and is not valid UTF-8 (the first bad byte is at "
                        f"{first_bad_utf_8_byte(raw)}); {_how_guessed(guess)}")
    return decode_or_replace(raw, guess.charset, "the page", warnings), guess.name


def _how_guessed(guess: CharsetGuess) -> str:
    if guess.reads_as_text:
        return f"its bytes were detected as {guess.name}, as Chromium detects a page's charset (a guess)."
    # bytes that read as text in no candidate are damaged, not text, or text in an encoding no browser detects
    # (Vietnamese windows-1258, which Chromium also shows as windows-1252): which of these, nothing tells
    return (f"its bytes read as text in no encoding a browser detects (damaged, not text, or in an encoding "
            f"browsers do not detect, such as Vietnamese windows-1258), so it was read as {guess.name}, the default "
            f"for a page that declares none (a guess: the browser may show it otherwise).")


def first_bad_utf_8_byte(raw: bytes) -> int:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.start
    return len(raw)
