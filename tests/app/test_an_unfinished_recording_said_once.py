"""A recording the app ended during (killed, crashed) is said at the next start of the agent window, once: it was
said again at every start, which read as if the app had just ended another. A recording left unfinished later is
said at the start after it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from recordlens.annotator.agent.window import AgentWindow
from recordlens.annotator.settings import Settings
from recordlens.core.store.project import init_project, open_project
from tests.demo_agent import RULES, SITE_DIR, TASKS_FILE, demo_reference

SAID = "recording ended with the app, unfinished"


def _leave_a_recording_unfinished(project_folder: Path) -> None:
    """A recording stored step by step whose end never came (the app killed during it)."""
    going = replace(demo_reference(RULES.id), answer=None, success=None, stop=None)
    with open_project(project_folder) as project:
        row = project.agent.save_task(project.agent.site_id("demo-site", str(SITE_DIR)), RULES)
        project.agent.add_trajectory(row, replace(going, steps=going.steps[:1]), unfinished=True)


def _start_says(project_folder: Path, settings_file: Path) -> str:
    """What the status bar says as the agent window starts on the project, with the settings in `settings_file`."""
    with open_project(project_folder) as project:
        window = AgentWindow(project, site=SITE_DIR, tasks=TASKS_FILE, settings=Settings.load(settings_file),
                             settings_file=settings_file)
        try:
            return window.statusBar().currentMessage()
        finally:
            window.close()


def test_an_unfinished_recording_is_said_at_the_next_start_only(qapp, tmp_path: Path) -> None:
    folder, settings_file = tmp_path / "P", tmp_path / "settings.json"
    init_project(folder).close()
    _leave_a_recording_unfinished(folder)

    assert f"1 {SAID}" in _start_says(folder, settings_file)
    assert SAID not in _start_says(folder, settings_file)  # the same recording: said already

    _leave_a_recording_unfinished(folder)  # another, later
    assert f"1 {SAID}" in _start_says(folder, settings_file)
    with open_project(folder) as project:
        assert len(project.agent.unfinished_recordings()) == 2  # both kept, whatever was said
