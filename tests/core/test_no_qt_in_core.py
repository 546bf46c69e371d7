"""core/ is plain Python: no module below it imports Qt, statically or when imported."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "core"
QT_ROOTS = {"PySide6", "PySide2", "PyQt5", "PyQt6", "shiboken6", "qtpy", "pytestqt"}


def _imports_by_name(call: ast.Call) -> bool:
    """importlib.import_module("...") or __import__("..."): an import all the same."""
    func = call.func
    return (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id in ("__import__", "import_module"))


def test_no_core_module_names_qt_or_the_app_in_an_import() -> None:
    offenders = []
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Call) and _imports_by_name(node):
                names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in QT_ROOTS or "annotator" in n]
    assert offenders == []


def test_importing_every_core_module_loads_no_qt() -> None:
    modules = [
        "recordlens.core." + ".".join(p.relative_to(CORE).with_suffix("").parts)
        for p in CORE.rglob("*.py") if p.name != "__init__.py"
    ]
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(r for r in {sorted(QT_ROOTS)!r} if r in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
