"""Trims what PyInstaller's PySide6 hooks collect for RecordLens, used by recordlens.spec.

QtWebEngineWidgets imports QtQuickWidgets, so the hooks collect every QML plugin PySide6 ships (Quick 3D, Charts,
Multimedia, virtual keyboard...) and the Qt libraries those plugins need: about 300 MB the app never loads, since
its UI is widgets only. This drops the QML tree, then every Qt library that no remaining binary links to
(QtWebEngineProcess, the Python extensions and Qt's platform plugins are the roots), so what QtWebEngine itself
links stays whatever it is in a given Qt version. The smoke test is what proves the result still starts.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable
from pathlib import Path

TocEntry = tuple[str, str, str]  # (destination in the bundle, source path, type code)

QML_PREFIX = "PySide6/Qt/qml/"
QT_LIB_PREFIX = "PySide6/Qt/lib/"
BINARY_TYPES = {"BINARY", "EXTENSION", "EXECUTABLE"}


def _posix(dest: str) -> str:
    return dest.replace("\\", "/")


def prune(binaries: list[TocEntry], datas: list[TocEntry],
          imports_of: Callable[[str], Iterable[str | None]]) -> tuple[list[TocEntry], list[TocEntry], list[str]]:
    """(binaries, datas, dropped destinations). `imports_of(source)` gives the resolved paths a binary links to."""
    kept = [e for e in binaries if not _posix(e[0]).startswith(QML_PREFIX)]
    by_source = {str(Path(src).resolve()): _posix(dest) for dest, src, kind in kept if kind in BINARY_TYPES}
    source_of = {dest: src for src, dest in by_source.items()}
    reached: set[str] = set()
    todo = [dest for dest in source_of if not dest.startswith(QT_LIB_PREFIX)]
    while todo:
        dest = todo.pop()
        if dest in reached:
            continue
        reached.add(dest)
        for path in imports_of(source_of[dest]):
            needed = path and by_source.get(str(Path(path).resolve()))
            if needed and needed not in reached:
                todo.append(needed)
    unused = {dest for dest in source_of if dest.startswith(QT_LIB_PREFIX) and dest not in reached}
    dropped = {_posix(e[0]) for e in binaries if _posix(e[0]).startswith(QML_PREFIX)} | unused

    def wanted(entry: TocEntry) -> bool:
        dest, target, kind = _posix(entry[0]), entry[1], entry[2]
        if dest in dropped or dest.startswith(QML_PREFIX):
            return False
        if kind == "SYMLINK":  # a link to a dropped file would dangle
            return posixpath.normpath(posixpath.join(posixpath.dirname(dest), _posix(target))) not in dropped
        return True

    left_out = [e for e in [*binaries, *datas] if not wanted(e)]
    return ([e for e in binaries if wanted(e)], [e for e in datas if wanted(e)],
            sorted(dropped | {_posix(e[0]) for e in left_out}))


def pyinstaller_imports(source: str) -> list[str | None]:
    from PyInstaller.depend.bindepend import get_imports

    return [path for _name, path in get_imports(source)]
