"""A references file's reference stopped before ANSWER (no answer: it never counts) is not stored by `agent run
--references`, and that is said with why. It used to be stored again on every run (three runs, three copies), the
first run saying "stored 1 reference from FOLDER" as if it would count."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from recordlens.core.cli import agent as cli_agent
from recordlens.core.store.project import init_project
from tests.demo_agent import RULES, SITE_DIR, demo_reference, stopped_reference


def store(project, references: dict, origin: str) -> str:  # noqa: ANN001 - a Project
    said = io.StringIO()
    site = project.agent.site_id("demo-site", str(SITE_DIR))
    row = project.agent.save_task(site, RULES)
    with contextlib.redirect_stderr(said):
        cli_agent._store_references(project, "demo-site", {RULES.id: row}, references, origin)
    return said.getvalue()


def test_an_unanswered_file_reference_is_not_stored_and_said_why(tmp_path: Path) -> None:
    with init_project(tmp_path / "p") as project:
        for _ in range(3):
            said = store(project, {RULES.id: stopped_reference(RULES.id)}, "refs")
            assert "stored" not in said.replace("not stored", "")
            assert (f"warning: the reference of {RULES.id} in refs is not stored: it ends without an answer (stopped "
                    "before ANSWER), and a reference without one never counts") in said
        assert project.agent.trajectories(reference=True, site="demo-site") == []


def test_an_answered_file_reference_is_stored_beside_an_unanswered_one(tmp_path: Path) -> None:
    with init_project(tmp_path / "p") as project:
        said = store(project, {RULES.id: demo_reference(RULES.id)}, "refs")
        assert f"stored 1 reference from refs: {RULES.id}" in said
        assert len(project.agent.trajectories(reference=True, site="demo-site")) == 1
