"""`agent tasks filter` given the candidates as their own seeds, and the task commands given a file RecordLens ships.

Given the demo tasks as both --seeds and --candidates, the filter found every task a near-duplicate of itself
(`lookup-1 -> lookup-1 (1.000)`) and wrote the whole file over as `similar`; given the shipped copy inside the
desktop package, it changed the package's own file, which the agent window never writes. Both are refused now,
before anything is written."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import Candidate
from recordlens.core.agent.model import Task
from recordlens.core.agent.near_duplicates import filter_near_duplicates
from recordlens.core.errors import AgentError
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

SHIPPED_TASKS = resource_path("agent", "demo-tasks.jsonl")


class _NeverCalled:
    """An embedder the refusals come before."""

    name = "never called"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise AssertionError("the tasks were compared")


@pytest.fixture
def tasks(tmp_path: Path) -> Path:
    return Path(shutil.copy(SHIPPED_TASKS, tmp_path / "tasks.jsonl"))


@pytest.mark.parametrize("option", ["--seeds", "--against"])
def test_the_candidates_file_as_its_own_seeds_is_refused_and_left_as_it_was(
        tasks: Path, capsys: pytest.CaptureFixture[str], option: str) -> None:
    before = tasks.read_bytes()
    linked = tasks.with_name("same.jsonl")
    linked.symlink_to(tasks)  # the same file under another name is the same file
    for seeds in (tasks, linked):
        code, out, err = run(capsys, "agent", "tasks", "filter", "--candidates", str(tasks), option, str(seeds))
        assert (code, out) == (2, ""), err
        assert f"{option} {seeds} is the candidates file itself" in err and f"Leave {option} out" in err, err
    assert tasks.read_bytes() == before


def test_a_copy_of_the_candidates_as_seeds_is_refused_naming_the_tasks(
        tasks: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = tasks.read_bytes()
    copy = Path(shutil.copy(tasks, tasks.with_name("copy.jsonl")))
    code, out, err = run(capsys, "agent", "tasks", "filter", "--candidates", str(tasks), "--seeds", str(copy))
    assert (code, out) == (2, ""), err
    assert "12 candidates (lookup-1, lookup-2, " in err and "a task is no near-duplicate of itself" in err, err
    assert tasks.read_bytes() == before


def test_a_candidate_is_compared_with_a_seed_of_its_id_that_is_another_task() -> None:
    """Ids come back across files (an earlier export's gen-lookup-1): only the same task is refused."""
    seed = Task(id="gen-lookup-1", instruction="Which licence covers the papers?", answer="CC BY")
    same = Candidate(Task(id="gen-lookup-1", instruction="Which licence covers the papers?", answer="CC BY"))
    with pytest.raises(AgentError, match=r"1 candidate \(gen-lookup-1\) is also among the tasks compared with"):
        filter_near_duplicates([same], _NeverCalled(), kept=[seed])
    other_site = Candidate(Task(id="gen-lookup-1", instruction=seed.instruction, answer="CC BY", site="shop"))
    other_words = Candidate(Task(id="gen-lookup-1", instruction="How many authors wrote it?", answer="3"))
    for candidate in (other_site, other_words):
        with pytest.raises(AssertionError, match="the tasks were compared"):  # compared, not refused
            filter_near_duplicates([candidate], _NeverCalled(), kept=[seed])


@pytest.mark.parametrize("command", [
    ["agent", "tasks", "filter", "--candidates", "{shipped}"],
    ["agent", "tasks", "filter", "--candidates", "{copy}", "--out", "{shipped}"],
    ["agent", "tasks", "review", "--candidates", "{shipped}", "--id", "lookup-1", "--status", "accepted"],
    ["agent", "tasks", "export", "--candidates", "{copy}", "--out", "{new}", "--replace"],
])
def test_the_task_commands_never_write_a_file_recordlens_ships(
        tasks: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    before = SHIPPED_TASKS.read_bytes()
    new = SHIPPED_TASKS.with_name("exported.jsonl")
    argv = [part.format(shipped=SHIPPED_TASKS, copy=tasks, new=new) for part in command]
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, ""), err
    assert "is one of the files RecordLens ships" in err and "copy it first (`cp " in err, err
    assert SHIPPED_TASKS.read_bytes() == before and not new.exists()
