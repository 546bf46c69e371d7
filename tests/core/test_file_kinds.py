"""Every kind of path a user may give where a file is read, named as the messages say it."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from recordlens.core.file_kinds import other_kind


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
