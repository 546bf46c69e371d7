"""Each Propose reads its pages in threads of its own, and the C allocator keeps the high-water mark of their
largest parse for the process, arena by arena: 34-39 MB after one of the heaviest development pages, in bursts
around the largest pages over a long labelling session. A Propose job gives that memory back as it ends, the
allocator trimmed (`trimmed`; Learn's `given_back` collects first), once, whether it finished, failed or was
cancelled (bench/propose_memory.py has the figures)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from recordlens.annotator.labelling import propose
from recordlens.annotator.labelling.propose import ProposeWorker
from recordlens.core import extract
from recordlens.core.errors import RecordLensError
from tests.app.window_helpers import imported_project

pytestmark = pytest.mark.app

ITEMS = "".join(f"<li><a href='/{n}'>item {n}</a> {n} EUR</li>" for n in range(12))


@pytest.fixture
def given_back_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The thread of each call of `trimmed` by a Propose job (the name propose.py calls)."""
    calls: list[str] = []
    monkeypatch.setattr(propose, "trimmed", lambda: calls.append(threading.current_thread().name),
                        raising=False)  # before Propose gave memory back, it had no such name
    return calls


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return imported_project(tmp_path, {f"html/{n}.html": f"<html><body><h1>shop {n}</h1><ul>{ITEMS}</ul></body></html>"
                                        for n in (1, 2)})


def ended(qtbot, worker: ProposeWorker) -> tuple[bool, str]:  # noqa: ANN001 - qtbot
    """Run the job to its end: (cancelled, failure), as its `done` says them."""
    with qtbot.waitSignal(worker.done, timeout=60_000) as end:
        worker.start()
    worker.wait()
    return end.args[0], end.args[1]


def test_a_finished_propose_gives_memory_back_once(qtbot, folder: Path, given_back_calls: list[str]) -> None:
    worker = ProposeWorker(folder, ["1", "2"], "selector", {})
    assert ended(qtbot, worker) == (False, "")
    assert len(given_back_calls) == 1
    assert given_back_calls[0] != threading.main_thread().name  # in the job's thread: the window is not held


def test_a_failed_propose_gives_memory_back_once(qtbot, folder: Path, given_back_calls: list[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def unusable(name: str, **params: object) -> extract.Extractor:
        raise RecordLensError("the model cannot be read")

    monkeypatch.setattr(extract, "create", unusable)
    assert ended(qtbot, ProposeWorker(folder, ["1"], "selector", {})) == (False, "the model cannot be read")
    assert len(given_back_calls) == 1


def test_a_cancelled_propose_gives_memory_back_once(qtbot, folder: Path, given_back_calls: list[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    reading, let_go = threading.Event(), threading.Event()
    real_create = extract.create

    class Slow:  # the selector, waiting on its first page until the test lets it go
        def __init__(self) -> None:
            self._real = real_create("selector")
            self.name, self.version = self._real.name, self._real.version

        def extract(self, page: object) -> extract.Extraction:
            reading.set()
            let_go.wait(60)
            return self._real.extract(page)

    monkeypatch.setattr(extract, "create", lambda name, **params: Slow())
    worker = ProposeWorker(folder, ["1", "2"], "selector", {})
    try:
        with qtbot.waitSignal(worker.done, timeout=60_000) as end:
            worker.start()
            assert reading.wait(60)
            worker.cancel()
        worker.wait()
    finally:
        let_go.set()  # the page's own call, left behind by the cancel, ends
    assert end.args == [True, ""]
    assert len(given_back_calls) == 1
