"""File layouts shared by every command: a *dataset* is `DIR/html/N.html|.mhtml` plus `DIR/gt/N.json`;
a *run* (predictions) is `DIR/N.json`. Page names are file stems (`12`, `12_v3`), ordered naturally."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import DatasetError, RecordLensError
from .dom import Page, parse_html
from .snapshot import Snapshot, read_snapshot

# When a folder holds both N.mhtml and N.html, the MHTML (the original snapshot) wins.
PAGE_SUFFIXES = (".mhtml", ".mht", ".html", ".htm")


def natural_key(name: str) -> tuple[object, ...]:
    """`2` before `10`, and `10` before `10_v2`: numbers compare as numbers."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


def page_files(pages_dir: str | Path, warnings: list[str] | None = None) -> dict[str, Path]:
    """Page name -> file, for every saved page in a folder; a name saved twice (12.html and 12.mhtml) takes
    the MHTML, and is reported in `warnings` when given."""
    folder = Path(pages_dir)
    if not folder.is_dir():
        raise DatasetError(f"{folder} is a file; pages are read from a folder of N.html / N.mhtml" if folder.exists()
                           else f"{folder}: no such folder of pages")
    rank = {suffix: i for i, suffix in enumerate(PAGE_SUFFIXES)}
    saved = [p for p in folder.iterdir() if p.suffix.lower() in rank]  # 7.HTML is a page too
    found: dict[str, Path] = {}
    # The least wanted suffix first, so that the MHTML of a page saved twice is the one kept.
    for path in sorted(saved, key=lambda p: (-rank[p.suffix.lower()], p.name)):
        if not path.is_file():
            if warnings is not None:
                warnings.append(f"{path.name} in {folder} is not a file; skipped")
            continue
        if path.stem in found and warnings is not None:
            warnings.append(f"page {path.stem}: both {found[path.stem].name} and {path.name} in {folder}; "
                            f"{path.name} is used")
        found[path.stem] = path
    return {name: found[name] for name in sorted(found, key=natural_key)}


def record_files(folder: str | Path) -> dict[str, Path]:
    """Page name -> `N.json` in a ground-truth or run folder."""
    path = Path(folder)
    if not path.is_dir():
        raise DatasetError(f"{path}: no such folder of records")
    names = sorted((p.stem for p in path.glob("*.json") if p.is_file()), key=natural_key)
    return {name: path / f"{name}.json" for name in names}


def find_page_file(pages_dir: str | Path, name: str) -> Path | None:
    folder = Path(pages_dir)
    for suffix in (*PAGE_SUFFIXES, *(s.upper() for s in PAGE_SUFFIXES)):
        candidate = folder / f"{name}{suffix}"
        if candidate.is_file():
            return candidate
    return None


@dataclass
class LoadedPage:
    name: str
    path: Path
    snapshot: Snapshot
    page: Page


def load_page(path: str | Path, name: str | None = None) -> LoadedPage:
    """Read a saved page (MHTML or HTML) and parse it: the one way every command opens a page."""
    path = Path(path)
    snapshot = read_snapshot(path)
    try:
        page = parse_html(snapshot.html)
    except RecordLensError as error:  # the parser does not know the file: name it, as read_snapshot does
        raise type(error)(f"Cannot read {path}: {error}") from None
    page.warnings.extend(snapshot.warnings)
    page.name = name or path.stem
    return LoadedPage(page.name, path, snapshot, page)
