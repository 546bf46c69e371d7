"""The packaging scripts live in packaging/, which is no Python package (the name belongs to PyPI's `packaging`,
which pip and PyInstaller import): tests load them from their files."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
FROZEN_FOLDER = ROOT / "dist" / "RecordLens"


def packaging_module(name: str) -> ModuleType:
    key = f"recordlens_packaging_{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, PACKAGING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module
