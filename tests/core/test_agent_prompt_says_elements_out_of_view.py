"""The Qt browser numbers only the elements in its 1920×1080 view (a set-of-mark screenshot shows the view), the
text browser every element of the page; the prompt never said so, and an agent on a long page whose only link was
at its foot was shown "(none)" for 19 scrolls. The element list now says whether it is the page's or the view's,
and of the view how many more elements lie above and below it, so that a Scroll is the way to them. Runs record
the rule (`counts_elements_out_of_view`), so runs made before it can be told apart."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.actions import Step
from recordlens.core.agent.loop import LOOP_RULES, AgentSettings, build_prompt, run_episode
from recordlens.core.agent.model import Observation, Task
from recordlens.core.agent.targets import Target
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.llm.gemini import Answer
from recordlens.core.resource_files import read_resource
from tests.core.labels_page import HOME, labels_site

TASK = Task(id="t", instruction="Go home.", answer="x", start_url="https://long.example.org/")
TOP = Target(label=1, xpath="/body[1]/a[1]", text="Top", role="link", name="Top")


def prompt(observation: Observation) -> str:
    return build_prompt(read_resource("prompts", "agent-user.md"), TASK, observation, [], AgentSettings(), 1)


def test_a_list_of_the_view_says_so_and_how_many_elements_lie_above_and_below() -> None:
    seen = Observation(url=TASK.start_url, elements=(TOP,), elements_out_of_view=(2, 1))
    assert ("Numbered elements in view (number, role, text):\n"
            "[… 2 more elements above the view, numbered once in view: Scroll up to reach them]\n"
            "[1] link: Top\n"
            "[… 1 more element below the view, numbered once in view: Scroll down to reach it]\n") in prompt(seen)


def test_a_view_with_nothing_numbered_in_it_points_to_what_lies_below() -> None:
    seen = Observation(url=TASK.start_url, elements_out_of_view=(0, 3))
    assert ("Numbered elements in view (number, role, text):\n(none in view)\n"
            "[… 3 more elements below the view, numbered once in view: Scroll down to reach them]\n") in prompt(seen)


def test_a_view_holding_every_element_reads_as_before_but_for_its_heading() -> None:
    seen = Observation(url=TASK.start_url, elements=(TOP,), elements_out_of_view=(0, 0))
    assert "Numbered elements in view (number, role, text):\n[1] link: Top\n\n" in prompt(seen)


def test_the_text_browser_numbers_the_whole_page_and_its_list_says_so(tmp_path: Path) -> None:
    browser = HtmlSiteBrowser(labels_site(tmp_path))
    browser.open(HOME)
    seen = browser.observe()
    assert seen.elements_out_of_view is None
    assert "Numbered elements on this page (number, role, text):\n[1] combobox: " in prompt(seen)
    assert "the view" not in prompt(seen)


def test_runs_record_the_rule() -> None:
    assert LOOP_RULES["counts_elements_out_of_view"] is True


class ViewOfALongPage:
    """A browser that numbers its view only, in which nothing is numbered: the page's one link is below it."""

    url = TASK.start_url

    def open(self, url: str) -> None:
        pass

    def observe(self) -> Observation:
        return Observation(url=self.url, scroll=(0.0, 0.0), elements_out_of_view=(0, 1))

    def perform(self, step: Step) -> None:
        raise AssertionError(f"nothing is numbered, so nothing is performed: {step}")

    def go_back(self) -> None:
        pass


class ClicksOne:
    def generate(self, prompt: str, *, system: str | None = None, images: list[bytes] | None = None,
                 about: str | None = None) -> Answer:
        return Answer(text="Action: Click [1]", usage={}, attempts=1, seconds=0.0, finish_reason="STOP")


def test_a_number_not_in_the_view_is_said_to_be_not_in_view() -> None:
    trajectory = run_episode(TASK, ViewOfALongPage(), ClicksOne(), AgentSettings(step_budget=1))
    assert [s.error for s in trajectory.steps] == ["no element [1] in view"]
