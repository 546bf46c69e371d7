"""What every command shares about output: the document on stdout (or a file), warnings on stderr."""

from __future__ import annotations

import sys
from pathlib import Path


def warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


class Replacing:
    """A file about to be written whole: after the write, `said()` tells the user when an earlier one was there,
    so that it is not lost unawares (the write itself is atomic)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.existed = self.path.is_file()

    def said(self) -> None:
        if self.existed:
            print(f"replaced the earlier {self.path}", file=sys.stderr)


def write_document(text: str, out: str | None) -> None:
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text, encoding="utf-8")
        print(f"wrote {out} ({len(text):,} characters)", file=sys.stderr)
    else:
        sys.stdout.write(text)
        if not text.endswith("\n"):
            sys.stdout.write("\n")


