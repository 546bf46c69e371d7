"""`agent run --engine ray` starts its engine before it writes anything, as `extract --engine ray` does: Ray missing
(not importable) or out of reach (nothing listens at --ray-address) is said, as extract says it, with no project
made and no run left without an end in a project that was there. Neither needs Ray: a missing Ray is hidden from
the import system, and an address out of reach is refused before Ray is asked (or, without Ray, Ray's absence said)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.core.cli_runs import folder_files, run
from tests.core.test_agent_run_engine_options_checked_first import agent_run, error_line, extract
from tests.loopback import refusing_port


@contextmanager
def ray_hidden(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Ray as if not installed: `import ray` raises ImportError. No address: a local instance is asked for."""
    monkeypatch.setitem(sys.modules, "ray", None)
    yield []


@contextmanager
def ray_out_of_reach(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """An address at which nothing listens."""
    with refusing_port() as port:
        yield ["--ray-address", f"127.0.0.1:{port}"]


CASES = {"missing": ray_hidden, "out of reach": ray_out_of_reach}


@pytest.fixture(autouse=True)
def _keyed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real-engine-first")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)


@pytest.mark.parametrize("case", CASES)
def test_ray_that_cannot_start_makes_no_project(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    with CASES[case](monkeypatch) as address:
        code, err = agent_run(capsys, tmp_path / "P", "--engine", "ray", *address)
        extract_code, extract_err = extract(capsys, tmp_path / "run", "--engine", "ray", *address)
    assert (code, extract_code) == (2, 2), err
    assert error_line(err) == error_line(extract_err)
    assert not (tmp_path / "P").exists() and not (tmp_path / "run").exists()


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("resume", [False, True], ids=["new run", "resume"])
def test_ray_that_cannot_start_leaves_a_project_as_it_was(case: str, resume: bool, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """No run is added (none left without an end), no task stored, no lock taken: the project's files unchanged.
    A resume says the engine's failure too, before the project is read."""
    project = tmp_path / "P"
    assert run(capsys, "project", "init", str(project))[0] == 0
    before = folder_files(project)
    with CASES[case](monkeypatch) as address:
        code, err = agent_run(capsys, project, "--engine", "ray", *address, *(["--resume", "1"] if resume else []))
        _, extract_err = extract(capsys, tmp_path / "run", "--engine", "ray", *address)
    assert code == 2, err
    assert error_line(err) == error_line(extract_err)
    assert folder_files(project) == before
