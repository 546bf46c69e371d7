"""A file QtWebEngine cannot start without (its helper process, its .pak resources, ICU's data, V8's snapshot) missing
from the Qt that PySide6 brings is said before QtWebEngine starts, as any file of the app's folder missing is: in
one line naming it, "the RecordLens installation is incomplete", exit status 2. Without the look, Qt aborted the
process in its own words (SIGABRT for the process or the .pak, SIGTRAP for ICU's data) or every page stayed blank
("page 1 did not load", V8's snapshot).

The Qt looked at is a PySide6 of links: a folder of the test's own whose `PySide6/` links every file of the venv's
PySide6 but the one left out (first on PYTHONPATH, PySide6 takes its Qt's place from where it is imported), so no
file of the venv is ever moved. The app starts as the packaged folder starts it (packaging/frozen_main.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import PySide6
import pytest

from recordlens.annotator.install_check import IncompleteInstall, check_start_files, webengine_files
from recordlens.core.command_hints import hint_path

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]
PYSIDE = Path(PySide6.__file__).parent
CHILD_TIMEOUT_S = 300  # two busy cores; without the look, a blank page is waited for before it is said
QT_FILES = ["resources/qtwebengine_resources.pak", "resources/icudtl.dat", "resources/v8_context_snapshot.bin",
            "libexec/QtWebEngineProcess"]


def pyside_without(folder: Path, missing: str) -> Path:
    """A PySide6 in `folder` made of links to the venv's, but for the file `missing` (a path inside its Qt/);
    the folder to put on PYTHONPATH."""
    real, fake = PYSIDE, folder / "PySide6"
    for part in ("Qt", *Path(missing).parts):  # each folder on the way to the missing file is a real one
        fake.mkdir(parents=True)
        for entry in real.iterdir():
            if entry.name != part:
                (fake / entry.name).symlink_to(entry)
        real, fake = real / part, fake / part
    return folder


def test_the_files_are_where_pyside6_s_qt_keeps_them() -> None:
    files = webengine_files({})
    assert [f.relative_to(PYSIDE / "Qt").as_posix() for f in files] == [QT_FILES[3], *QT_FILES[:3]]
    assert all(f.is_file() for f in files)


def test_qt_s_variables_are_where_it_looks_instead(tmp_path: Path) -> None:
    process, resources = tmp_path / "bin" / "QtWebEngineProcess", tmp_path / "data"
    environ = {"QTWEBENGINEPROCESS_PATH": str(process), "QTWEBENGINE_RESOURCES_PATH": str(resources)}
    assert webengine_files(environ) == [process, *(resources / Path(f).name for f in QT_FILES[:3])]


@pytest.mark.parametrize("missing", QT_FILES)
def test_each_is_looked_for(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, missing: str) -> None:
    qt = pyside_without(tmp_path, missing) / "PySide6" / "Qt"
    monkeypatch.setenv("QTWEBENGINEPROCESS_PATH", str(qt / "libexec" / "QtWebEngineProcess"))
    monkeypatch.setenv("QTWEBENGINE_RESOURCES_PATH", str(qt / "resources"))
    with pytest.raises(IncompleteInstall, match=f"^{hint_path(qt / missing)} is missing: the RecordLens "
                                                "installation is incomplete;"):
        check_start_files()


@pytest.mark.parametrize("missing", QT_FILES)
def test_the_app_says_it_before_qtwebengine_starts(tmp_path: Path, missing: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(pyside_without(tmp_path / "site", missing)),
           "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    env.pop("QTWEBENGINEPROCESS_PATH", None)
    env.pop("QTWEBENGINE_RESOURCES_PATH", None)
    done = subprocess.run([sys.executable, str(ROOT / "packaging" / "frozen_main.py"), "--demo-dir",
                           str(tmp_path / "demo"), "--screenshot", str(tmp_path / "shot.png")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
    gone = tmp_path / "site" / "PySide6" / "Qt" / missing
    assert done.stderr.splitlines() == [
        f"recordlens-annotator: error: {hint_path(gone)} is missing: the RecordLens installation is incomplete; "
        "install it again (`pip install --force-reinstall 'recordlens[app]'`; in a source checkout, restore the file "
        "with `git checkout`)"], done.stderr[-3000:]
    assert done.returncode == 2
