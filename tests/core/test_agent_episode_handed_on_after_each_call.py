"""`run_episode(on_call=...)` hands on the episode as it stands after each model call, before the call's action is
carried out, and again after each step, so that `agent run` stores it there and a process killed (SIGKILL) keeps
every answer it read (tests/core/test_agent_run_killed_keeps_what_it_paid.py). What it hands on is stored as it is:
a password the call types is masked in it already, in the answer that types it too, though the step is not yet
masked in the episode itself (loop notes)."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.loop import INTERRUPTED, AgentSettings, run_episode
from recordlens.core.agent.memory import WindowMemory
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from tests.core.hidden_parts_page import LOGIN_HOME, LOGIN_PAGE, Scripted, one_page_site

PASSWORD = "hunter22"


def test_each_call_is_handed_on_at_once_cut_and_with_the_password_it_types_masked(tmp_path: Path) -> None:
    seen: list[Trajectory] = []
    model = Scripted(f"Action: Type [2]; {PASSWORD}", f"Thought: I entered {PASSWORD}.\nAction: Wait",
                     "Action: ANSWER; done")
    task = Task(id="login", instruction="Log in.", answer="done", start_url=LOGIN_HOME)
    browser = HtmlSiteBrowser(one_page_site(tmp_path / "site", LOGIN_PAGE, LOGIN_HOME))
    settings = AgentSettings(memory=WindowMemory(5), send_screenshot=False)

    trajectory = run_episode(task, browser, model, settings, on_call=seen.append)

    assert [(len(view.calls), len(view.steps)) for view in seen] == [(1, 0), (1, 1), (2, 1), (2, 2), (3, 2)]
    assert {view.stop for view in seen} == {INTERRUPTED}
    assert all(PASSWORD not in view.to_json() for view in seen)
    assert seen[-1].calls == trajectory.calls and trajectory.stop == "answer"
