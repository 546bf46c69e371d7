"""A file given where a selector model goes (`extract --model`, `inspect`, `train --out` deciding whether it may
write over it) that is no model is refused from its first bytes, the rest never read: a large file of another kind
(a page archive, a database, a video) was read whole, and a gzip file of something else decompressed whole, before
its first character said it was no model's JSON. A model, plain or gzip-compressed, still loads."""

from __future__ import annotations

import gzip
import tracemalloc
from pathlib import Path

import pytest

from recordlens.core.extract.selector import DEFAULT_MODEL
from recordlens.core.extract.selector_model import ModelError, SelectorModel, is_model_file

LARGE = 32 * 1024 * 1024  # bytes: read whole, it shows in the memory a load takes
READ_AT_MOST = 1024 * 1024  # what loading may take while refusing it: far less than the file


def _peak_while(action) -> int:  # noqa: ANN001 - any call
    """The most memory Python held at once while `action` ran, in bytes."""
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _refused(path: Path) -> str:
    with pytest.raises(ModelError) as refused:
        SelectorModel.load(path)
    return str(refused.value)


def test_a_large_text_file_is_refused_from_its_first_character(tmp_path: Path) -> None:
    notes = tmp_path / "notes.json"
    with notes.open("wb") as file:
        file.write(b"  \nhello, these are notes\n")
        file.truncate(LARGE)  # the rest zeros (a sparse file: no disk taken)
    said: list[str] = []
    assert _peak_while(lambda: said.append(_refused(notes))) < READ_AT_MOST
    assert said == [f"{notes}: not a selector model (it begins with 'h', and a model's JSON begins with '{{')"]
    assert _peak_while(lambda: said.append(str(is_model_file(notes)))) < READ_AT_MOST
    assert said[-1] == "False"


def test_a_gzip_file_of_something_else_is_refused_without_decompressing_it_whole(tmp_path: Path) -> None:
    archive = tmp_path / "pages.json.gz"
    archive.write_bytes(gzip.compress(b"<html>" + b" " * LARGE, mtime=0))
    said: list[str] = []
    assert _peak_while(lambda: said.append(_refused(archive))) < READ_AT_MOST
    assert said == [f"{archive}: not a selector model (it begins with '<', and a model's JSON begins with '{{')"]


def test_bytes_that_are_not_utf8_are_said_so_from_the_start(tmp_path: Path) -> None:
    binary = tmp_path / "video.json"
    with binary.open("wb") as file:
        file.write(b"\x00\x00\x00\x18ftypmp42\xff\xfe")
        file.truncate(LARGE)
    said: list[str] = []
    assert _peak_while(lambda: said.append(_refused(binary))) < READ_AT_MOST
    assert said == [f"{binary}: not a selector model (not UTF-8 text)"]
    nul = tmp_path / "nul.json"
    nul.write_bytes(b"\x00" * 10)
    assert _refused(nul) == f"{nul}: not a selector model (it begins with '\\x00', and a model's JSON begins with '{{')"


def test_a_model_plain_or_compressed_still_loads_and_a_json_object_is_read_as_before(tmp_path: Path) -> None:
    shipped = SelectorModel.load(DEFAULT_MODEL)
    plain = tmp_path / "m.json"
    shipped.save(plain)
    packed = shipped.save(tmp_path / "m.json.gz")
    assert SelectorModel.load(plain).digest == SelectorModel.load(packed).digest == shipped.digest
    assert is_model_file(plain) and is_model_file(packed)
    spaced = tmp_path / "spaced.json"
    spaced.write_text("\n" * 100 + plain.read_text(encoding="utf-8"), encoding="utf-8")  # white space first
    assert SelectorModel.load(spaced).members
    other = tmp_path / "other.json"
    other.write_text('{"pages": [1, 2]}', encoding="utf-8")
    assert _refused(other) == f"{other}: not a selector model (expected format 'recordlens-selector/3')"
    cut = tmp_path / "cut.json"
    cut.write_text('{"format": "recordlens', encoding="utf-8")
    assert _refused(cut).startswith(f"{cut}: not a selector model (invalid JSON: ")
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    assert _refused(empty) == f"{empty}: not a selector model (the file is empty)"
