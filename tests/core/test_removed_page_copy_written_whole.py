"""A removed page's copy (removed_files.write_new) gets its name only once whole: `project remove-page` killed
while writing it left an empty or cut-short `removed/ID-NAME.TIME.json` beside the real copy of a later removal,
named like one (and `restore-page` refused it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core.store.removed_files import write_new

# Writes a copy into `folder`, killed (no clean-up of any kind: os._exit) as it writes its text (`write`) or as it
# syncs what it wrote to the disk (`fsync`).
_KILLED_WRITING = """
import builtins, os, sys
from pathlib import Path
from recordlens.core.store import removed_files

where = sys.argv[2]

class Dying:
    def __init__(self, handle):
        self.handle = handle
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        self.handle.close()
    def write(self, text):
        if where == "write":
            os._exit(9)
        return self.handle.write(text)
    def __getattr__(self, name):
        return getattr(self.handle, name)

def dying_fsync(fd):
    os._exit(9)

removed_files.open = lambda *args, **options: Dying(builtins.open(*args, **options))
if where == "fsync":
    removed_files.os.fsync = dying_fsync
removed_files.write_new(Path(sys.argv[1]), "6-21.2026-12-06T05-40-56.428Z", '{"page": {"name": "21"}}')
"""


def visible(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))


@pytest.mark.parametrize("where", ["write", "fsync"])
def test_a_copy_killed_part_way_leaves_no_file_named_like_a_copy(tmp_path: Path, where: str) -> None:
    folder = tmp_path / "removed"
    killed = subprocess.run([sys.executable, "-c", _KILLED_WRITING, str(folder), where], check=False, timeout=120)
    assert killed.returncode == 9
    assert visible(folder) == []
    kept = write_new(folder, "6-21.2026-12-06T05-40-58.069Z", '{"page": {"name": "21"}}')  # removed again
    assert [p.name for p in folder.iterdir()] == [kept.name]  # whole, and what the killed one left is gone
    assert kept.read_text(encoding="utf-8") == '{"page": {"name": "21"}}'


def test_a_copy_never_replaces_a_file_and_leaves_nothing_hidden(tmp_path: Path) -> None:
    folder = tmp_path / "removed"
    folder.mkdir()
    (folder / "6-21.T.json").write_text("someone else's", encoding="utf-8")
    kept = write_new(folder, "6-21.T", "{}")
    assert kept.name == "6-21.T-1.json" and kept.read_text(encoding="utf-8") == "{}"
    assert (folder / "6-21.T.json").read_text(encoding="utf-8") == "someone else's"
    assert sorted(p.name for p in folder.iterdir()) == ["6-21.T-1.json", "6-21.T.json"]
