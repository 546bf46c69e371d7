"""Every reference trajectory the demo ships is a path an agent can take: an agent that copies it step for step in
the text browser fails no step, answers right and agrees with it fully (1.0). A reference holding a step the agent
cannot make (a Scroll on a page that fits the 1920x1080 view moves nothing, and an agent's is a failed step) would
cap every agent below 1.0, however well it does."""

from __future__ import annotations

import pytest

from recordlens.core.agent.actions import format_action
from recordlens.core.agent.demo.tasks import DEMO_TASKS
from recordlens.core.agent.evaluate import RunPlan, evaluate
from recordlens.core.agent.loop import run_agent
from recordlens.core.agent.model import read_references
from recordlens.core.agent.sites import load_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.llm.gemini import Budget, CallSettings, GeminiCaller
from recordlens.core.resource_files import resource_path
from tests.fake_gemini import FakeGemini, answer_with

SITE = load_site(resource_path("agent", "demo-site"))
SHIPPED = read_references(resource_path("agent", "reference"))
TASKS = {task.id: task for task in DEMO_TASKS}


def copy_the_reference(body: dict) -> str:
    """The agent that repeats its task's shipped reference: step n of the episode is the reference's step n."""
    prompt = body["contents"][0]["parts"][0]["text"]
    task = next(t for t in DEMO_TASKS if t.instruction in prompt)
    step = int(prompt.split("\nStep ", 1)[1].split(" ", 1)[0])
    steps = SHIPPED[task.id].steps
    return f"Thought: as the reference.\nAction: {format_action(steps[step - 1]) if step <= len(steps) else 'Wait'}"


def test_there_is_a_shipped_reference_for_every_demo_task() -> None:
    assert sorted(SHIPPED) == sorted(TASKS)


def test_an_agent_copying_each_shipped_reference_agrees_with_it_fully() -> None:
    with FakeGemini(default=answer_with(copy_the_reference)) as server:
        caller = GeminiCaller(CallSettings(base_url=server.url, max_attempts=1, json_output=False),
                              api_key="test-key-not-real", budget=Budget(), sleep=lambda s: None)
        episodes = run_agent(list(TASKS.values()), lambda task: HtmlSiteBrowser(SITE), caller, runs=1)
    failed = {t.task_id: [s.error for s in t.steps if s.failed] for t in episodes}
    assert failed == {task_id: [] for task_id in TASKS}
    result = evaluate(list(TASKS.values()), episodes, SHIPPED, plan=RunPlan(task_ids=tuple(TASKS), runs=1))
    assert {e["task"]: (e["success"], e["agreement"]) for e in result.episodes} == \
        {task_id: (True, 1.0) for task_id in TASKS}
    assert result.overall.agreement == pytest.approx(1.0) and result.overall.success_rate == 1.0


def test_the_generator_of_the_shipped_references_refuses_a_scroll_that_moves_nothing() -> None:
    from recordlens.core.agent.demo.tasks import record_path
    from recordlens.core.errors import AgentError

    path = [("click", "Machine Learning"), ("click", "Next page"), ("scroll", "down"), ("answer", "x")]
    with pytest.raises(AgentError, match=r"retrieval-2: scroll on https://papers.example.org/list/cs.LG\?page=2 "
                                         "moves nothing"):
        record_path(HtmlSiteBrowser(SITE), TASKS["retrieval-2"], path)
