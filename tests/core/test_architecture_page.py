"""docs/architecture.md describes the tree as it is: every module of core/ and annotator/ is placed in its
package's list under "Module by module", no list names a module that is gone, and every path the page names
exists. And each core package states its API in `__init__.py`, as the page's rules say."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "architecture.md"
PACKAGES = ("core", "annotator")
TOP_FOLDERS = ("core/", "annotator/", "resources/", "tests/", "bench/", "packaging/", "docs/")

_SECTION = re.compile(r"^### `(?P<package>[\w/]+/)`$")
_LISTED = re.compile(r"^- `(?P<module>[\w]+\.py)` — \S")
_CODE = re.compile(r"`([^`]+)`")


def page_text() -> str:
    return PAGE.read_text(encoding="utf-8")


def tree_modules() -> dict[str, set[str]]:
    """Each package folder (`core/page/`) -> its modules' file names, `__init__.py` aside."""
    modules: dict[str, set[str]] = {}
    for top in PACKAGES:
        for init in (ROOT / top).rglob("__init__.py"):
            folder = init.parent
            package = f"{folder.relative_to(ROOT).as_posix()}/"
            modules[package] = {p.name for p in folder.glob("*.py") if p.name != "__init__.py"}
    return modules


def listed_modules(text: str) -> dict[str, list[str]]:
    """The page's "Module by module" lists: package -> the modules listed under it, in order."""
    listed: dict[str, list[str]] = {}
    package = None
    for line in text.split("## Module by module", 1)[1].splitlines():
        if heading := _SECTION.match(line):
            package = heading["package"]
            listed.setdefault(package, [])
        elif line.startswith("## "):
            break
        elif package is not None and (entry := _LISTED.match(line)):
            listed[package].append(entry["module"])
    return listed


def test_every_package_has_its_list_and_every_list_is_a_package() -> None:
    assert "## Module by module" in page_text()
    assert sorted(listed_modules(page_text())) == sorted(tree_modules())


@pytest.mark.parametrize("package", sorted(tree_modules()))
def test_every_module_is_placed_once_and_nothing_gone_is_listed(package: str) -> None:
    listed = listed_modules(page_text()).get(package, [])
    missing = tree_modules()[package] - set(listed)
    gone = set(listed) - tree_modules()[package]
    assert not missing, f"docs/architecture.md does not place {sorted(missing)} under `{package}`"
    assert not gone, f"docs/architecture.md lists {sorted(gone)} under `{package}`, which has no such module"
    assert len(listed) == len(set(listed)), f"a module is listed twice under `{package}`"


def named_paths(text: str) -> list[str]:
    """Every path in backquotes that starts at one of the project's top folders (`core/page/dom.py`)."""
    paths = []
    for code in _CODE.findall(text):
        for word in code.split():
            word = word.rstrip(",.;:)")
            if word.startswith(TOP_FOLDERS) and "*" not in word:
                paths.append(word)
    return paths


def test_every_path_the_page_names_exists() -> None:
    paths = named_paths(page_text())
    assert len(paths) > 10  # the page names paths this way; a change of form would hide them from this test
    missing = sorted({p for p in paths if not (ROOT / p).exists()})
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


def test_every_file_name_the_page_names_is_a_file_of_the_tree() -> None:
    """A module named by its file name alone (`charset.py`, beside `core/page/snapshot.py`) is one that exists."""
    names = {p.name for top in (*PACKAGES, "bench", "packaging", "tests") for p in (ROOT / top).rglob("*.py")}
    named = {code for code in _CODE.findall(page_text()) if re.fullmatch(r"[\w]+\.py", code)}
    assert not named - names, f"docs/architecture.md names files that do not exist: {sorted(named - names)}"


def test_the_installed_commands_are_the_modules_the_page_says() -> None:
    """The entry points: the page says which module each installed command runs."""
    scripts = dict(re.findall(r'^(recordlens[\w-]*) = "recordlens\.([\w.]+):main"$',
                              (ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.MULTILINE))
    assert scripts, "pyproject.toml installs no command"
    entry_points = page_text().split("## Entry points", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in entry_points.splitlines() if line.startswith("| `")]
    for command, module in scripts.items():
        path = module.replace(".", "/") + ".py"
        assert any(f"`{command}` (installed script)" in row and f"`{path}`" in row for row in rows), (command, path)


@pytest.mark.parametrize("init", sorted((ROOT / "core").glob("*/**/__init__.py")), ids=lambda p: p.parent.name)
def test_every_core_package_states_its_api(init: Path) -> None:
    """Every package below `core/` (core's own top-level modules are imported by their names)."""
    tree = ast.parse(init.read_text(encoding="utf-8"))
    stated = [node for node in tree.body if isinstance(node, ast.Assign)
              and any(isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets)]
    assert stated, f"{init.relative_to(ROOT)} states no __all__"
