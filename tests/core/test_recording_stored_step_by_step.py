"""A recording lived in memory until it ended: killing the app lost every step the panel had said was recorded.
The store now takes a recording as it goes (`add_trajectory(..., replacing=row, unfinished=True)`: the same row,
its steps written anew in one transaction) and tells, after a restart, which recordings never ended."""

from __future__ import annotations

from dataclasses import replace

import pytest

from recordlens.core.agent.references import ends_with_answer
from recordlens.core.store.agent_data import UNFINISHED
from recordlens.core.store.db import StoreError
from recordlens.core.store.project import init_project, open_project
from tests.demo_agent import RULES, SITE_DIR, demo_reference


def test_a_recording_is_stored_at_each_step_and_kept_unfinished_when_it_never_ends(tmp_path) -> None:
    full = demo_reference(RULES.id)
    going = replace(full, steps=full.steps[:1], answer=None, success=None, stop=None)
    two = replace(going, steps=[full.steps[0], replace(full.steps[0], url="https://papers.example.org/about")])
    with init_project(tmp_path / "P") as project:
        row = project.agent.save_task(project.agent.site_id("demo-site", str(SITE_DIR)), RULES)
        kept = project.agent.add_trajectory(row, going, unfinished=True)
        again = project.agent.add_trajectory(row, two, replacing=kept,
                                             unfinished=True)
        assert again == kept
    # The app is killed here: the next start finds the two steps, marked unfinished.
    with open_project(tmp_path / "P") as project:
        assert project.agent.unfinished_recordings() == [kept]
        (found_row, found), = project.agent.trajectories(reference=True)
        assert found_row == kept and _actions(found) == _actions(two) and found.stop == UNFINISHED
        assert not ends_with_answer(found)  # never a reference
        # The recording that ends is written over the same row, no longer unfinished.
        assert project.agent.add_trajectory(row, full, replacing=kept) == kept
        assert project.agent.unfinished_recordings() == []
        (_, ended), = project.agent.trajectories(reference=True)
        assert _actions(ended) == _actions(full) and ended.answer == full.answer


def test_storing_over_a_trajectory_that_is_gone_is_refused(tmp_path) -> None:
    with init_project(tmp_path / "P") as project:
        row = project.agent.save_task(project.agent.site_id("demo-site", str(SITE_DIR)), RULES)
        with pytest.raises(StoreError, match="no trajectory 99"):
            project.agent.add_trajectory(row, demo_reference(RULES.id), replacing=99)
        assert project.agent.trajectories() == []


def _actions(trajectory) -> list[tuple[str, str | None, str]]:  # noqa: ANN001 - a Trajectory
    return [(s.action, s.target.xpath if s.target else None, s.url) for s in trajectory.steps]
