"""The built folder dist/RecordLens/ starts and draws the demo project (packaging/smoke.py), and the same smoke
test fails on a copy that lacks QtWebEngine's process.

Runs only when the folder has been built (`make package`, a few minutes): `make test` never builds it. The app
is started as a separate program, offscreen, offline, from a temporary folder with a fresh HOME.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .helpers import FROZEN_FOLDER, packaging_module

smoke = packaging_module("smoke")

pytestmark = pytest.mark.skipif(not (FROZEN_FOLDER / "recordlens-annotator").is_file(),
                                reason="dist/RecordLens/ not built (make package)")


def test_the_frozen_folder_starts_offline_and_draws_the_demo_project(tmp_path: Path) -> None:
    report = smoke.run_smoke(smoke.Programs.in_folder(FROZEN_FOLDER), FROZEN_FOLDER, tmp_path)
    assert report.problems == []
    assert [s.name for s in report.steps] == ["recordlens --help", "recordlens demo", "recordlens train",
                                              "recordlens agent tasks filter",
                                              "annotator first start",
                                              "annotator second start"]
    assert (tmp_path / "cwd" / "annotator-second-start.png").is_file()


def test_a_folder_without_the_webengine_process_fails_the_smoke_test(tmp_path: Path) -> None:
    broken = tmp_path / "RecordLens"
    # Hard links: a full copy of ~700 MB in seconds, and the build itself is never touched.
    shutil.copytree(FROZEN_FOLDER, broken, symlinks=True, copy_function=os.link)
    process = next(broken.rglob("QtWebEngineProcess*"))
    process.unlink()
    report = smoke.run_smoke(smoke.Programs.in_folder(broken), broken, tmp_path / "run", timeout=120)
    annotator_problems = [p for p in report.problems if p.startswith("annotator")]
    assert any("QtWebEngine part missing" in p and "QtWebEngineProcess" in p for p in annotator_problems)


def test_the_folder_adds_itself_to_the_application_menu(tmp_path: Path) -> None:
    data = tmp_path / "share"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_DATA_HOME": str(data)}
    subprocess.run([str(FROZEN_FOLDER / "install-desktop-entry.sh")], env=env, check=True, capture_output=True)
    entry = (data / "applications" / "recordlens.desktop").read_text(encoding="utf-8")
    assert f'Exec="{FROZEN_FOLDER / "recordlens-annotator"}" %f' in entry.splitlines()
    assert (data / "icons" / "hicolor" / "256x256" / "apps" / "recordlens.png").is_file()
