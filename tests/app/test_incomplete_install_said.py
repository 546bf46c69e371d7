"""A file the app reads at start missing from its folder (a file deleted, an install cut short) is said in one line
that names it and says how to install again, with exit status 2 and no traceback: through each way the app is
started (the packaged folder's entry script, `python -m`, the `recordlens-annotator` command's `app.main`).

Each case runs the app as a child process on a copy of the package (core/, annotator/ and resources/, in a
`recordlens/` folder of its own put first on PYTHONPATH: the app's folder, as an install lays it out) from which
one file is deleted (a script, a demo folder, a demo page or its labels); offscreen, with settings and the demo
project in the test's folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.annotator import install_check
from recordlens.annotator.install_check import IncompleteInstall, check_start_files, start_files
from recordlens.annotator.labelling.demo_project import demo_page_files
from recordlens.annotator.labelling.page_view import PageView
from recordlens.annotator.qt import page_scripts
from recordlens.core.command_hints import hint_path
from recordlens.core.resource_files import resource_path

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]
CHILD_TIMEOUT_S = 300  # the first start builds the demo project; two busy cores
PREFIX = "recordlens-annotator: error: "
# The app's entry points, each a command line before the app's own arguments
FROZEN_ENTRY = [sys.executable, str(ROOT / "packaging" / "frozen_main.py")]
MODULE_ENTRY = [sys.executable, "-m", "recordlens.annotator"]
COMMAND_ENTRY = [sys.executable, "-c", "import sys; from recordlens.annotator.app import main; sys.exit(main())"]


def app_folder(tmp_path: Path, missing: str) -> Path:
    """A copy of the package whose resources/ lacks `missing` (a path inside it); the folder to put on PYTHONPATH."""
    package = tmp_path / "app" / "recordlens"
    skip = shutil.ignore_patterns("__pycache__")
    for part in ("core", "annotator", "resources"):
        shutil.copytree(ROOT / part, package / part, ignore=skip)
    gone = package / "resources" / missing
    shutil.rmtree(gone) if gone.is_dir() else gone.unlink()
    return package.parent


def start(entry: list[str], tmp_path: Path, missing: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(app_folder(tmp_path, missing)), "QT_QPA_PLATFORM": "offscreen",
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    return subprocess.run([*entry, "--demo-dir", str(tmp_path / "demo"), "--screenshot", str(tmp_path / "shot.png")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)


def assert_said_in_one_line(done: subprocess.CompletedProcess[str], tmp_path: Path, missing: str) -> None:
    path = tmp_path / "app" / "recordlens" / "resources" / missing
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    said = [line for line in done.stderr.splitlines() if line.startswith(PREFIX)]
    assert said == [f"{PREFIX}{hint_path(path)} is missing: the RecordLens installation is incomplete; install it "
                    "again (`pip install --force-reinstall 'recordlens[app]'`; in a source checkout, restore the "
                    "file with `git checkout`)"], done.stderr[-3000:]
    assert done.returncode == 2


def test_every_file_checked_is_shipped() -> None:
    assert all(path.exists() for path in start_files())
    assert resource_path("js", "overlay.js") in start_files()
    assert set(demo_page_files()) <= set(start_files())


@pytest.mark.parametrize("missing", ["js/overlay.js", "js/dom_rules.js", "js/bridge.js", "js/shadow_host.js",
                                     "demo/dataset", "demo/synthetic", "demo/dataset/html/1.html"])
def test_a_start_file_missing_from_the_packaged_folder_is_said_in_one_line(tmp_path: Path, missing: str) -> None:
    assert_said_in_one_line(start(FROZEN_ENTRY, tmp_path, missing), tmp_path, missing)


def test_python_m_says_it_too(tmp_path: Path) -> None:
    assert_said_in_one_line(start(MODULE_ENTRY, tmp_path, "js/overlay.js"), tmp_path, "js/overlay.js")


def test_the_page_view_says_a_script_it_cannot_read(tmp_path: Path) -> None:
    """`app.main` alone (a script importing the app), with no look beforehand: the page view's own reading says it."""
    assert_said_in_one_line(start(COMMAND_ENTRY, tmp_path, "js/overlay.js"), tmp_path, "js/overlay.js")


@pytest.mark.parametrize("missing", ["demo/dataset/html/2.html", "demo/dataset/gt/3.json",
                                     "demo/synthetic/html/4_v2.html"])
def test_the_demo_says_a_page_missing_from_its_folder(tmp_path: Path, missing: str) -> None:
    """`app.main` alone, with no look beforehand: the demo's own build says it (a page without its labels was built
    unlabelled, one without its HTML was a traceback)."""
    assert_said_in_one_line(start(COMMAND_ENTRY, tmp_path, missing), tmp_path, missing)


def test_qwebchannel_missing_from_qt_is_an_incomplete_install(monkeypatch, qapp) -> None:
    monkeypatch.setattr(page_scripts, "QWEBCHANNEL_RESOURCE", ":/qtwebchannel/gone.js")
    said = r"^qwebchannel\.js \(in Qt's QtWebChannel library\) is missing"
    with pytest.raises(IncompleteInstall, match=said):
        check_start_files()
    with pytest.raises(IncompleteInstall, match=said):  # the page view reads it too, as the app opens a project
        PageView()


def test_the_packaged_folder_is_installed_again_by_unpacking_it(monkeypatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert "unpack its archive (RecordLens-VERSION-PLATFORM-ARCH.tar.gz) again" in install_check.how_to_install_again()
