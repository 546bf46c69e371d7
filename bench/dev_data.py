"""Where the benchmark scripts find the third-party pages: `../shared/data` beside the repository (the scripts run
as `python bench/NAME.py`, so this folder is on sys.path)."""

from __future__ import annotations

import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
DEV = DATA / "nexteval-synth-dev"
DEVELOPMENT = ("nexteval-synth-dev", "nexteval-synth-more")  # the 80 development pages


def development_sets() -> list[tuple[Path, Path]]:
    """The (html, gt) folders of the development datasets; the script stops with a clear message without them."""
    missing = [s for s in DEVELOPMENT if not (DATA / s / "html").is_dir()]
    if missing:
        sys.exit(f"missing data: {', '.join(missing)} under {DATA}")
    return [(DATA / s / "html", DATA / s / "gt") for s in DEVELOPMENT]
