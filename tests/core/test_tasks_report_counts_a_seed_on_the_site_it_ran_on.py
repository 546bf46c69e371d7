"""`agent run` runs a task that names no site (a hand-written seed) on the site it is given, and stores it under that
site's name, beside the tasks `agent tasks export` wrote with a "site" key. The tasks report over such a file and the
project (`--tasks FILE --project P`) used to count the seeds on a site of their own, "(no site)", beside the exported
tasks' site: two sites where the project holds one. It counts each on the site the project stored it under; a task
naming no site that the project never ran nor recorded is said as such."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from tests.demo_agent import TASK_JSON, agent_run_of_two_tasks


@pytest.fixture(autouse=True)
def fake_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real-report-sites")


def seed(task_id: str) -> dict:
    """The demo's task as a person writes a seed: without a "site" key."""
    return {key: value for key, value in TASK_JSON[task_id].items() if key != "site"}


def tasks_file(path: Path, tasks: list[dict]) -> Path:
    path.write_text("".join(json.dumps(task) + "\n" for task in tasks), encoding="utf-8")
    return path


def report(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[str, str]:
    capsys.readouterr()
    assert main(["agent", "tasks", "report", *args]) == 0
    return capsys.readouterr()


def test_a_seed_without_a_site_is_counted_on_the_site_agent_run_stored_it_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # lookup-1 a seed (no site), rules-1 as exported ("site": "demo-site"): both run on the demo site
    tasks = tasks_file(tmp_path / "mixed.jsonl", [seed("lookup-1"), TASK_JSON["rules-1"]])
    project = tmp_path / "P"
    assert agent_run_of_two_tasks(project, tasks) == 0

    out, err = report(capsys, "--tasks", str(tasks), "--project", str(project), "--json")
    table = json.loads(out)
    assert table["sites"] == ["demo-site"]
    assert table["without_reference_ids"] == ["lookup-1", "rules-1"]
    assert table["without_reference_sites"] == ["demo-site", "demo-site"]
    assert "no site" not in err

    out, _ = report(capsys, "--tasks", str(tasks), "--project", str(project))
    assert out.splitlines()[-1] == ("note: 2 refined task(s) have no reference trajectory yet (not in the GT steps): "
                                    "lookup-1, rules-1")


def test_a_seed_the_project_never_ran_is_said_to_be_of_no_site_and_not_in_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ran = tasks_file(tmp_path / "ran.jsonl", [seed("lookup-1"), TASK_JSON["rules-1"]])
    project = tmp_path / "P"
    assert agent_run_of_two_tasks(project, ran) == 0
    tasks = tasks_file(tmp_path / "more.jsonl", [seed("lookup-1"), TASK_JSON["rules-1"], seed("lookup-2")])

    out, err = report(capsys, "--tasks", str(tasks), "--project", str(project), "--json")
    table = json.loads(out)
    assert table["sites"] == ["", "demo-site"]
    assert table["without_reference_sites"] == ["demo-site", "demo-site", ""]
    assert (f"note: 1 task(s) of {tasks} name no site and project {project} holds none of that id (never run nor "
            "recorded there): counted as of no site: lookup-2") in err.splitlines()
