"""A window Scroll fails only when the page moved nothing that the browser can tell: a scroll that moves is not
failed, nor one that loads more of the page in place (lazy loading: the same position, a taller page or more
text), nor any scroll of a browser that does not report where it is scrolled to."""

from __future__ import annotations

from dataclasses import replace

from recordlens.core.agent.actions import Step
from recordlens.core.agent.loop import AgentSettings, run_episode
from recordlens.core.agent.model import Observation, Task
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.llm.gemini import Answer

TASK = Task(id="t", instruction="Read the whole page.", answer="42", start_url="https://site.example/")


class Scrolling:
    """The model: scroll the window down, every step."""

    def generate(self, prompt: str, *, system: str | None = None, images: list[bytes] | None = None,
                 about: str | None = None) -> Answer:
        return Answer(text="Thought: read on.\nAction: Scroll [WINDOW]; down", usage={}, attempts=1, seconds=0.0,
                      finish_reason="STOP")


class Page:
    """A browser of one page whose every scroll changes what `after_scroll` says (position, height, text)."""

    def __init__(self, first: Observation, after_scroll) -> None:  # noqa: ANN001 - Observation -> Observation
        self.seen, self.after_scroll = first, after_scroll

    @property
    def url(self) -> str:
        return self.seen.url

    def open(self, url: str) -> None:
        pass

    def observe(self) -> Observation:
        return self.seen

    def perform(self, step: Step) -> None:
        self.seen = self.after_scroll(self.seen)

    def go_back(self) -> None:
        pass


def scrolled(browser: Page) -> list[Step]:
    return run_episode(TASK, browser, Scrolling(), AgentSettings(step_budget=4)).steps


PAGE = Observation(url=TASK.start_url, title="Feed", text="Item 1", scroll=(0.0, 0.0), viewport=(1280.0, 800.0),
                   page_height=1600.0)


def test_a_scroll_that_moves_is_not_failed() -> None:
    steps = scrolled(Page(PAGE, lambda seen: replace(seen, scroll=(0.0, seen.scroll[1] + 640.0))))
    assert len(steps) == 4 and not any(s.failed for s in steps)


def test_a_scroll_that_loads_more_of_the_page_in_place_is_not_failed() -> None:
    taller = scrolled(Page(PAGE, lambda seen: replace(seen, page_height=seen.page_height + 800.0)))
    assert not any(s.failed for s in taller)
    more_text = scrolled(Page(replace(PAGE, page_height=None),
                              lambda seen: replace(seen, text=seen.text + f"\nItem {seen.text.count('Item') + 1}")))
    assert not any(s.failed for s in more_text)


def test_a_browser_that_does_not_report_its_scroll_never_fails_a_scroll() -> None:
    unknown = Observation(url=TASK.start_url, title="Feed", text="Item 1")
    assert unknown.scroll is None  # not (0, 0): a position nobody reported
    steps = scrolled(Page(unknown, lambda seen: seen))
    assert len(steps) == 4 and not any(s.failed for s in steps)


def test_a_scroll_that_moves_nothing_still_fails() -> None:
    steps = scrolled(Page(PAGE, lambda seen: seen))
    assert steps[0].error == "the page did not move: it is already at its end (no more to scroll down)"


def test_the_text_browser_reports_its_scroll() -> None:
    from recordlens.core.agent.demo.tasks import DEMO_TASKS
    from recordlens.core.agent.sites import load_site
    from recordlens.core.resource_files import resource_path

    browser = HtmlSiteBrowser(load_site(resource_path("agent", "demo-site")))
    browser.open(DEMO_TASKS[0].start_url)
    assert browser.observe().scroll == (0.0, 0.0)
