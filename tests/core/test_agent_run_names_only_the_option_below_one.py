"""`agent run` names only the option that is below 1 of --runs and --step-budget, with the value given, as `--workers`
and `--requests-per-minute` are named (`wording.below_one`): "--runs and --step-budget" for a wrong --step-budget
alone sent the user to mend an option that was right."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from recordlens.core.wording import below_one
from tests.core.cli_runs import run


@pytest.mark.parametrize(("wrong", "said"), [
    (["--runs", "0"], "--runs must be at least 1 (got 0)"),
    (["--step-budget", "-2"], "--step-budget must be at least 1 (got -2)"),
    (["--runs", "0", "--step-budget", "0"], "--runs and --step-budget must be at least 1 (got 0 and 0)"),
])
def test_agent_run_names_only_what_is_below_1(wrong: list[str], said: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    code, _, err = run(capsys, "agent", "run", "--project", str(tmp_path / "new"), "--site",
                       str(resource_path("agent", "demo-site")), "--tasks",
                       str(resource_path("agent", "demo-tasks.jsonl")), "--browser", "text", *wrong)
    assert code == 2 and err == f"recordlens: error: {said}\n", err
    assert not (tmp_path / "new").exists()


def test_below_one_names_the_options_below_it_and_passes_over_those_not_given() -> None:
    assert below_one({"--workers": None, "--runs": 1}) is None
    assert below_one({"--workers": 0, "--runs": 3}) == "--workers must be at least 1 (got 0)"
