"""Every way an agent's episode can be cut (`loop.CUT_STOPS`) has its words in the trajectory viewer's tooltip, so a
cut episode never shows a bare stop word (a run killed during an episode is cut as "interrupted")."""

from __future__ import annotations

from recordlens.annotator.agent.trajectory_viewer import CUT_WHY
from recordlens.core.agent import CUT_STOPS


def test_every_cut_stop_is_explained() -> None:
    assert set(CUT_WHY) == set(CUT_STOPS)
    assert all(why.strip() for why in CUT_WHY.values())
