"""A click on the page while the recorder carries out a burst of wheel turns as the agent's Scroll steps (each
pictured, which runs the event loop) waits until they are all carried out, and is then recorded as a click on the
page where they took it. Let through at once, it landed on the page mid-way (the person sees it move there and back)
and, on a link, sent it away: the Scroll steps after it were carried out and pictured on the next page, and the
click was recorded there, as `Click [?]` with the next page's URL, a step no replay can take."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.annotator.agent.recorder import Recorder
from recordlens.annotator.agent.trajectory_replay import replay
from recordlens.core.agent.actions import format_action
from recordlens.core.agent.model import Task
from tests.app.agent_helpers import shown_browser, wheel

pytestmark = pytest.mark.app

LINKS = "https://links.example.org/"
# Links one below the other, each filling its block: a click anywhere in the column is on one
ROWS = "".join(f"<a href='/row{i}' style='display:block;height:100px;margin:0'>Row {i}</a>" for i in range(40))
PAGE = f"<!DOCTYPE html><html><head><title>Rows</title></head><body style='margin:0'>{ROWS}</body></html>"
TASK = Task(id="rows-1", instruction="Which row is it?", answer="Row", start_url=LINKS)


@pytest.fixture(scope="module")
def links_site(tmp_path_factory):
    from recordlens.core.agent.sites import build_site
    from recordlens.core.page.mhtml_writer import write_mhtml

    root = tmp_path_factory.mktemp("links-site")
    write_mhtml(root / "home.mhtml", PAGE, url=LINKS)
    for i in range(40):
        write_mhtml(root / f"row{i}.mhtml", f"<html><body><h1>Row {i} itself</h1></body></html>",
                    url=f"{LINKS}row{i}")
    build_site(root)
    return root


@pytest.fixture
def links(qapp, links_site):
    yield from shown_browser(links_site, (900, 420))


def test_a_click_during_the_scroll_steps_is_recorded_on_the_page_where_they_end(qtbot, links):
    recorder = Recorder(links, actor="person:test")
    messages: list[str] = []
    recorder.message.connect(messages.append)
    at = QPoint(100, 50)

    def click_once(index: int) -> None:  # as the first Scroll step is recorded, the others still to come
        if index == 0:
            QTest.mouseClick(links.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)

    recorder.step_recorded.connect(click_once)
    recorder.start(TASK)
    step = round(float(links.js_json("JSON.stringify(innerHeight)")) * 2 / 3)  # an agent's Scroll here
    wheel(links, 20, at=(450, 200))
    qtbot.waitUntil(lambda: any(s.action == "click" for s in recorder.steps), timeout=30_000)
    steps = recorder.steps
    scrolls, click = steps[:-1], steps[-1]
    said = ([format_action(s) for s in steps], messages)
    assert len(scrolls) >= 2 and {format_action(s) for s in scrolls} == {"Scroll [WINDOW]; down"}, said
    # every Scroll step carried out and pictured on the page scrolled, each on the one the step before left
    for before, after in zip(scrolls, scrolls[1:], strict=False):
        assert before.screenshot_after == after.screenshot_before
    assert f"as the {len(scrolls)} Scroll steps an agent takes to move about as far: {len(scrolls) * step} px" in (
        messages[0]), said
    # the click, once they were: on the row under the pointer where they took the page, pictured there
    row = (len(scrolls) * step + at.y()) // 100
    assert click.url == LINKS and click.target.label is not None, said
    assert click.target.text == f"Row {row}", said
    assert click.screenshot_before == scrolls[-1].screenshot_after
    qtbot.waitUntil(lambda: links.js_json("JSON.stringify(document.body.innerText)") == f"Row {row} itself",
                    timeout=10_000)

    with qtbot.waitSignal(recorder.finished, timeout=10_000):
        recorder.answer("Row")
    result = replay(recorder.trajectory, QtSiteBrowser(browser=links))
    assert result.ok, result.message
