"""Scripts that live outside the package (packaging/, bench/) are no importable modules: tests load them from
their files."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def script_module(path: Path, key: str) -> ModuleType:
    """The script at `path` as the module `key`, loaded once."""
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module
