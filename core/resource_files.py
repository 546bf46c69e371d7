"""Files the project ships under `resources/` (prompts, overlay scripts, the demo project), found the same way
from a source checkout, an editable install or a wheel."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def resource_path(*parts: str) -> Path:
    return Path(str(files("recordlens.resources").joinpath(*parts)))


def read_resource(*parts: str) -> str:
    return resource_path(*parts).read_text(encoding="utf-8")
