"""A Ctrl+C (or SIGTERM) that lands while SciPy's optimiser is first loaded inside a command is an interruption.

pybind11's extension modules (`scipy.optimize._highspy._core`) turn a KeyboardInterrupt raised while they
initialise into `ImportError("initialization failed")`, the interruption only its cause. `import` took that for a
failure of the page in hand and went on, every later page failing on the half-registered module ("80 not
imported"); `labels check --project` ended in a traceback. Here `scipy.optimize` fails to load as it does then:
the import system finds it through a loader that raises what pybind11 raises."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import scipy.optimize  # noqa: F401 - loaded for real first: the test puts it back as it was

from recordlens.core.cli import labels as labels_cli
from recordlens.core.interruption import Terminated
from recordlens.core.lazy_import import interruption_behind, load
from tests.core.cli_runs import DEMO, run

OPTIMISER = "scipy.optimize"


class _InterruptedWhileLoading(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `scipy.optimize` and fails to load it as a pybind11 module fails when a signal's handler raises
    while it initialises: the stop (`stop`) becomes the cause of an ImportError."""

    def __init__(self, stop: type[KeyboardInterrupt]) -> None:
        self.stop = stop
        self.loads = 0

    def find_spec(self, name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.machinery.ModuleSpec(name, self) if name == OPTIMISER else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: object) -> None:
        self.loads += 1
        try:
            raise self.stop  # the signal's handler, run inside the module's initialisation
        except KeyboardInterrupt as interruption:
            raise ImportError("initialization failed") from interruption  # pybind11's PYBIND11_MODULE


@pytest.fixture
def interrupted_load(monkeypatch: pytest.MonkeyPatch) -> Iterator[_InterruptedWhileLoading]:
    """`scipy.optimize` not loaded yet, and its load interrupted by Ctrl+C (`finder.stop` may be changed)."""
    finder = _InterruptedWhileLoading(KeyboardInterrupt)
    monkeypatch.delitem(sys.modules, OPTIMISER)  # put back when the test ends
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    yield finder


def a_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    project = tmp_path / "p"
    assert run(capsys, "project", "init", str(project))[0] == 0
    return project


def a_run_unlike_its_labels(tmp_path: Path) -> Path:
    """Predictions of the demo's pages that differ from their labels (the last record of each replaced): scoring
    them needs the optimiser (a run that proposes the true records is scored without it, as the ceiling is)."""
    pred = tmp_path / "pred"
    pred.mkdir()
    for truth in sorted((DEMO / "gt").glob("*.json")):
        records = json.loads(truth.read_text(encoding="utf-8"))
        (pred / truth.name).write_text(json.dumps([*records[:-1], ["/body[1]"]]), encoding="utf-8")
    return pred


def score_args(tmp_path: Path) -> tuple[str, ...]:
    return ("score", "--pred", str(a_run_unlike_its_labels(tmp_path)), "--gt", str(DEMO / "gt"), "--pages",
            str(DEMO / "html"))


def test_a_score_interrupted_while_the_optimiser_loads_stops_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], interrupted_load: _InterruptedWhileLoading) -> None:
    code, out, err = run(capsys, *score_args(tmp_path))
    assert code == 130, err
    assert err.rstrip().endswith("recordlens: interrupted") and "initialization failed" not in err, err
    assert interrupted_load.loads == 1  # stopped at once, not tried again page after page


def test_a_sigterm_met_while_the_optimiser_loads_is_said_as_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], interrupted_load: _InterruptedWhileLoading) -> None:
    interrupted_load.stop = Terminated
    code, _, err = run(capsys, *score_args(tmp_path))
    assert code == 143 and err.rstrip().endswith("recordlens: interrupted (SIGTERM)"), err


def test_import_and_labels_check_do_not_load_the_optimiser(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], interrupted_load: _InterruptedWhileLoading) -> None:
    """The labels' ceiling pairs each distinct true record with its copy, without the optimiser: a Ctrl+C there
    meets no half-loaded module."""
    project = a_project(tmp_path, capsys)
    assert run(capsys, "import", str(DEMO), "--project", str(project))[0] == 0
    with sqlite3.connect(project / "project.db") as db:  # no check remembered: each page is checked anew
        db.execute("DELETE FROM label_checks")
    assert run(capsys, "labels", "check", "--project", str(project))[0] == 0
    assert interrupted_load.loads == 0


def test_any_module_interrupted_while_it_loads_ends_the_command_as_an_interruption(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A module loaded part way through a command other than through `lazy_import.load` (a library's own lazy
    import): the command's handler says the stop, not a traceback."""
    def loads_a_module(args: object) -> int:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interruption:
            raise ImportError("initialization failed") from interruption

    monkeypatch.setattr(labels_cli, "run", loads_a_module)
    code, _, err = run(capsys, "labels", "check", "--pages", "x", "--gt", "y")
    assert code == 130 and err.rstrip() == "recordlens: interrupted", err


def test_a_sigterm_whose_trace_a_loader_dropped_is_still_said_as_one(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A loader that keeps no cause (older pybind11 set a bare ImportError): the SIGTERM the command met is
    remembered, and the ImportError that followed it is taken as its stop."""
    def loads_a_module(args: object) -> int:
        try:
            os.kill(os.getpid(), signal.SIGTERM)  # the command's own handler raises Terminated
            time.sleep(60)  # never reached: the signal's handler runs first
        except KeyboardInterrupt:
            raise ImportError("initialization failed") from None
        return 0

    monkeypatch.setattr(labels_cli, "run", loads_a_module)
    code, _, err = run(capsys, "labels", "check", "--pages", "x", "--gt", "y")
    assert code == 143 and err.rstrip() == "recordlens: interrupted (SIGTERM)", err


def test_load_raises_the_interruption_behind_an_import_error_and_nothing_else(
        interrupted_load: _InterruptedWhileLoading) -> None:
    with pytest.raises(KeyboardInterrupt) as raised:
        load(OPTIMISER)
    assert type(raised.value) is KeyboardInterrupt
    interrupted_load.stop = Terminated
    with pytest.raises(Terminated):
        load(OPTIMISER)
    with pytest.raises(ModuleNotFoundError):  # an ImportError of its own stays one
        load("recordlens_no_such_module")
    assert load("json").dumps([]) == "[]"


def test_the_interruption_is_found_through_causes_and_contexts() -> None:
    stop = Terminated()
    inner = ImportError("initialization failed")
    inner.__cause__ = stop
    outer = RuntimeError("while reading a page")
    outer.__context__ = inner
    assert interruption_behind(outer) is stop
    assert interruption_behind(ImportError("no module")) is None
    looped = ImportError("a")
    looped.__context__ = ValueError("b")
    looped.__context__.__context__ = looped  # a cycle ends the search
    assert interruption_behind(looped) is None
