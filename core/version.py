"""The installed RecordLens's version: what a trained model records having been made by, and `--version` says."""

from __future__ import annotations

from importlib import metadata

NOT_INSTALLED = "(version unknown: not installed as a package)"


def recordlens_version(missing: str = "unknown") -> str:
    """The installed package's version (the desktop package carries its metadata too); `missing` when RecordLens
    runs from a tree that was not installed."""
    try:
        return metadata.version("recordlens")
    except metadata.PackageNotFoundError:
        return missing


def version_line(program: str) -> str:
    """What `PROGRAM --version` says, alike for both programs (`recordlens`, `recordlens-annotator`)."""
    return f"{program} {recordlens_version(missing=NOT_INSTALLED)}"
