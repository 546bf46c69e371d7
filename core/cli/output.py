"""What every command shares about output: the document on stdout (or a file), warnings on stderr."""

from __future__ import annotations

import sys
from pathlib import Path


def warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def write_document(text: str, out: str | None) -> None:
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text, encoding="utf-8")
        print(f"wrote {out} ({len(text):,} characters)", file=sys.stderr)
    else:
        sys.stdout.write(text)
        if not text.endswith("\n"):
            sys.stdout.write("\n")


