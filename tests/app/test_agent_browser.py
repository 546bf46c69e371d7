"""QtSiteBrowser: core's Browser protocol on QtWebEngine. Observe gives a set-of-mark screenshot and numbered
elements with every identity; perform clicks, types, scrolls, waits and goes back with real input; the demo's
reference trajectories (recorded on core's text browser) replay on it."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from PySide6.QtGui import QImage

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.annotator.agent.trajectory_replay import replay
from recordlens.core.agent import CAPTURE_VIEWPORT
from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Browser, Trajectory
from recordlens.core.agent.sites import build_site, load_site
from recordlens.core.agent.targets import Target, TargetNotFoundError, find_target
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.app.agent_helpers import DEMO_REFERENCE, DEMO_SITE, HOME, short_waits

pytestmark = pytest.mark.app


@pytest.fixture(scope="module")
def agent(qapp):
    with QtSiteBrowser(DEMO_SITE) as browser:  # in the capture's view, as `agent run` makes it
        yield browser


def named(observation, name: str) -> Target:
    return next(e for e in observation.elements if e.name == name)


def test_observe_and_perform_round_trip(agent, monkeypatch):
    short_waits(monkeypatch)  # a Wait's second: what it lasts is not this test's point
    assert isinstance(agent, Browser)
    agent.open(HOME)
    seen = agent.observe()
    # The run's view is the capture's, so run, references and stored pages share one layout.
    assert seen.url == HOME and seen.title and seen.viewport == CAPTURE_VIEWPORT == agent.viewport == (1920, 1080)
    image = QImage.fromData(seen.screenshot, "PNG")
    assert (image.width(), image.height()) == CAPTURE_VIEWPORT
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


# A plain, dense list of links (rows 19px apart, no gap between them), as the first-time user saw it: the badge
# above a row sat on the row before and covered its first letters. Also rows of block links flush with the page's
# left edge (no room to their left) and rows padded on the left, and a header at the very top.
LIST_ROWS = "".join(f'<li><a href="/l{i}">{word}</a></li>' for i, word in enumerate(
    ["Accessibility", "About", "About us", "About uppercase", "Abstracts", "Authors", "Archive", "Awards"]))
FLAT_ROWS = "".join(f'<a href="/f{i}">Flat row {i}</a>' for i in range(6))
PADDED_ROWS = "".join(f'<a href="/p{i}">Padded row {i}</a>' for i in range(6))
DENSE_PAGE = f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>Dense</title><style>
  body {{ margin: 0 0 0 4px; font: 16px/19px sans-serif }} ul {{ margin: 0 }} .flat a, .padded a {{ display: block }}
  .padded a {{ padding-left: 40px }} nav {{ margin-bottom: 8px }} nav a {{ margin-right: 6px }}
</style></head><body>
<nav><a href="/h">Home</a><a href="/n">News</a></nav>
<ul>{LIST_ROWS}</ul>
<div class="flat">{FLAT_ROWS}</div>
<div class="padded">{PADDED_ROWS}</div>
</body></html>"""

TEXT_RECTS = """(() => {
  const el = __recordlens.som.resolve(XPATH);
  const range = document.createRange();
  range.selectNodeContents(el);
  return JSON.stringify([...range.getClientRects()].filter((b) => b.width > 0 && b.height > 0)
                        .map((b) => [b.left, b.top, b.width, b.height]));
})()"""


def overlaps(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def apart(badge, box) -> float:
    """The gap across between a badge and a box, and from the badge's middle line down to the box: a badge
    beside a row of a dense list reads as that row's, though the next row's edge is as close as its own."""
    middle = badge[1] + badge[3] / 2
    dx = max(box[0] - badge[0] - badge[2], 0, badge[0] - box[0] - box[2])
    dy = max(box[1] - middle, 0, middle - box[1] - box[3])
    return (dx * dx + dy * dy) ** 0.5


def test_badges_in_a_dense_list_cover_no_numbered_text_and_sit_by_their_own_element(agent, tmp_path):
    write_mhtml(tmp_path / "dense.mhtml", DENSE_PAGE, url="https://dense.example.org/")
    agent.browser.set_site(build_site(tmp_path))
    try:
        agent.open("https://dense.example.org/")
        seen = agent.observe()
        badges = {b["label"]: b["bbox"] for b in agent.browser.js_json("__recordlens.som.labelBoxes()")}
        texts = {e.label: agent.browser.js_json(TEXT_RECTS.replace("XPATH", json.dumps(e.xpath)))
                 for e in seen.elements}
    finally:
        agent.browser.set_site(DEMO_SITE)
    boxes = {e.label: e.bbox for e in seen.elements}
    assert len(badges) == len(boxes) == 22 and all(texts.values())
    width, height = seen.viewport
    for label, badge in badges.items():
        name = next(e.text for e in seen.elements if e.label == label)
        assert badge[0] >= 0 and badge[1] >= 0 and badge[0] + badge[2] <= width and badge[1] + badge[3] <= height
        for other, rects in texts.items():
            for rect in rects:
                assert not overlaps(badge, rect), f"badge {label} ({name}) covers the text of [{other}]"
        for other, box in boxes.items():
            assert other == label or not overlaps(badge, box), f"badge {label} ({name}) is on element [{other}]"
        for other, box in badges.items():
            assert other == label or not overlaps(badge, box), f"badges {label} and {other} overlap"
        # Read unambiguously: the element nearest the badge is the one it numbers.
        nearest = sorted(boxes, key=lambda other: apart(badge, boxes[other]))
        assert nearest[0] == label and apart(badge, boxes[nearest[1]]) > apart(badge, boxes[label]), \
            f"badge {label} ({name}) sits as near to [{nearest[1]}]"
