"""The agent window's site and the trajectory on show (reviewer's probes): a page saved from the web into another
folder while a recording goes on is not shown, and the status bar says the site did not open and why (it said only
"not shown: a recording is going on", over open_site's refusal); a trajectory just recorded belongs to its folder,
not to every site of its name (another folder of the same name opened, it stayed on show, its replay started on the
other folder's pages and Save saved it as that site's); and a recording ends with an answer as the viewer and agent
eval tell it (`ends_with_answer`: an ANSWER last step too), not by its answer field alone."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from recordlens.annotator.agent.window import AgentWindow, load_trajectory_file
from tests.app.agent_helpers import DEMO_REFERENCE, DEMO_SITE, DEMO_TASKS, HOME
from tests.app.agent_site import make_site

pytestmark = pytest.mark.app


def test_a_page_saved_into_another_folder_during_a_recording_says_its_site_did_not_open(
        qapp: QApplication, tmp_path: Path) -> None:
    make_site(tmp_path / "shop")
    window = AgentWindow(site=DEMO_SITE, tasks=DEMO_TASKS)
    try:
        window.show()
        window.recorder.start(start_url=HOME)
        window._on_saved_from_web({"ok": True, "site": str(tmp_path / "shop"), "url": "https://shop.example.com/",
                                   "message": "saved https://shop.example.com/"})
        said = window.statusBar().currentMessage()
        assert said.startswith("saved https://shop.example.com/ (not shown: its site is not opened: "), said
        assert "a recording is going on: stop it (■ Stop) before opening another site" in said, said
        assert window.browser.site.root.resolve() == DEMO_SITE.resolve() and window.recorder.recording
        assert window.recorder.stop() is not None
    finally:
        window.close()


def test_a_recording_leaves_the_viewer_when_another_folder_of_its_sites_name_is_opened(
        qapp: QApplication, tmp_path: Path) -> None:
    make_site(tmp_path / "a" / "shop")
    make_site(tmp_path / "b" / "shop")
    window = AgentWindow(site=tmp_path / "a" / "shop")
    try:
        recorded = load_trajectory_file(DEMO_REFERENCE / "lookup-1.json")
        window._on_recorded(recorded)  # as the recorder hands over a recording made on a/shop
        assert window.viewer.trajectory is recorded
        assert window.open_site(tmp_path / "b" / "shop") is None
        assert window.browser.site.name == "shop"
        assert window.viewer.trajectory is None  # b/shop is another site, though of the same name

        window.show_trajectory(recorded, site="shop")  # one stored in the project: its site known by name only
        assert window.open_site(tmp_path / "a" / "shop") is None
        assert window.viewer.trajectory is recorded  # the site it belongs to, as the project knows it, opened
    finally:
        window.close()


def test_a_recording_whose_last_step_is_answer_is_said_as_answered(qapp: QApplication) -> None:
    window = AgentWindow(site=DEMO_SITE, tasks=DEMO_TASKS)
    try:
        recorded = load_trajectory_file(DEMO_REFERENCE / "lookup-1.json")
        assert recorded.steps[-1].action == "answer"
        window._on_recorded(replace(recorded, answer=None))  # built without its answer field: ANSWER last
        assert "without an answer" not in window.panel.status.text(), window.panel.status.text()
        window._on_recorded(replace(recorded, answer=None, steps=recorded.steps[:-1]))  # stopped before ANSWER
        assert "without an answer" in window.panel.status.text(), window.panel.status.text()
    finally:
        window.close()
