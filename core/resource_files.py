"""Files the project ships under `resources/` (prompts, overlay scripts, the demo project), found the same way
from a source checkout, an editable install or a wheel."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path

from .command_hints import hint_path


@cache
def _resources_folder() -> Path:
    # A strict editable install presents each file as a link into the source tree: the real folder is where
    # the package's own __init__.py lives, so that a folder of resources (the demo site) is one real folder
    # whose files are inside it, as in a wheel.
    return Path(str(files("recordlens.resources").joinpath("__init__.py"))).resolve().parent


def resource_path(*parts: str) -> Path:
    return _resources_folder().joinpath(*parts)


def read_resource(*parts: str) -> str:
    return resource_path(*parts).read_text(encoding="utf-8")


def is_shipped(path: str | Path) -> bool:
    """Whether `path` is one of the files RecordLens ships (the demo tasks, say): those are never written."""
    return Path(path).resolve().is_relative_to(_resources_folder())


def never_changed(path: str | Path) -> str:
    """Why a command writes nothing at `path`, one of the files RecordLens ships (`is_shipped`): the next user, and
    the check of an install, find them as shipped, and a read-only install has no room for more. The caller adds
    what to do instead."""
    return f"{hint_path(path)} is inside the files RecordLens ships, which are never changed"
