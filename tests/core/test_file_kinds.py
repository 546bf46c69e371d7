"""Every kind of path a user may give where a file is read, named as the messages say it."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from recordlens.core.file_kinds import NotRegularFile, TooLarge, not_regular, other_kind, read_regular_file


def test_each_kind_of_path_is_named(tmp_path: Path) -> None:
    regular = tmp_path / "page.html"
    regular.write_text("<p>a</p>", encoding="utf-8")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    listening = socket.socket(socket.AF_UNIX)
    try:
        listening.bind(str(tmp_path / "sock"))
        kinds = {path.name: other_kind(os.stat(path).st_mode)
                 for path in (regular, fifo, tmp_path / "sock", tmp_path, Path("/dev/null"))}
    finally:
        listening.close()
    assert kinds == {"page.html": None, "fifo": "a FIFO (named pipe)", "sock": "a socket",
                     tmp_path.name: "a folder", "null": "a device"}


def test_only_a_regular_file_is_read_and_never_past_its_limit(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(b"x" * 100)
    assert read_regular_file(page) == b"x" * 100
    assert read_regular_file(page, max_bytes=100) == b"x" * 100
    with pytest.raises(TooLarge) as large:
        read_regular_file(page, max_bytes=99)
    assert (large.value.size, large.value.limit) == (100, 99)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile) as refused:  # at once: nothing waits for a writer
        read_regular_file(fifo)
    assert refused.value.kind == "a FIFO (named pipe)"
    assert refused.value.strerror == not_regular(os.stat(fifo).st_mode) == "a FIFO (named pipe), not a regular file"
    with pytest.raises(NotRegularFile):
        read_regular_file(tmp_path)
    with pytest.raises(FileNotFoundError):
        read_regular_file(tmp_path / "missing.html")
    assert not_regular(os.stat(page).st_mode) is None
