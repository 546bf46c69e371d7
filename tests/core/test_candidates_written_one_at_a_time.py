"""Writers of a candidates file one at a time (core's `writing_candidates`): `agent tasks review` and `agent tasks
filter` read the file, change it and write it whole, and a verdict another process wrote between their read and
their write was written over, lost without a word. Each now holds the file's lock from its read to its write: the
other writer waits for it (a moment), or is refused naming who holds it; a lock left by a killed writer is taken
over and said."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from recordlens.core.agent import candidates as candidates_module
from recordlens.core.agent.candidates import Candidate, load_candidates, lock_path, save_candidates
from recordlens.core.agent.model import Task
from recordlens.core.cli import task_pipeline
from tests.candidates_writers import ReviewInBetween, lock_held_elsewhere
from tests.core.cli_runs import run

HOME = "https://papers.example.org/"


@pytest.fixture
def candidates(tmp_path: Path) -> Path:
    """Three candidates not reviewed yet, gen-1 to gen-3."""
    path = tmp_path / "cand.jsonl"
    save_candidates(path, [Candidate(task=Task(id=f"gen-{n}", instruction=f"Which paper is number {n}?",
                                               answer=f"answer {n}", category="lookup", start_url=HOME,
                                               site="demo-site"), seeds=("lookup-1",), model="fake")
                           for n in (1, 2, 3)])
    return path


class _Apart:
    """An embedder that finds no two texts alike (each its own axis)."""

    name = "apart"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0 if i == n else 0.0 for i in range(len(texts))] for n in range(len(texts))]


def statuses(path: Path) -> dict[str, tuple[str, str]]:
    return {c.id: (c.status, c.reason) for c in load_candidates(path)}


COMMANDS = {
    "review": ("agent", "tasks", "review", "--id", "gen-1", "--status", "accepted"),
    "filter": ("agent", "tasks", "filter"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_verdict_written_between_a_writers_read_and_its_write_is_kept(
        candidates: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    monkeypatch.setattr(task_pipeline, "make_embedder", lambda _spec: _Apart())
    with ReviewInBetween(candidates, "gen-3", "unable", "colour is not on the site") as shell:
        read = task_pipeline.load_candidates

        def read_then_another_writes(path: str) -> list[Candidate]:
            held = read(path)
            shell.go()  # the other process's verdict, while this one has read the file and not yet written it
            return held

        monkeypatch.setattr(task_pipeline, "load_candidates", read_then_another_writes)
        code, _, err = run(capsys, *COMMANDS[command], "--candidates", str(candidates))
        assert code == 0, err
        assert shell.ended()[0] == 0  # it waited for the lock, then wrote into the file as written here

    written = statuses(candidates)
    assert written["gen-3"] == ("unable", "colour is not on the site")
    if command == "review":
        assert written["gen-1"] == ("accepted", "")
    assert not lock_path(candidates).exists()  # let go, and gone with it


def test_a_review_while_another_process_writes_the_file_is_refused_naming_it(
        candidates: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(candidates_module, "LOCK_WAIT_S", 0.2)
    before = candidates.read_bytes()
    with lock_held_elsewhere(candidates) as writer:
        code, out, err = run(capsys, "agent", "tasks", "review", "--candidates", str(candidates), "--id", "gen-1",
                             "--status", "accepted")
    assert (code, out) == (2, ""), err
    assert f"{candidates} is being written by process {writer.pid} on " in err, err
    assert "try again once it is done" in err and "would be lost" in err, err
    assert candidates.read_bytes() == before

    code, _, err = run(capsys, "agent", "tasks", "review", "--candidates", str(candidates), "--id", "gen-1",
                       "--status", "accepted")  # let go: written now
    assert code == 0, err
    assert statuses(candidates)["gen-1"] == ("accepted", "")


def test_a_lock_left_by_a_killed_writer_is_taken_over_and_said(
        candidates: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with lock_held_elsewhere(candidates) as writer:
        writer.kill()
        writer.wait(timeout=60)
    assert lock_path(candidates).exists()  # its line left behind, its lock gone with the process

    code, _, err = run(capsys, "agent", "tasks", "review", "--candidates", str(candidates), "--id", "gen-2",
                       "--status", "expired", "--reason", "the page changed")

    assert code == 0, err
    assert (f"warning: a write of {candidates} by process {writer.pid} ended without releasing its lock (it was "
            "killed); the lock is taken over") in err, err
    assert statuses(candidates)["gen-2"] == ("expired", "the page changed")
    assert not lock_path(candidates).exists()
