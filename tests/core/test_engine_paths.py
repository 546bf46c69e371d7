"""Relative paths given to a command name the command's files on every engine (the Ray tester's first problem): a
unit of work may run in another folder (a Ray worker runs where its instance or node was started). The Ray engine
ships a path as it was given, with the command's folder, and runs the unit in that folder where the worker's node
has it, so that the path names, and is said as, what the local engine names; where the node has no such folder, the
unit gets a relative path made absolute in the command's folder, by `engines.absolute_path`.

Without Ray: `ElsewhereEngine` ships each unit as the Ray engine does to a node without the command's folder
(pickled, paths through `absolute_path`) and runs it in another folder that holds a decoy of the same relative names.
"""

from __future__ import annotations

import copyreg
import io
import os
import pickle
import shutil
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

import pytest

from recordlens.core.extract import create
from recordlens.core.runs.engines import UnitFailedError, absolute_path
from recordlens.core.runs.evaluate import score_run
from recordlens.core.runs.runner import run_extractor
from tests.conftest import DEV, require_shared


class ElsewhereEngine:
    """Runs each unit in `folder`, after a pickle round trip whose paths travel as the Ray engine ships them."""

    name = "elsewhere"

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def map(self, fn: Callable[[object], object], items: Sequence[object], *, key: Callable[[object], str] = str,
            progress: Callable[[list[str]], object] = lambda names: names,
            stop_when: Callable[[object], bool] = lambda result: False,
            ) -> Iterator[tuple[object, object | UnitFailedError]]:
        for item in items:
            unit, shipped_item = _shipped((fn, item))
            here = os.getcwd()
            os.chdir(self.folder)
            try:
                result = unit(shipped_item)
            finally:
                os.chdir(here)
            yield item, result

    def shipping(self, extractor: object) -> AbstractContextManager[object]:
        return nullcontext(extractor)

    def close(self) -> None:
        return None


def _shipped(value: object) -> object:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer)
    pickler.dispatch_table = {**copyreg.dispatch_table, type(Path()): lambda p: (Path, (absolute_path(p),))}
    pickler.dump(value)
    return pickle.loads(buffer.getvalue())


def _copy_pages(folder: Path, names: list[str]) -> None:
    for kind in ("html", "gt"):
        (folder / kind).mkdir(parents=True)
    for name in names:
        shutil.copy(DEV / "html" / f"{name}.html", folder / "html" / f"{name}.html")
        shutil.copy(DEV / "gt" / f"{name}.json", folder / "gt" / f"{name}.json")


@pytest.fixture
def caller_and_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The command's folder, with pages 1 and 100 under data/; the worker's, whose data/html/1.html is page 100."""
    require_shared(DEV)
    caller, worker = tmp_path / "caller", tmp_path / "worker"
    _copy_pages(caller / "data", ["1", "100"])
    _copy_pages(worker / "data", ["1"])
    shutil.copy(DEV / "html" / "100.html", worker / "data" / "html" / "1.html")  # the same name, another page
    monkeypatch.chdir(caller)
    return caller, worker


def test_a_relative_path_travels_absolute_from_the_commands_folder(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert absolute_path(Path("data/html")) == str(tmp_path / "data" / "html")
    assert absolute_path(Path("/srv/pages")) == "/srv/pages"
    assert _shipped(Path("runs/out")) == tmp_path / "runs" / "out"


def test_extract_and_score_elsewhere_use_the_commands_files(caller_and_worker: tuple[Path, Path]) -> None:
    caller, worker = caller_and_worker
    engine = ElsewhereEngine(worker)
    here = run_extractor(create("repeats"), "data/html", "runs/local")
    elsewhere = run_extractor(create("repeats"), "data/html", "runs/elsewhere", engine=engine)

    assert sorted(elsewhere.extracted) == sorted(here.extracted) == ["1", "100"] and not elsewhere.failed
    for name in ("1", "100"):  # the command's page 1, not the worker's decoy, and written where asked
        assert (caller / "runs" / "elsewhere" / f"{name}.json").read_bytes() == \
            (caller / "runs" / "local" / f"{name}.json").read_bytes()
    assert not (worker / "runs").exists()

    by_local, _ = score_run("runs/local", "data/gt", "data/html")
    by_elsewhere, _ = score_run("runs/local", "data/gt", "data/html", engine=engine)
    assert by_elsewhere.as_dict() == by_local.as_dict()


class OneWorkerDiesEngine(ElsewhereEngine):
    """A unit whose worker died, as Ray reports it (a UnitFailedError for that item), the others run."""

    def __init__(self, folder: Path, dies: str) -> None:
        super().__init__(folder)
        self.dies = dies

    def map(self, fn, items, *, key=str, progress=lambda names: names, stop_when=lambda result: False):  # noqa: ANN001
        for item, result in super().map(fn, items, key=key, progress=progress, stop_when=stop_when):
            yield item, (UnitFailedError("its Ray worker died (WorkerCrashedError)") if key(item) == self.dies
                         else result)


def test_a_page_whose_worker_died_is_kept_as_a_failed_page(tmp_path: Path) -> None:
    """Failed as any page that raises is: its reason in `_run/N.json`, which score and a rerun read."""
    import json

    pages = tmp_path / "html"
    pages.mkdir()
    for name in ("1", "2"):
        (pages / f"{name}.html").write_text(f"<ul><li>a {name}</li><li>b {name}</li></ul>", encoding="utf-8")
    summary = run_extractor(create("repeats"), pages, tmp_path / "run", engine=OneWorkerDiesEngine(tmp_path, "2"))
    assert list(summary.failed) == ["2"] and (tmp_path / "run" / "1.json").is_file()
    record = json.loads((tmp_path / "run" / "_run" / "2.json").read_text(encoding="utf-8"))
    assert record["status"] == "failed" and "worker died" in record["reason"]
