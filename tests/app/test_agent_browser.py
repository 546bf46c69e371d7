"""QtSiteBrowser: core's Browser protocol on QtWebEngine. Observe gives a set-of-mark screenshot and numbered
elements with every identity; perform clicks, types, scrolls, waits and goes back with real input; the demo's
reference trajectories (recorded on core's text browser) replay on it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtGui import QImage

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.annotator.agent.trajectory_replay import replay
from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Browser, Trajectory
from recordlens.core.agent.sites import build_site, load_site
from recordlens.core.agent.targets import Target, TargetNotFoundError, find_target
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.app.agent_helpers import DEMO_REFERENCE, DEMO_SITE, HOME

pytestmark = pytest.mark.app


@pytest.fixture(scope="module")
def agent(qapp):
    with QtSiteBrowser(DEMO_SITE, viewport=(1280, 800)) as browser:
        yield browser


def named(observation, name: str) -> Target:
    return next(e for e in observation.elements if e.name == name)


def test_observe_and_perform_round_trip(agent):
    assert isinstance(agent, Browser)
    agent.open(HOME)
    seen = agent.observe()
    assert seen.url == HOME and seen.title and seen.viewport == (1280, 800)
    image = QImage.fromData(seen.screenshot, "PNG")
    assert (image.width(), image.height()) == (1280, 800)
    search = named(seen, "Search papers")
    assert search.role == "searchbox" and search.xpath == "/body[1]/main[1]/section[1]/form[1]/input[1]"
    assert search.bbox and all(v >= 0 for v in search.bbox)
    assert "Paperfield" in seen.text

    agent.perform(Step("type", search, "speech"))
    assert agent.url == "https://papers.example.org/search?q=speech"
    results = agent.observe()
    first = next(e for e in results.elements if e.xpath.endswith("/ol[1]/li[1]/a[1]"))
    agent.perform(Step("click", first))
    assert agent.url.startswith("https://papers.example.org/abs/")
    paper = agent.observe()
    assert first.text in paper.title

    agent.perform(Step("scroll", None, "down"))
    assert agent.observe().scroll[1] >= 0
    agent.perform(Step("wait"))
    agent.perform(Step("go_back"))
    assert agent.url == "https://papers.example.org/search?q=speech"
    agent.perform(Step("answer", None, "anything"))  # nothing happens on the page
    assert agent.url == "https://papers.example.org/search?q=speech"

    with pytest.raises(TargetNotFoundError):
        agent.perform(Step("click", Target(xpath="/body[1]/div[9]/a[4]")))
    # A model's bare label is found among the observation's elements by core's rule, then clicked.
    again = agent.observe()
    home_link = find_target(Target(label=named(again, "Paperfield").label), again.elements)
    agent.perform(Step("click", home_link))
    assert agent.url == HOME
    assert agent.browser.blocked_urls == []


@pytest.mark.parametrize("task", ["filtered-1", "retrieval-2", "lookup-2"])
def test_the_demo_references_replay_on_qtwebengine(agent, task):
    reference = Trajectory.from_json((DEMO_REFERENCE / f"{task}.json").read_text(encoding="utf-8"))
    result = replay(reference, agent, HOME)
    assert result.ok, result.message
    assert result.url_changes == []
    assert result.final_url == reference.steps[-1].url


def test_locate_finds_a_target_below_the_fold(agent):
    agent.open("https://papers.example.org/list/cs.LG")
    agent.observe()
    whole = agent.browser.mark(whole_page=True, draw=False)
    lowest = max(whole.elements, key=lambda e: e.bbox[1])
    found = agent.locate(replace(lowest, label=None, bbox=None))
    assert found is not None and found.xpath == lowest.xpath


LAYOUT_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Layout</title><style>
  header a { margin-right: 18px } nav { display: flex; gap: 12px } .chip { display: inline-block }
  .gone { display: none } .unseen { visibility: hidden } td { padding: 2px }
</style></head><body>
<header><a href="/">Paperfield</a><a href="/cl">Computation and Language</a><a href="/lg">Machine Learning</a></header>
<nav><a href="/a">Alpha</a><a href="/b">Beta</a><span>Gamma</span></nav>
<p>Hel<b>lo</b> world, <em>inline</em> text.<br>After a break</p>
<p><span class="chip">one</span><span class="chip">two</span><span class="gone">hidden</span>
<span class="unseen">unseen</span></p>
<table><tr><td>cell A</td><td>cell B</td></tr></table>
<pre>line one
line two</pre>
<script>var notText = 1;</script>
</body></html>"""


def test_page_text_puts_blocks_and_flex_items_apart_and_keeps_inline_runs_whole(agent, tmp_path):
    write_mhtml(tmp_path / "layout.mhtml", LAYOUT_PAGE, url="https://layout.example.org/")
    agent.browser.set_site(build_site(tmp_path))
    try:
        agent.open("https://layout.example.org/")
        lines = agent.observe().text.splitlines()
    finally:
        agent.browser.set_site(DEMO_SITE)
    assert lines == [
        "Paperfield Computation and Language Machine Learning",  # innerText: "PaperfieldComputation and..."
        "Alpha", "Beta", "Gamma",                                # flex items: one line each
        "Hello world, inline text.", "After a break",
        "one two",
        "cell A cell B",
        "line one", "line two",
    ]


def test_page_text_has_the_words_of_core_text_browser(agent):
    agent.open(HOME)
    words = agent.observe().text.split()
    core = HtmlSiteBrowser(load_site(DEMO_SITE))
    core.open(HOME)
    assert sorted(words) == sorted(core.observe().text.split())
    assert "Paperfield Computation and Language Machine Learning Computer Vision About" in agent.observe().text
