"""Opening another site in the agent window leaves nothing of the old site on show: the Trajectory tab kept the
old site's trajectory (its replay would start on a page the new site does not hold, and "Save trajectory…" saved
it), and the recording panel its steps and status. Reopening the same site keeps what is shown; a recording going
on is never carried over to another site (its steps would mix two sites): the other site is not opened, and why
is said. Nor is any site opened while a replay goes on: the replay spins the event loop, so the menu works meanwhile,
and opening a site took the replayed trajectory away (the replay then failed on it) and drove the new site's browser;
a page saved from the web meanwhile is not shown either."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QFileDialog

from recordlens.annotator.agent.trajectory_viewer import StoredTrajectory
from recordlens.annotator.agent.window import AgentWindow, load_trajectory_file
from tests.app.agent_helpers import DEMO_REFERENCE, DEMO_SITE, DEMO_TASKS, HOME
from tests.app.agent_site import make_site

pytestmark = pytest.mark.app


def test_another_site_clears_the_old_sites_trajectory_and_recording(qapp: QApplication, tmp_path: Path) -> None:
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


def test_another_site_is_not_opened_while_a_recording_goes_on(qapp: QApplication, tmp_path: Path) -> None:
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


def test_no_site_is_opened_while_a_replay_goes_on(qapp: QApplication, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    make_site(tmp_path / "shop")
    window = AgentWindow(site=DEMO_SITE, tasks=DEMO_TASKS)
    try:
        window.show()
        assert window.browser.wait_until_loaded()
        trajectory = load_trajectory_file(DEMO_REFERENCE / "lookup-1.json")
        window.show_trajectory(trajectory, start_url=HOME)
        reasons: list[str | None] = []
        saved_url = f"{HOME}saved-meanwhile"

        def midway(index: int) -> None:  # the second step: the replay has turned the event loop by now
            if index == 1:
                reasons.extend([window.open_site(tmp_path / "shop"), window.open_site(DEMO_SITE)])
                asked: list[object] = []  # the dialogs say it before anything is chosen in them
                monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: asked.append(a) or "")
                window.open_site_dialog()
                reasons.append(window.statusBar().currentMessage())
                assert window.open_stored_trajectory_dialog() is None
                reasons.append(window.statusBar().currentMessage())
                assert asked == []
                other = load_trajectory_file(DEMO_REFERENCE / "lookup-2.json")  # nothing else goes on show meanwhile
                window.show_stored(StoredTrajectory(1, "references", None, other))
                reasons.append(window.statusBar().currentMessage())
                window._on_saved_from_web({"ok": True, "site": str(DEMO_SITE), "url": saved_url, "message": "saved"})

        window.viewer.step_chosen.connect(midway)
        result = window.viewer.replay()
        assert result is not None and result.ok, result and result.message
        assert len(reasons) == 5 and all(r is not None and "replay" in r for r in reasons), reasons
        assert window.browser.site.root.resolve() == DEMO_SITE.resolve()
        assert window.viewer.trajectory is trajectory and saved_url not in window.browser.history
        assert "not shown: a replay is going on" in window.statusBar().currentMessage()

        assert not window.viewer.replaying
        assert window.open_site(tmp_path / "shop") is None  # once it is over, another site opens
    finally:
        window.close()
