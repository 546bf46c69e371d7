"""packaging/smoke.py trains a model with the installed `recordlens train`: a build that cannot train fails it.

The desktop package once lacked `sklearn.ensemble` (loaded by name, so PyInstaller did not see it) and passed its
smoke test, which never trained. Here the programs tested are this checkout's own `recordlens`, started through a
script, once as they are, once with `sklearn.ensemble` found as the package found it: a folder of data files
with no code, and once unable to start its fit workers (the model is the same: only the line that says so tells).
The annotator is a stand-in that does nothing (its checks are test_frozen_app.py's): only the command line's steps
are looked at. About thirty seconds: three runs of the command line's steps.
"""

from __future__ import annotations

import stat
import sys
from pathlib import Path

from .helpers import ROOT, packaging_module

smoke = packaging_module("smoke")

# Run at the start of Python (PYTHONPATH's sitecustomize): `sklearn.ensemble` is found as a folder with no code.
FOLDER_ONLY = '''import importlib.abc, importlib.machinery, os, sys

class FolderOnly(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name != "sklearn.ensemble":
            return None
        return importlib.machinery.PathFinder.find_spec(name, [os.path.join(os.path.dirname(__file__), "sklearn")])

sys.meta_path.insert(0, FolderOnly())
'''

# The same, for a build whose program cannot start itself as a fit worker (`-m` broken in the frozen program): the
# worker's module is not found, so `train --workers 2` fits in its own process and writes the same model.
NO_WORKER = '''import importlib.abc, sys

class NoWorker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "recordlens.core.extract.fit_worker":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoWorker())
'''


def _programs(folder: Path, *, without_ensemble: bool = False, without_workers: bool = False) -> smoke.Programs:
    """This checkout's command line as a program of `folder` (a sitecustomize hides `sklearn.ensemble` or the fit
    worker's module when asked), and an annotator that does nothing."""
    folder.mkdir(parents=True)
    python_path = ""
    site = folder / "site"
    if without_ensemble:
        (site / "sklearn" / "ensemble").mkdir(parents=True)
        (site / "sklearn" / "ensemble" / "meson.build").write_text("# a data file\n", encoding="utf-8")
        (site / "sitecustomize.py").write_text(FOLDER_ONLY, encoding="utf-8")
    if without_workers:
        site.mkdir()
        (site / "sitecustomize.py").write_text(NO_WORKER, encoding="utf-8")
    if site.is_dir():
        python_path = f"PYTHONPATH={site} "
    cli = folder / "recordlens"
    cli.write_text(f'#!/bin/sh\n{python_path}exec "{sys.executable}" -m recordlens.annotator.cli "$@"\n',
                   encoding="utf-8")
    annotator = folder / "recordlens-annotator"
    annotator.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    for program in (cli, annotator):
        program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return smoke.Programs(annotator=annotator, cli=cli)


def _train_step(report: smoke.Report) -> smoke.Step:
    return next(step for step in report.steps if step.name == "recordlens train")


def test_the_smoke_test_trains_with_the_installed_command(tmp_path: Path) -> None:
    report = smoke.run_smoke(_programs(tmp_path / "bin"), ROOT, tmp_path / "run",
                             timeout=240, log=lambda _: None)
    train = _train_step(report)
    assert (train.returncode, train.problems) == (0, [])
    assert [p for p in report.problems if p.startswith("recordlens ")] == []


def test_a_build_without_the_ensembles_fails_the_smoke_test(tmp_path: Path) -> None:
    report = smoke.run_smoke(_programs(tmp_path / "bin", without_ensemble=True), ROOT, tmp_path / "run",
                             timeout=240, log=lambda _: None)
    train = _train_step(report)
    assert train.returncode == 2 and len(train.problems) == 1, train
    assert "sklearn.ensemble, which RecordLens needs here, is missing" in train.problems[0]
    assert "only its folder was found" in train.problems[0]  # as in the package, not merely not installed
    assert "Traceback" not in train.problems[0]  # one line, as every other failure of a command


def test_a_build_whose_fit_workers_cannot_start_fails_the_smoke_test(tmp_path: Path) -> None:
    report = smoke.run_smoke(_programs(tmp_path / "bin", without_workers=True), ROOT, tmp_path / "run",
                             timeout=240, log=lambda _: None)
    train = _train_step(report)
    assert train.returncode == 0 and smoke._is_model(tmp_path / "run" / "cwd" / "smoke-model.json")  # as before
    assert len(train.problems) == 1, train
    assert train.problems[0].startswith("the fit workers did not run: warning: fitting in worker processes failed (")
    assert train.problems[0].endswith("); fitting in this process instead")
