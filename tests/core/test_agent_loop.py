"""The agent loop against a real HTTP server speaking Gemini's protocol, on the demo site in the Qt-free
browser: following the reference path succeeds; looping is stopped by the step budget; malformed answers and
failed calls become failed steps, never crashes; memory selection."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.actions import Step, format_action
from recordlens.core.agent.demo.tasks import DEMO_TASKS
from recordlens.core.agent.loop import AgentSettings, run_agent, run_episode
from recordlens.core.agent.memory import DynamicMemory, WindowMemory, parse_memory, render
from recordlens.core.agent.model import Observation, Trajectory
from recordlens.core.agent.sites import load_site
from recordlens.core.agent.targets import Target
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.llm.gemini import Budget, CallSettings, GeminiCaller
from recordlens.core.resource_files import resource_path
from tests.fake_gemini import FakeGemini, answer

SITE = load_site(resource_path("agent", "demo-site"))
TASKS = {t.id: t for t in DEMO_TASKS}


def caller_for(server: FakeGemini, **budget: int) -> GeminiCaller:
    settings = CallSettings(base_url=server.url, max_attempts=1, json_output=False)
    return GeminiCaller(settings, api_key="test", budget=Budget(**budget), sleep=lambda s: None)


def reference(task_id: str) -> Trajectory:
    return Trajectory.from_json(resource_path("agent", "reference", f"{task_id}.json").read_text("utf-8"))


def test_a_model_that_follows_the_reference_path_succeeds_on_every_demo_task() -> None:
    script = [answer(f"Thought: step {i}.\nAction: {format_action(s)}")
              for task_id in TASKS for i, s in enumerate(reference(task_id).steps)]
    with FakeGemini(script) as server:
        episodes = run_agent(list(TASKS.values()), lambda task: HtmlSiteBrowser(SITE), caller_for(server), runs=1)
        requests = server.requests
    assert [(t.task_id, t.stop, t.success) for t in episodes] == [(i, "answer", True) for i in TASKS]
    assert [len(t.steps) for t in episodes] == [len(reference(i).steps) for i in TASKS]
    first = episodes[0]
    assert [s.url for s in first.steps] == [s.url for s in reference(first.task_id).steps]
    assert first.steps[0].thought == "step 0." and first.steps[0].target.xpath  # resolved to the page's element
    assert len(first.calls) == len(first.steps) and first.calls[0].answer.startswith("Thought: step 0.")
    assert first.steps[0].screenshot_before in first.screenshots
    # The prompt carries the task, the numbered elements and the memory; the screenshot goes as an image part.
    assert "Task: Who is the first author" in requests[0].prompt_text
    assert "[2] link: Computation and Language" in requests[0].prompt_text
    assert "Step 1 on https://papers.example.org/: Click [2]" in requests[1].prompt_text
    assert "Thought:" in requests[0].system_text
    assert any("inlineData" in part or "inline_data" in part
               for part in requests[0].body["contents"][0]["parts"])


def test_a_looping_model_is_stopped_by_the_step_budget() -> None:
    with FakeGemini(default=answer("Thought: again.\nAction: Click [1]")) as server:
        settings = AgentSettings(step_budget=5)
        episode = run_episode(TASKS["lookup-1"], HtmlSiteBrowser(SITE), caller_for(server), settings)
        assert len(server.requests) == 5
    assert (episode.stop, episode.answer, episode.success, len(episode.steps)) == ("budget", None, False, 5)
    assert all(s.action == "click" and not s.failed for s in episode.steps)


def test_malformed_answers_are_failed_steps_and_the_episode_goes_on() -> None:
    script = [answer("I am not sure."), answer("Click [999]"), answer("Type [3]"), answer("Scroll [1]; sideways"),
              answer("Action: Click [5]"), answer("ANSWER; 1,920")]
    with FakeGemini(script) as server:
        settings = AgentSettings(step_budget=10, max_failures=5)
        episode = run_episode(TASKS["rules-1"], HtmlSiteBrowser(SITE), caller_for(server), settings)
    assert (episode.stop, episode.answer, episode.success) == ("answer", "1,920", True)
    failed = [s for s in episode.steps if s.failed]
    assert [s.error.split(";")[0][:30] for s in failed][:3] == [
        "no action in the model's answe", "no element [999] on this page", "malformed type action 'Type [3"]
    assert len(failed) == 4
    assert failed[0].raw == "I am not sure." and failed[0].action == "" and failed[1].action == "click"
    assert episode.steps[4].url == "https://papers.example.org/" and episode.steps[5].url.endswith("/about")


def test_failures_in_a_row_end_the_episode_and_a_used_up_model_budget_ends_the_run() -> None:
    with FakeGemini(default=answer("no idea")) as server:
        episode = run_episode(TASKS["rules-1"], HtmlSiteBrowser(SITE), caller_for(server),
                              AgentSettings(step_budget=10, max_failures=3))
    assert (episode.stop, len(episode.steps)) == ("failures", 3)
    with FakeGemini(default=answer("Click [1]")) as server:
        episodes = run_agent(list(TASKS.values()), lambda task: HtmlSiteBrowser(SITE),
                             caller_for(server, max_requests=4), runs=3, settings=AgentSettings(step_budget=3))
    assert [(t.stop, len(t.steps)) for t in episodes] == [("budget", 3), ("model budget", 2)]


def test_window_memory_shows_the_last_steps_and_dynamic_memory_the_relevant_ones() -> None:
    page = Observation(url="https://papers.example.org/about", title="About Paperfield")
    steps = [Step("click", Target(label=3, text="Machine Learning"), url="https://papers.example.org/"),
             Step("click", Target(label=5, text="About"), url="https://papers.example.org/list/cs.LG",
                  thought="the rules are on the about page"),
             Step("scroll", None, "down", url="https://papers.example.org/about"),
             Step("go_back", url="https://papers.example.org/about"),
             Step("click", Target(label=2, text="Computer Vision"), url="https://papers.example.org/list/cs.LG")]
    instruction = "According to the submission rules on the about page, how long may an abstract be?"
    assert WindowMemory(2).select(steps, instruction, page) == [3, 4]
    assert DynamicMemory(1).select(steps, instruction, page) == [1, 4]
    assert DynamicMemory(10).select(steps, instruction, page) == [0, 1, 2, 3, 4]
    assert parse_memory("window:5") == WindowMemory(5) and parse_memory("dynamic") == DynamicMemory(3)
    text = render(DynamicMemory(1), steps, instruction, page)
    assert text.splitlines()[0] == "(step 1 not shown)"
    assert "Step 2 on https://papers.example.org/list/cs.LG: Click [5] on \"About\"" in text
    assert "(steps 3–4 not shown)" in text


def test_scroll_reads_a_long_page_on_and_back(tmp_path: Path) -> None:
    from recordlens.core.agent.loop import MAX_PAGE_TEXT, _page_text
    from recordlens.core.agent.sites import build_site
    from recordlens.core.agent.text_browser import HtmlSiteBrowser
    from recordlens.core.page.mhtml_writer import mhtml_bytes

    rows = "".join(f"<p>Item {k}: a line of the long page</p>" for k in range(1, 2001))
    (tmp_path / "long.mhtml").write_bytes(mhtml_bytes(f"<html><body>{rows}</body></html>",
                                                      url="https://long.example/"))
    browser = HtmlSiteBrowser(build_site(tmp_path))
    browser.open("https://long.example/")
    said = [_page_text(browser.observe())]
    for direction in ["down"] * 40 + ["up"]:
        browser.perform(Step("scroll", value=direction))
        said.append(_page_text(browser.observe()))
    top, once, bottom, back = said[0], said[1], said[-2], said[-1]
    assert "Item 1:" in top and "Item 900:" not in top and "Scroll down to read on" in top and "above" not in top
    # One Scroll (0.8 of a screen) on: what was past the cut is read, a whole line first.
    assert "Item 1:" not in once and "Item 200:" in once and "Scroll up to read them" in once
    assert once.split("\n")[3].startswith("Item ")
    # Scrolling stops at the page's end (the last window, whole), and one Scroll up reads back at once.
    assert "Item 2000:" in bottom and "Scroll down" not in bottom and len(bottom) < MAX_PAGE_TEXT + 200
    assert said[-3] == bottom and "Item 2000:" not in back
    # A browser with a layout: the share scrolled of the page's height, applied to the text.
    text = "\n".join(f"Item {k}: a line of the long page" for k in range(1, 2001))
    end = _page_text(Observation(url="u", text=text, viewport=(1920, 1000), scroll=(0, 9000), page_height=10000))
    assert "Item 2000:" in end and "Scroll down" not in end


def test_a_scroll_that_moves_nothing_is_a_failed_step_that_says_so() -> None:
    """The agent was told nothing when Scroll met the page's end: it scrolled on until its step budget was gone."""
    with FakeGemini(default=answer("Thought: read on.\nAction: Scroll [WINDOW]; up")) as server:
        episode = run_episode(TASKS["rules-1"], HtmlSiteBrowser(SITE), caller_for(server), AgentSettings(step_budget=6))
    assert episode.stop == "failures" and len(episode.steps) == 3
    assert episode.steps[0].error == "the page did not move: it is already at its top (no more to scroll up)"
    assert "the page did not move" in render(WindowMemory(3), episode.steps, TASKS["rules-1"].instruction,
                                             Observation(url=episode.steps[-1].url))
