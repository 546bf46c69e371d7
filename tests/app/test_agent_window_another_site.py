"""Opening another site in the agent window leaves nothing of the old site on show: the Trajectory tab kept the
old site's trajectory (its replay would start on a page the new site does not hold, and "Save trajectory…" saved
it), and the recording panel its steps and status. Reopening the same site keeps what is shown; a recording going
on is never carried over to another site (its steps would mix two sites): the other site is not opened, and why
is said."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.agent.window import AgentWindow, load_trajectory_file
from tests.app.agent_helpers import DEMO_REFERENCE, DEMO_SITE, DEMO_TASKS, HOME
from tests.app.agent_site import make_site

pytestmark = pytest.mark.app


def test_another_site_clears_the_old_sites_trajectory_and_recording(qapp, tmp_path: Path) -> None:
    make_site(tmp_path / "shop")
    window = AgentWindow(site=DEMO_SITE, tasks=DEMO_TASKS)
    try:
        window.show_trajectory(load_trajectory_file(DEMO_REFERENCE / "lookup-1.json"), start_url=HOME)
        window.panel.status.setText("3 steps recorded; save them with “Save trajectory…”")
        assert window.viewer.trajectory is not None and window.viewer.timeline.count() > 0

        assert window.open_site(DEMO_SITE) is None  # the same site again: what it shows stays
        assert window.viewer.trajectory is not None

        assert window.open_site(tmp_path / "shop") is None
        assert window.viewer.trajectory is None and window.viewer.timeline.count() == 0
        assert window.viewer.title.text() == "No trajectory" and window.viewer._start_url is None
        assert not window.viewer.replay_button.isEnabled()
        assert window.panel.status.text().strip() == "" and window.panel.steps.count() == 0
        said: list[str] = []
        window.statusBar().messageChanged.connect(said.append)
        window.save_trajectory_dialog()  # nothing of the old site is saved under the new one
        assert said == ["nothing recorded yet"]
    finally:
        window.close()


def test_another_site_is_not_opened_while_a_recording_goes_on(qapp, tmp_path: Path) -> None:
    make_site(tmp_path / "shop")
    window = AgentWindow(site=DEMO_SITE, tasks=DEMO_TASKS)
    try:
        window.show()
        window.recorder.start(start_url=HOME)
        reason = window.open_site(tmp_path / "shop")
        assert reason is not None and "recording" in reason
        assert reason in window.statusBar().currentMessage()
        assert window.browser.site.root.resolve() == DEMO_SITE.resolve() and window.recorder.recording
        assert window.recorder.stop() is not None
        assert window.open_site(tmp_path / "shop") is None  # once stopped, it opens
        assert window.browser.site.root.resolve() == (tmp_path / "shop").resolve()
    finally:
        window.close()
