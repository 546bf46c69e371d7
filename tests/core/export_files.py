"""The label tables `recordlens export` writes in its output folder, read back: labels.jsonl a dict a line,
labels.csv a dict a row."""

from __future__ import annotations

import csv
import json
from pathlib import Path


def jsonl_lines(out: Path) -> list[dict[str, object]]:
    """The lines of `out`/labels.jsonl, each read as JSON."""
    return [json.loads(line) for line in (out / "labels.jsonl").read_text(encoding="utf-8").splitlines()]


def csv_rows(out: Path) -> list[dict[str, str]]:
    """The rows of `out`/labels.csv, each by its column names."""
    with (out / "labels.csv").open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))
