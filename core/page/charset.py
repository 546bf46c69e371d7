"""Decoding a page as a browser does: byte order marks, declared charsets (the part's header, then `<meta>`),
WHATWG label mapping, and the U+FFFD replacement of undecodable bytes with a warning that says where."""

from __future__ import annotations

import codecs
import re

from ..errors import shortened

PRESCAN_BYTES = 1024  # the HTML standard's limit for finding a <meta> charset

# Labels a browser reads differently from Python (WHATWG Encoding Standard), mapped to the encoding it uses
_WHATWG_LABELS = {
    label: name
    for labels, name in (
        (
            "ascii us-ascii ansi_x3.4-1968 iso-8859-1 iso8859-1 iso_8859-1 latin1 l1 cp819 ibm819 iso-ir-100"
            " csisolatin1 cp1252 x-cp1252",
            "windows-1252",
        ),
        ("iso-8859-9 iso8859-9 latin5 l5", "windows-1254"),
        ("tis-620 iso-8859-11 dos-874", "windows-874"),
        ("gb2312 gb_2312 x-gbk chinese csgb2312", "gbk"),
        ("ks_c_5601-1987 korean windows-949 cseuckr", "euc-kr"),
        ("shift-jis sjis ms_kanji windows-31j x-sjis csshiftjis ms932", "shift_jis"),
        ("big5-hkscs x-x-big5 cn-big5 csbig5", "big5"),
        ("utf8 unicode-1-1-utf-8 unicode11utf8 unicode20utf8 x-unicode20utf8", "utf-8"),
    )
    for label in labels.split()
}
# The Python codec that decodes each of those as the browser does (a superset where Python's is narrower)
_BROWSER_CODECS = {
    "windows-1252": "cp1252",
    "windows-1254": "cp1254",
    "windows-874": "cp874",
    "gbk": "gb18030",
    "euc-kr": "cp949",
    "shift_jis": "cp932",
    "big5": "big5hkscs",
}
# Python text codecs that no web page is in: a label naming one is as unknown as a misspelt one
_NOT_PAGE_CODECS = {"undefined", "unicode-escape", "raw-unicode-escape", "idna", "punycode", "charmap"}
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_BE, "utf-16be"), (codecs.BOM_UTF16_LE, "utf-16le"))
# What an encoding label can be made of (every WHATWG label, every Python codec name): nothing else is looked up.
_LABEL = re.compile(r"[a-z0-9._:+-]{1,64}")
_META_CHARSET = re.compile(rb"<meta\b[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9._:-]+)", re.IGNORECASE)


def _c1_controls(error: UnicodeError) -> tuple[str, int]:
    # WHATWG windows-1252 maps the five bytes cp1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) to the
    # C1 controls of the same value; only the cp1252 decoder below uses this handler
    assert isinstance(error, UnicodeDecodeError)
    return "".join(map(chr, error.object[error.start : error.end])), error.end


codecs.register_error("recordlens.whatwg-c1", _c1_controls)


def decode_windows_1252(raw: bytes) -> str:
    return raw.decode("cp1252", "recordlens.whatwg-c1")


def resolve_charset(label: str) -> tuple[str, str] | None:
    """(the encoding's name, the Python codec that decodes it as a browser does), or None if unknown."""
    name = label.strip().strip("\"'").lower()
    if not _LABEL.fullmatch(name):
        return None  # a NUL or other control byte makes Python's codec lookup raise ValueError, not LookupError
    name = _WHATWG_LABELS.get(name, name)
    codec = _BROWSER_CODECS.get(name, name)
    try:
        b" ".decode(codec)  # raises LookupError for unknown names and for bytes-to-bytes codecs ("base64")
    except UnicodeError:
        pass  # a text codec that needs more than one byte, such as UTF-16 (UnicodeError is a ValueError)
    except (LookupError, ValueError):
        return None
    return None if codecs.lookup(codec).name in _NOT_PAGE_CODECS else (name, codec)


def decode_html(raw: bytes, declared: str | None, warnings: list[str]) -> tuple[str, str]:
    """The page's text and the charset it was decoded with: BOM, declared charset, else UTF-8 or windows-1252."""
    for bom, name in _BOMS:
        if raw.startswith(bom):
            return decode_or_replace(raw[len(bom) :], (name, name), "the page", warnings), name
    charset = _declared_charset(declared, "its Content-Type header", warnings) or _meta_charset(raw, warnings)
    if charset is not None:
        return decode_or_replace(raw, charset, "the page", warnings), charset[0]
    return _decode_undeclared(raw, warnings)


def _declared_charset(label: str | None, where: str, warnings: list[str]) -> tuple[str, str] | None:
    if not label:
        return None
    charset = resolve_charset(label)
    if charset is None:
        warnings.append(f"The page's charset {shortened(label)!r} (from {where}) is not a known encoding; "
                        "it was ignored.")
    return charset


def _meta_charset(raw: bytes, warnings: list[str]) -> tuple[str, str] | None:
    match = _META_CHARSET.search(raw, 0, PRESCAN_BYTES)
    if match is None:
        return None
    label = match.group(1).decode("ascii").lower()
    if label.startswith("utf-16") or label == "x-user-defined":
        # the HTML standard: a page that can hold this ASCII <meta> is not UTF-16
        label = "utf-8" if label.startswith("utf-16") else "windows-1252"
    return _declared_charset(label, "its <meta> tag", warnings)


def decode_or_replace(raw: bytes, charset: tuple[str, str], what: str, warnings: list[str]) -> str:
    """Decode strictly; where that fails, replace the bad bytes with U+FFFD as a browser does, and say so."""
    name, codec = charset
    if name == "windows-1252":
        return decode_windows_1252(raw)
    try:
        return raw.decode(codec)
    except UnicodeDecodeError as error:
        warnings.append(
            f"Some bytes of {what} are not valid {name} (the first at byte {error.start}); "
            "they were replaced with U+FFFD."
        )
    except (UnicodeError, ValueError) as error:  # a codec that fails in its own way
        warnings.append(f"{what.capitalize()} cannot be decoded as {name} ({error}); bad bytes became U+FFFD.")
    return raw.decode(codec, "replace")


def _decode_undeclared(raw: bytes, warnings: list[str]) -> tuple[str, str]:
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as error:
        warnings.append(
            f"The page declares no charset and is not valid UTF-8 (the first bad byte is at {error.start}); "
            "it was decoded as windows-1252."
        )
        return decode_windows_1252(raw), "windows-1252"


