"""Every module RecordLens loads by name is among the desktop package's hidden imports (packaging/recordlens.spec).

PyInstaller follows `import` statements only. A module loaded by name (`lazy_import.load("...")`,
`importlib.import_module(...)`) is in the frozen folder only when the spec lists it; one left out made the frozen
`recordlens train` fail on `sklearn.ensemble`, which nothing imports by a statement. RecordLens's own modules (and
those started as `-m` modules) come along with `collect_submodules("recordlens")`; any other must be named in the
spec's `LOADED_BY_NAME`. Read from the source, without a build.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .helpers import PACKAGING, ROOT

SOURCE_DIRS = ("core", "annotator")
SPEC = PACKAGING / "recordlens.spec"
# Where a name given to the import functions is no constant, and where what it can be is checked instead.
DYNAMIC = {("core/extract/__init__.py", "_resolve"): "the extractors' registry, checked below",
           ("core/lazy_import.py", "load"): "the loader itself: its callers' names are read"}


@dataclass(frozen=True)
class Loaded:
    name: str | None  # None: not a constant (`DYNAMIC`)
    where: str        # path relative to the root
    function: str     # the enclosing function ("" at module level)
    line: int

    def __str__(self) -> str:
        return f"{self.name or '<not a constant>'} ({self.where}:{self.line})"


class _Finder(ast.NodeVisitor):
    """The modules one file loads by name: the calls to `load` (core/lazy_import.py), `import_module`, `__import__`,
    and the `"-m", MODULE` of a command line it starts."""

    def __init__(self, where: str, tree: ast.Module) -> None:
        self.where = where
        self.constants = {target.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
                          for target in node.targets if isinstance(target, ast.Name)
                          and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)}
        self.loaders = {"__import__"} | {alias.asname or alias.name for node in ast.walk(tree)
                                         if isinstance(node, ast.ImportFrom) for alias in node.names
                                         if (node.module or "").endswith(("lazy_import", "importlib"))
                                         and alias.name in ("load", "import_module")}
        self.function = ""
        self.found: list[Loaded] = []

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        outer, self.function = self.function, node.name
        self.generic_visit(node)
        self.function = outer

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Call(self, node: ast.Call) -> None:
        called = node.func
        by_name = (isinstance(called, ast.Name) and called.id in self.loaders) or (
            isinstance(called, ast.Attribute) and called.attr == "import_module")
        if by_name and node.args:
            self._add(node.args[0], node.lineno)
        self.generic_visit(node)

    def visit_List(self, node: ast.List | ast.Tuple) -> None:
        items = node.elts
        for flag, module in zip(items, items[1:], strict=False):
            if isinstance(flag, ast.Constant) and flag.value == "-m":
                self._add(module, node.lineno)
        self.generic_visit(node)

    visit_Tuple = visit_List

    def _add(self, argument: ast.expr, line: int) -> None:
        name = argument.value if isinstance(argument, ast.Constant) and isinstance(argument.value, str) else (
            self.constants.get(argument.id) if isinstance(argument, ast.Name) else None)
        self.found.append(Loaded(name, self.where, self.function, line))


def loaded_in(where: str, source: str) -> list[Loaded]:
    """The modules the file `where` (its text `source`) loads by name."""
    tree = ast.parse(source, filename=where)
    finder = _Finder(where, tree)
    finder.visit(tree)
    return finder.found


def loaded_by_name() -> list[Loaded]:
    return [loaded for folder in SOURCE_DIRS for path in sorted((ROOT / folder).rglob("*.py"))
            for loaded in loaded_in(path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8"))]


def is_recordlens_module(name: str) -> bool:
    """RecordLens's own: every one of them is a hidden import (`collect_submodules("recordlens")`)."""
    return name.startswith((".", "recordlens."))


def spec_list(name: str) -> list[str]:
    """The list of strings the spec assigns to `name` (read, not run: the spec runs only inside PyInstaller)."""
    for node in ast.parse(SPEC.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            value = ast.literal_eval(node.value)
            assert isinstance(value, list) and all(isinstance(v, str) for v in value), f"{name} is no list of names"
            return value
    raise AssertionError(f"{SPEC} assigns no {name}")


def hidden_imports_source() -> str:
    """The expression the spec assigns to `hiddenimports`."""
    for node in ast.parse(SPEC.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "hiddenimports"
                                                for t in node.targets):
            return ast.unparse(node.value)
    raise AssertionError(f"{SPEC} assigns no hiddenimports")


def test_every_module_loaded_by_name_is_a_hidden_import_of_the_package() -> None:
    found = loaded_by_name()
    assert "sklearn.ensemble" in {f.name for f in found}  # the scan sees the loads it is about
    listed = spec_list("LOADED_BY_NAME")
    assert "LOADED_BY_NAME" in hidden_imports_source() and "collect_submodules('recordlens')" in \
        hidden_imports_source()
    missing = [f for f in found if f.name is not None and not is_recordlens_module(f.name) and f.name not in listed]
    assert not missing, ("loaded by name but not in packaging/recordlens.spec's LOADED_BY_NAME (the frozen folder "
                         f"would lack them): {', '.join(map(str, missing))}")
    unread = [f for f in found if f.name is None and (f.where, f.function) not in DYNAMIC]
    assert not unread, ("a module loaded by a name that is no constant: list what it can be in the spec, and the "
                        f"call in DYNAMIC here with how it is checked: {', '.join(map(str, unread))}")
    stale = sorted(set(listed) - {f.name for f in found})
    assert not stale, f"LOADED_BY_NAME lists modules nothing loads by name any more: {stale}"


def test_the_extractors_registered_by_name_are_recordlens_modules() -> None:
    """`extract.create` imports a registered extractor's "module:attribute" (`_resolve`, the `DYNAMIC` call)."""
    tree = ast.parse((ROOT / "core" / "extract" / "__init__.py").read_text(encoding="utf-8"))
    factories = [call.args[1].value for call in ast.walk(tree) if isinstance(call, ast.Call)
                 and isinstance(call.func, ast.Name) and call.func.id == "register" and len(call.args) > 1
                 and isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, str)]
    assert "mdr" in " ".join(factories)
    assert all(is_recordlens_module(f.partition(":")[0]) for f in factories), factories


def test_the_scan_reads_each_way_of_loading_by_name() -> None:
    source = ('from ..lazy_import import load\nimport importlib\nOPTIMISER = "scipy.optimize"\n\n'
              'def fit(name):\n    return load("sklearn.ensemble"), load(OPTIMISER), importlib.import_module(name)\n\n'
              'COMMAND = [sys.executable, "-m", "recordlens.core.extract.fit_worker"]\n')
    found = loaded_in("core/x.py", source)
    assert [(f.name, f.function) for f in found] == [("sklearn.ensemble", "fit"), ("scipy.optimize", "fit"),
                                                    (None, "fit"), ("recordlens.core.extract.fit_worker", "")]
