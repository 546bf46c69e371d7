"""The Qt browser numbers only the elements in its view (its set-of-mark screenshot shows the view), and now says how
many more lie above and below it: on a long page whose links are at its top, middle and foot the agent was shown one
link and never told of the others (the prompt's words: tests/core/test_agent_prompt_says_elements_out_of_view.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.core.agent.actions import Step
from recordlens.core.agent.loop import AgentSettings, run_episode
from recordlens.core.agent.model import Observation, Task
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.demo_agent import PromptsKept

pytestmark = pytest.mark.app

LONG = "https://long.example.org/"
BLOCK = '<p style="height: 1500px">Text</p>'
PAGE = f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>Long</title></head><body>
<a href="/">Top</a>{BLOCK}<a href="/">Middle</a>{BLOCK}<a href="/">Back home</a> <button>Foot</button>
</body></html>"""


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

        model = PromptsKept()
        run_episode(Task(id="t", instruction="Go home.", answer="done", start_url=LONG), browser, model,
                    AgentSettings(step_budget=1, send_screenshot=False))
        assert ("Numbered elements in view (number, role, text):\n[1] link: Top\n"
                "[… 3 more elements below the view, numbered once in view: Scroll down to reach them]\n"
                ) in model.prompts[0]


# Pages whose elements lie out of view but no window Scroll brings them in to be numbered: they were counted, and
# the prompt said "Scroll up to reach it" at the page's top. Each page: its body, then the counts at the page's top
# and at its foot (the window scrolled down as far as it goes).
SKIP_LINK_ABOVE = '<a href="#main" style="position: absolute; top: -40px; left: 0">Skip to main content</a>'
UNREACHABLE = {
    # A skip link slid above a page that fits the view: the window cannot scroll up.
    "skip-above": (f'{SKIP_LINK_ABOVE}<a href="/">Home</a> <a href="/">Next</a>', (0, 0), (0, 0)),
    # A skip link slid off the left of a long page: no Scroll moves the view sideways. At the foot only "Top".
    "skip-beside": ('<a href="#c" style="position: absolute; left: -9999px; top: 0">Skip to content</a>'
                    f'<a href="/">Top</a>{BLOCK}<a href="/">Foot</a>', (0, 1), (1, 0)),
    # Links far right of a wide page: beside the view's columns.
    "beside": (f'<div style="width: 5000px"><a href="/">Top</a><a href="/" style="margin-left: 3000px">Right</a>'
               f'</div>{BLOCK}<a href="/" style="margin-left: 3000px">Far</a>', (0, 0), (1, 0)),
    # A consent wall over the whole page: what it covers is never numbered, at any scroll.
    "overlay": (f'<a href="/">Top</a>{BLOCK}<a href="/">Foot</a><div style="position: fixed; inset: 0; '
                'background: rgba(0, 0, 0, 0.9)"><button>Accept</button></div>', (0, 0), (0, 0)),
    # Thirty links in a box of 200 pixels that scrolls: only the six it shows come into view with the window.
    "scrolling-box": (f'<a href="/">Top</a>{BLOCK}<div style="height: 200px; overflow: auto">'
                      + "".join(f'<p><a href="/">Row {i}</a></p>' for i in range(30)) + "</div>", (0, 6), (1, 0)),
    # A cookie banner fixed at the view's foot: the page's last link stays under it, however far the window goes.
    "under-banner": (f'<a href="/">Top</a>{BLOCK}<a href="/">Foot</a><div style="position: fixed; bottom: 0; '
                     'left: 0; right: 0; height: 300px; background: #ccc"><button>OK</button></div>', (0, 0), (1, 0)),
    # An off-canvas menu pinned above the view: it does not move with the window.
    "pinned-menu": (f'<nav style="position: fixed; top: -200px; left: 0"><a href="/">Menu</a></nav>'
                    f'<a href="/">Top</a>{BLOCK}<a href="/">Foot</a>', (0, 1), (1, 0)),
}


@pytest.fixture(scope="module")
def unreachable(qapp, tmp_path_factory: pytest.TempPathFactory) -> Iterator[QtSiteBrowser]:
    folder = tmp_path_factory.mktemp("unreachable")
    for name, (body, _, _) in UNREACHABLE.items():
        write_mhtml(folder / f"{name}.mhtml", f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{name}'
                    f"</title></head><body>{body}</body></html>", url=LONG + name)
    with QtSiteBrowser(build_site(folder)) as browser:
        yield browser


def at_top_and_foot(browser: QtSiteBrowser, url: str) -> tuple[Observation, Observation]:
    browser.open(url)
    top = browser.observe()
    foot = top
    for _ in range(8):  # a Scroll moves 720 pixels: past the longest page's foot
        browser.perform(Step("scroll", None, "down"))
        foot = browser.observe()
    return top, foot


@pytest.mark.parametrize("name", list(UNREACHABLE))
def test_an_element_no_scroll_brings_into_view_is_in_neither_count(unreachable: QtSiteBrowser, name: str) -> None:
    _, at_top, at_foot = UNREACHABLE[name]
    top, foot = at_top_and_foot(unreachable, LONG + name)
    assert (top.elements_out_of_view, foot.elements_out_of_view) == (at_top, at_foot)


def test_what_is_counted_below_is_numbered_once_scrolled_to(unreachable: QtSiteBrowser) -> None:
    top, foot = at_top_and_foot(unreachable, LONG + "scrolling-box")
    assert [e.name for e in top.elements] == ["Top"]
    assert [e.name for e in foot.elements] == [f"Row {i}" for i in range(6)]


def test_the_counts_are_those_of_the_marking_shown(unreachable: QtSiteBrowser,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The counts come with the numbers (som.js mark()), not from a second call that could count another
    marking."""
    unreachable.open(LONG + "skip-beside")
    calls: list[str] = []
    for name in ("js_json", "run_js"):
        original = getattr(unreachable.browser, name)
        monkeypatch.setattr(unreachable.browser, name,
                            lambda code, *args, original=original: calls.append(code) or original(code, *args))
    assert unreachable.observe().elements_out_of_view == (0, 1)
    assert not [code for code in calls if "outOfView" in code]
