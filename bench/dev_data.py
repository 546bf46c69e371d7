"""Where the benchmark scripts find the third-party pages: `../shared/data` beside the repository (the scripts run
as `python bench/NAME.py`, so this folder is on sys.path)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
DEV = DATA / "nexteval-synth-dev"
DEVELOPMENT = ("nexteval-synth-dev", "nexteval-synth-more")  # the 80 development pages
# A script's exit status when the pages it measures are not there: `make bench` says it skipped the script and goes on,
# where any other failure stops it.
MISSING_DATA = 3


def require(*needed: Path) -> None:
    """Stop the script with a one-line "missing data" message (exit status MISSING_DATA) unless every file or folder
    it needs is there."""
    missing = [path for path in needed if not path.exists()]
    if missing:
        print(f"missing data: {', '.join(map(str, missing))}", file=sys.stderr)
        sys.exit(MISSING_DATA)


def development_sets() -> list[tuple[Path, Path]]:
    """The (html, gt) folders of the development datasets; the script stops with a clear message without them."""
    require(*(DATA / s / "html" for s in DEVELOPMENT))
    return [(DATA / s / "html", DATA / s / "gt") for s in DEVELOPMENT]


def write_or_check(shipped: Path, document: dict, *, check: bool) -> int:
    """Write a file the project ships that is made from the development pages, or, with `check`, say whether the
    shipped one is what they give (exit status 1 when it differs)."""
    text = json.dumps(document, indent=1) + "\n"
    if check:
        same = shipped.is_file() and shipped.read_text(encoding="utf-8") == text
        print(f"{shipped}: {'as made' if same else 'DIFFERS from what the development pages give'}")
        return 0 if same else 1
    shipped.write_text(text, encoding="utf-8")
    print(f"wrote {shipped}")
    return 0
