"""Steps the agent must be told failed: a refused or cut-off model answer is never acted on (a truncated
"ANSWER; Harb" is not the agent's answer), and a GoBack on the episode's first page, which moves nothing, says there
is no earlier page, as an unmoved Scroll says the page is at its end. Runs record both rules (`LOOP_RULES`)."""

from __future__ import annotations

from recordlens.core.agent.loop import LOOP_RULES, AgentSettings, run_episode
from recordlens.core.agent.model import Task
from recordlens.core.agent.sites import load_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.llm.gemini import Answer
from recordlens.core.resource_files import resource_path

TASK = Task(id="t", instruction="Where is the conference?", answer="Harbour", normalise=("case",),
            start_url="https://papers.example.org/")


class Scripted:
    """The model: each call the next (text, finishReason); the last one again once the script is used up."""

    def __init__(self, *answers: tuple[str, str]) -> None:
        self.answers = list(answers)

    def generate(self, prompt: str, *, system: str | None = None, images: list[bytes] | None = None,
                 about: str | None = None) -> Answer:
        text, reason = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        return Answer(text=text, usage={}, attempts=1, seconds=0.0, finish_reason=reason)


def browser() -> HtmlSiteBrowser:
    return HtmlSiteBrowser(load_site(resource_path("agent", "demo-site")))


def test_a_cut_off_answer_is_a_failed_step_not_the_episodes_answer() -> None:
    model = Scripted(("Thought: found it.\nAction: ANSWER; Harbour", "MAX_TOKENS"), ("Action: ANSWER; Quay", "STOP"))
    trajectory = run_episode(TASK, browser(), model, AgentSettings(step_budget=4))
    first, second = trajectory.steps
    assert first.failed and first.action == "" and first.raw == "Thought: found it.\nAction: ANSWER; Harbour"
    assert first.error == "the model did not finish (finishReason MAX_TOKENS): its answer is not acted on"
    assert trajectory.answer == "Quay" and trajectory.stop == "answer" and not trajectory.success


def test_a_refused_answer_does_not_act_on_the_page() -> None:
    page = browser()
    model = Scripted(("Action: Click [1]", "SAFETY"), ("Action: ANSWER; x", "STOP"))
    trajectory = run_episode(TASK, page, model, AgentSettings(step_budget=4))
    assert trajectory.steps[0].failed and "finishReason SAFETY" in (trajectory.steps[0].error or "")
    assert page.visited == [TASK.start_url]  # the click was never made


def test_go_back_on_the_first_page_is_a_failed_step_that_says_why() -> None:
    model = Scripted(("Action: GoBack", "STOP"), ("Action: ANSWER; x", "STOP"))
    trajectory = run_episode(TASK, browser(), model, AgentSettings(step_budget=4))
    back = trajectory.steps[0]
    assert back.action == "go_back" and back.error == ("the page did not change: there is no earlier page to go "
                                                       "back to (or it is this same page)")


def test_go_back_after_a_click_goes_back_and_is_not_failed() -> None:
    page = browser()
    page.open(TASK.start_url)
    about = next(e.label for e in page.observe().elements if e.role == "link" and "About" in (e.text or e.name))
    model = Scripted((f"Action: Click [{about}]", "STOP"), ("Action: GoBack", "STOP"), ("Action: ANSWER; x", "STOP"))
    trajectory = run_episode(TASK, page, model, AgentSettings(step_budget=4))
    assert [s.action for s in trajectory.steps] == ["click", "go_back", "answer"]
    assert not any(s.failed for s in trajectory.steps), [s.error for s in trajectory.steps]


def test_runs_record_the_go_back_and_unfinished_answer_rules() -> None:
    assert LOOP_RULES["fails_unmoved_go_back"] is True and LOOP_RULES["fails_incomplete_answer"] is True
