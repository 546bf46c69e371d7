"""The Qt browser numbers only the elements in its view (its set-of-mark screenshot shows the view), and now says how
many more lie above and below it: on a long page whose links are at its top, middle and foot the agent was shown one
link and never told of the others (the prompt's words: tests/core/test_agent_prompt_says_elements_out_of_view.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.core.agent.actions import Step
from recordlens.core.agent.loop import AgentSettings, run_episode
from recordlens.core.agent.model import Task
from recordlens.core.agent.sites import build_site
from recordlens.core.llm.gemini import Answer
from recordlens.core.page.mhtml_writer import write_mhtml

pytestmark = pytest.mark.app

LONG = "https://long.example.org/"
BLOCK = '<p style="height: 1500px">Text</p>'
PAGE = f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>Long</title></head><body>
<a href="/">Top</a>{BLOCK}<a href="/">Middle</a>{BLOCK}<a href="/">Back home</a> <button>Foot</button>
</body></html>"""


class Answers:
    """The model: answers at once, keeping the prompts it was given."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def generate(self, prompt: str, *, system: str | None = None, images: list[bytes] | None = None) -> Answer:
        self.prompts.append(prompt)
        return Answer(text="Action: ANSWER; done", usage={}, attempts=1, seconds=0.0, finish_reason="STOP")


def long_site(folder: Path):
    write_mhtml(folder / "long.mhtml", PAGE, url=LONG)
    return build_site(folder)


def test_the_view_says_how_many_elements_lie_above_and_below_it(qapp, tmp_path: Path) -> None:
    with QtSiteBrowser(long_site(tmp_path)) as browser:
        browser.open(LONG)
        # Counted on a page not marked yet too (one that replaced the marked page between two calls).
        assert browser.browser.js_json("__recordlens.som.outOfView()") == [0, 3]
        top = browser.observe()
        assert [e.name for e in top.elements] == ["Top"]
        assert top.elements_out_of_view == (0, 3)
        for _ in range(6):  # 720 pixels a Scroll: to the page's foot
            browser.perform(Step("scroll", None, "down"))
        foot = browser.observe()
        assert [e.name for e in foot.elements] == ["Back home", "Foot"]
        assert foot.elements_out_of_view == (2, 0)

        model = Answers()
        run_episode(Task(id="t", instruction="Go home.", answer="done", start_url=LONG), browser, model,
                    AgentSettings(step_budget=1, send_screenshot=False))
        assert ("Numbered elements in view (number, role, text):\n[1] link: Top\n"
                "[… 3 more elements below the view, numbered once in view: Scroll down to reach them]\n"
                ) in model.prompts[0]

