"""A person's burst of mouse-wheel turns is recorded as the agent's Scroll steps it takes to move the page about as
far (each moves two thirds of the view, as an agent's does), the page brought to where those steps take it: a replay
of the recording then ends where the recording ended, and its step count is what an agent would need, however hard
the wheel was spun. Stored as one `Scroll [WINDOW]; down` whatever the distance, a 10-notch burst replayed as one
agent step left the page far above where the person answered, though replay said every step was replayed.
Real wheel events on the site browser (the path the recorder hears), replayed as the app replays (QtSiteBrowser
over the same browser)."""

from __future__ import annotations

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.annotator.agent.recorder import Recorder
from recordlens.annotator.agent.trajectory_replay import replay
from recordlens.core.agent.actions import format_action
from recordlens.core.agent.model import Task
from tests.app.agent_helpers import shown_browser, wheel

pytestmark = pytest.mark.app

LONG = "https://long.example.org/"
PARAGRAPHS = "".join(f"<p id='p{i}' style='height:120px;margin:0'>Paragraph {i} of a long page.</p>"
                     for i in range(25))
LONG_PAGE = f"""<!DOCTYPE html><html><head><meta charset='utf-8'><title>Long</title></head>
<body style='font:18px sans-serif;margin:0'><h1 style='margin:0;height:60px'>A long page</h1>{PARAGRAPHS}
<p><a href='/next'>The end</a></p></body></html>"""
TASK = Task(id="long-1", instruction="What does the page end with?", answer="The end", start_url=LONG)
VIEW = (900, 420)


@pytest.fixture(scope="module")
def long_site(tmp_path_factory):
    from recordlens.core.agent.sites import build_site
    from recordlens.core.page.mhtml_writer import write_mhtml

    root = tmp_path_factory.mktemp("long-site")
    write_mhtml(root / "home.mhtml", LONG_PAGE, url=LONG)
    write_mhtml(root / "next.mhtml", "<html><body><h1>Next</h1></body></html>", url=f"{LONG}next")
    build_site(root)
    return root


@pytest.fixture
def long(qapp, long_site):
    yield from shown_browser(long_site, VIEW)


def scrolled_to(browser) -> float:  # noqa: ANN001 - a SiteBrowser
    return float(browser.js_json("JSON.stringify(scrollY)"))


def agent_step(browser) -> int:  # noqa: ANN001 - a SiteBrowser
    """How far one agent Scroll of the window moves the page here: two thirds of the view (som.js `scroll`)."""
    return round(float(browser.js_json("JSON.stringify(innerHeight)")) * 2 / 3)


def record(qtbot, browser, bursts: list[int]):  # noqa: ANN001, ANN201 - a SiteBrowser; a Trajectory
    """Record `bursts` of wheel notches (> 0: down), each awaited until the page has been observed after it, then
    the answer; the recording and where the page was when the person answered."""
    recorder = Recorder(browser, actor="person:test")
    messages: list[str] = []
    recorder.message.connect(messages.append)
    recorder.start(TASK)
    for notches in bursts:
        heard = len(messages) + len(recorder.steps)
        wheel(browser, notches, at=(450, 200))
        qtbot.waitUntil(lambda heard=heard: len(messages) + len(recorder.steps) > heard, timeout=20_000)
        qtbot.wait(600)  # a burst's steps are all appended before the next burst
    answered_at = scrolled_to(browser)
    assert recorder.observation.scroll[1] == answered_at  # what the person last saw is where the page is
    with qtbot.waitSignal(recorder.finished, timeout=10_000):
        recorder.answer("The end")
    return recorder.trajectory, answered_at


def test_a_hard_spun_wheel_is_recorded_as_the_agent_steps_it_takes_and_replays_to_where_it_ended(qtbot, long):
    step = agent_step(long)
    trajectory, answered_at = record(qtbot, long, [10])
    result = replay(trajectory, QtSiteBrowser(browser=long))
    assert result.ok, result.message
    assert scrolled_to(long) == answered_at  # replay ends where the person answered

    scrolls = [s for s in trajectory.steps if s.action == "scroll"]
    # 10 notches move the page well beyond one agent step: as many steps as move it about as far, the page where
    # they take it
    assert len(scrolls) >= 2, [format_action(s) for s in trajectory.steps]
    assert answered_at == len(scrolls) * step
    assert {format_action(s) for s in scrolls} == {"Scroll [WINDOW]; down"}
    for before, after in zip(scrolls, scrolls[1:], strict=False):  # each step on the page the step before left
        assert before.screenshot_after == after.screenshot_before
    assert all(s.screenshot_after in trajectory.screenshots for s in scrolls)
    shown = {s.screenshot_before for s in trajectory.steps} | {s.screenshot_after for s in trajectory.steps}
    assert set(trajectory.screenshots) == shown  # no picture of the page where the wheel stopped, which no step shows


def test_bursts_down_to_the_end_and_back_up_replay_to_where_the_recording_ended(qtbot, long):
    step = agent_step(long)
    trajectory, answered_at = record(qtbot, long, [60, -4])
    result = replay(trajectory, QtSiteBrowser(browser=long))
    assert result.ok, result.message
    assert scrolled_to(long) == answered_at

    end = float(long.js_json("JSON.stringify(document.scrollingElement.scrollHeight - innerHeight)"))
    directions = [s.value for s in trajectory.steps if s.action == "scroll"]
    down = directions.count("down")
    assert directions == ["down"] * down + ["up"] * (len(directions) - down)
    assert down == -(-end // step)  # as many steps as reach the page's end, the last one stopped there
    assert answered_at == end - step  # 4 notches up: less than a step, and an agent's step is the least


def test_a_burst_shorter_than_half_a_step_is_said_to_move_the_page_further_than_the_wheel_went(qtbot, long):
    """One notch moves the page less than half an agent's step: recorded as one Scroll step all the same (a scroll
    the person made is a step), which takes the page further than the wheel went, and the panel says so rather than
    that an agent moves "as far" with it."""
    step = agent_step(long)
    recorder = Recorder(long, actor="person:test")
    messages: list[str] = []
    recorder.message.connect(messages.append)
    recorder.start(TASK)
    wheel(long, 1, at=(450, 200))
    qtbot.waitUntil(lambda: bool(messages), timeout=20_000)
    qtbot.wait(600)
    went = float(messages[-1].split("the scroll of ")[1].split(" px")[0])
    assert 0 < went < step / 2
    assert [format_action(s) for s in recorder.steps] == ["Scroll [WINDOW]; down"]
    assert scrolled_to(long) == step  # further than the wheel went, by more than a third of the view
    assert messages[-1] == (
        f"recording: step 1 (Scroll [WINDOW]; down) recorded: the scroll of {went:.0f} px as one Scroll step, the "
        f"least an agent can scroll: it moves the page {step} px, further than the wheel went (an agent's Scroll "
        "moves two thirds of the view, where the page goes on so far); the page is where it takes it")
    recorder.stop()
