"""A file's path as text where only UTF-8 can go: the project's database, a UTF-8 file, a message.

Linux lets a file's name be any bytes. Python keeps each byte of one that is not UTF-8 as a lone surrogate
(`lat\\udce9n1` for a folder named in Latin-1: `os.fsdecode`'s surrogateescape), and under an ASCII locale
(`LC_ALL=C`, Python's UTF-8 mode off) every byte above ASCII (`donn\\udcc3\\udca9es`). SQLite and UTF-8 refuse a
lone surrogate, so a path, or a text that holds one (a run's folder, a model's provenance naming the folder it
was trained on, a reason naming a file), is written in one of three forms:

- `json_text`: JSON whose strings hold such a text as JSON escapes (`\\udce9`), which a JSON reader gives back as
  the same text: a path stored so is the same path read back, to be opened again (a run's folder).
- `stored_text`: a text only read again (a page's source, a label's provenance, a reason), with those bytes as
  what they say: UTF-8 as its characters (`données`), any other byte as `\\xe9`.
- `shown_bytes`: a message, each such byte as `\\xe9`, as `text_forms.visible` shows a name: one name reads one
  way in every message, whatever wrote it.
"""

from __future__ import annotations

import re

from .text_forms import visible

__all__ = ["json_text", "shown_bytes", "stored_text"]

_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATES = re.compile("[\ud800-\udfff]+")
_FILE_NAME_BYTES = re.compile("[\udc80-\udcff]+")  # what surrogateescape makes of bytes it cannot decode


def json_text(text: str) -> str:
    """JSON text as `json.dumps(..., ensure_ascii=False)` writes it, each lone surrogate (only ever inside a
    string there) written as its JSON escape: valid UTF-8, read back (`json.loads`) as the text it was."""
    return _SURROGATE.sub(lambda found: f"\\u{ord(found[0]):04x}", text)


def stored_text(text: str) -> str:
    """`text` with the bytes of a file name Python keeps as surrogates read as UTF-8 where they are UTF-8 (a name
    read under an ASCII locale), the others written as `shown_bytes` writes them (`\\xe9`): text that SQLite and
    a UTF-8 file hold. For a text that is read, never used as a path again (`json_text` keeps a path whole)."""
    return shown_bytes(_FILE_NAME_BYTES.sub(lambda found: bytes(ord(c) - 0xDC00 for c in found[0]).decode(
        "utf-8", "surrogateescape"), text))


def shown_bytes(text: str) -> str:
    """`text` with each byte of a file name that Python keeps as a surrogate written `\\xe9` (any other lone
    surrogate as `\\ud800`) as `text_forms.visible` writes them, the rest as it is (a line break stays one): how
    a message writes it on any terminal."""
    return _SURROGATES.sub(lambda found: visible(found[0]), text)
