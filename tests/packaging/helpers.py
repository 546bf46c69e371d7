"""The packaging scripts live in packaging/, which is no Python package (the name belongs to PyPI's `packaging`,
which pip and PyInstaller import): tests load them from their files."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from tests.script_modules import script_module

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
FROZEN_FOLDER = ROOT / "dist" / "RecordLens"


def packaging_module(name: str) -> ModuleType:
    return script_module(PACKAGING / f"{name}.py", f"recordlens_packaging_{name}")
