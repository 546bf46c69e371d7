"""`agent run` checks its engine options as extract, score and bench do (`engine_options`, one rule), and before
anything is made: the Ray-only options under the default --engine local (--requests-per-minute, --ray-address,
--workers) are refused, not ignored without a word (a user limiting a paid key got no limit); a combination Ray
would refuse (--workers with a cluster's --ray-address) is refused before the project is created, as extract
creates nothing. Neither needs Ray."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run
from tests.demo_agent import SITE_DIR, TASKS_FILE

DEMO_PAGES = resource_path("demo", "dataset") / "html"
LOCAL_ONLY = (["--requests-per-minute", "5"], ["--ray-address", "127.0.0.1:1"], ["--workers", "2"])


def error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("recordlens: error:")]
    assert lines and "Traceback" not in err, err
    return lines[-1]


def agent_run(capsys: pytest.CaptureFixture[str], project: Path, *options: str) -> tuple[int, str]:
    code, _, err = run(capsys, "agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks",
                       str(TASKS_FILE), "--task", "lookup-1", "--runs", "1", "--browser", "text", "--base-url",
                       "http://127.0.0.1:9", *options)
    return code, err


def extract(capsys: pytest.CaptureFixture[str], out: Path, *options: str) -> tuple[int, str]:
    code, _, err = run(capsys, "extract", "--method", "repeats", "--pages", str(DEMO_PAGES), "--out", str(out), "-q",
                       *options)
    return code, err


@pytest.mark.parametrize("option", LOCAL_ONLY, ids=lambda option: option[0])
def test_a_ray_option_with_the_local_engine_is_refused_as_extract_refuses_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        option: list[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real-engine")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    code, err = agent_run(capsys, tmp_path / "P", *option)
    extract_code, extract_err = extract(capsys, tmp_path / "run", *option)
    assert (code, extract_code) == (2, 2), err
    assert error_line(err) == error_line(extract_err) == f"recordlens: error: {option[0]} is for --engine ray"
    assert not (tmp_path / "P").exists()


def test_a_refused_ray_combination_makes_no_project(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real-engine")
    ray = ["--engine", "ray", "--workers", "2", "--ray-address", "127.0.0.1:1"]
    code, err = agent_run(capsys, tmp_path / "P", *ray)
    extract_code, extract_err = extract(capsys, tmp_path / "run", *ray)
    assert (code, extract_code) == (2, 2), err
    assert error_line(err) == error_line(extract_err)
    assert "--workers is for a local Ray instance" in error_line(err)
    assert not (tmp_path / "P").exists() and not (tmp_path / "run").exists()


def test_a_resume_checks_them_before_it_opens_the_project(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A resume too: the run's lock is not taken nor its project opened for a command that cannot run."""
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real-engine")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    project = tmp_path / "P"
    code, err = agent_run(capsys, project, "--resume", "1", "--requests-per-minute", "5")
    assert code == 2
    assert error_line(err) == "recordlens: error: --requests-per-minute is for --engine ray"
    assert not project.exists()
