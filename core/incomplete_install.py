"""The one wording of an incomplete installation: a file RecordLens ships (or one of the libraries it ships with)
is not where its install put it, and the way to install again. The app says it of the files it reads as it starts
(`annotator/install_check.py`), and every command of the shipped selector model, so both say it alike."""

from __future__ import annotations

import sys
from pathlib import Path

from .command_hints import hint_path
from .errors import RecordLensError


class IncompleteInstall(RecordLensError):
    """A file RecordLens ships is not where its install put it; `missing` names it."""

    # What a dialog says above it, where the app would otherwise say what the user tried: the install is at fault
    heading = "RecordLens cannot start: its installation is incomplete."

    def __init__(self, missing: str) -> None:
        super().__init__(f"{missing} is missing: the RecordLens installation is incomplete; {how_to_install_again()}")


def missing_file(path: str | Path) -> IncompleteInstall:
    """IncompleteInstall of a file of the app's folder, named as a command would take it."""
    return IncompleteInstall(hint_path(path))


def how_to_install_again() -> str:
    if getattr(sys, "frozen", False):  # the packaged folder (PyInstaller)
        return "unpack its archive (RecordLens-VERSION-PLATFORM-ARCH.tar.gz) again, into an empty folder"
    return ("install it again (`pip install --force-reinstall 'recordlens[app]'`; in a source checkout, restore the "
            "file with `git checkout`)")
