"""Recording: a scripted sequence of real clicks, typing, wheel turns and Alt+Left on the demo site records the
expected steps in the grammar, with every identity, URLs and screenshots; the recording replays on its site."""

from __future__ import annotations

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.annotator.agent.recorder import Recorder
from recordlens.annotator.agent.trajectory_replay import replay
from recordlens.core.agent.actions import format_action
from recordlens.core.agent.model import Task, Trajectory
from tests.app.agent_helpers import (
    DEMO_SITE,
    HOME,
    alt_left,
    click,
    element,
    short_waits,
    shown_browser,
    type_text,
    wheel,
)

pytestmark = pytest.mark.app

TITLE = "Graph Message Passing with Learned Halting"
OTHER = "Graph Coarsening for Fast Spectral Clustering"


@pytest.fixture(scope="module")
def browser(qapp):
    # Short enough that the search page scrolls: a scroll that moves nothing is no step.
    yield from shown_browser(DEMO_SITE, (1280, 420))


def test_real_input_records_the_expected_steps_and_they_replay(qtbot, browser, monkeypatch):
    short_waits(monkeypatch)
    task = Task(id="comparison-1", instruction="Which graph paper is newest?", answer=TITLE, start_url=HOME)
    recorder = Recorder(browser, actor="person:test")
    recorder.start(task)
    assert browser.url == HOME and recorder.observation.elements

    def recorded(n: int) -> None:
        # A step is appended once its action has settled and the next observation is taken.
        qtbot.waitUntil(lambda: len(recorder.steps) >= n, timeout=10_000)

    search = element(recorder.observation, "Search papers")
    type_text(browser, search, "graph")
    recorded(1)
    assert browser.url == "https://papers.example.org/search?q=graph"

    click(browser, element(recorder.observation, TITLE))
    recorded(2)
    assert browser.url.startswith("https://papers.example.org/abs/")

    alt_left(browser)
    recorded(3)
    assert browser.url == "https://papers.example.org/search?q=graph"

    wheel(browser, 3, at=(600, 200))
    recorded(4)
    recorder.wait()
    recorded(5)
    wheel(browser, -3, at=(600, 200))
    recorded(6)

    click(browser, element(recorder.observation, OTHER))
    recorded(7)
    with qtbot.waitSignal(recorder.finished, timeout=10_000):
        recorder.answer(TITLE)

    trajectory = recorder.trajectory
    commands = [format_action(s) for s in trajectory.steps]
    labels = {s: s.target.label for s in trajectory.steps if s.target}
    assert all(isinstance(v, int) for v in labels.values())
    assert commands == [
        f"Type [{search.label}]; graph",
        f"Click [{trajectory.steps[1].target.label}]",
        "GoBack",
        "Scroll [WINDOW]; down",
        "Wait",
        "Scroll [WINDOW]; up",
        f"Click [{trajectory.steps[6].target.label}]",
        f"ANSWER; {TITLE}",
    ]
    typed, clicked = trajectory.steps[0], trajectory.steps[1]
    assert typed.target.xpath == "/body[1]/main[1]/section[1]/form[1]/input[1]"
    assert (typed.target.role, typed.target.name) == ("searchbox", "Search papers")
    assert clicked.target.text == TITLE and clicked.target.role == "link" and clicked.target.bbox
    assert clicked.url == "https://papers.example.org/search?q=graph"
    assert trajectory.answer == TITLE and trajectory.stop == "answer"
    for step in trajectory.steps:
        assert step.url.startswith("https://papers.example.org/")
        assert step.screenshot_before in trajectory.screenshots
        assert step.screenshot_after in trajectory.screenshots
        assert step.seconds is not None and step.at
    assert trajectory.screenshots[typed.screenshot_before].startswith(b"\x89PNG")
    assert typed.screenshot_before != typed.screenshot_after  # another page
    assert browser.blocked_urls == []

    # It reads back from its JSON form and replays on a fresh browser of the same site.
    again = Trajectory.from_json(trajectory.to_json())
    with QtSiteBrowser(DEMO_SITE) as fresh:
        result = replay(again, fresh)
        assert result.ok, result.message
        assert result.final_url == "https://papers.example.org/abs/2312.00201"
        assert result.url_changes == []


# -- what is not a step, deleting steps, step times, a wrong answer (a first recording's findings) ---------------

SHORT = "https://short.example.org/"
SHORT_PAGE = """<!DOCTYPE html><html><head><meta charset='utf-8'><title>Short</title></head>
<body style='font:18px sans-serif;margin:24px'><h1>A page that does not scroll</h1>
<p id='plain'>Plain text that no agent can click.</p>
<p><a id='link' href='/next'><span id='inner' role='button'>Read the paper</span></a></p>
<footer id='foot'>A footer, clicked by mistake</footer></body></html>"""


def two_page_site(root, home: str, url: str):
    """A snapshot site of `home` at `url` and a plain next page linked from it."""
    from recordlens.core.agent.sites import build_site
    from recordlens.core.page.mhtml_writer import write_mhtml

    write_mhtml(root / "home.mhtml", home, url=url)
    write_mhtml(root / "next.mhtml", "<html><body><h1>Next</h1><a href='/'>Home</a></body></html>",
                url=f"{url}next")
    build_site(root)
    return root


@pytest.fixture(scope="module")
def short_site(tmp_path_factory):
    return two_page_site(tmp_path_factory.mktemp("short-site"), SHORT_PAGE, SHORT)


@pytest.fixture
def short(qapp, short_site):
    yield from shown_browser(short_site, (900, 700))


def click_at(browser, element_id: str) -> None:
    """A real click on the middle of the element with `element_id`."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    x, y = browser.js_json(f"(() => {{ const r = document.getElementById({element_id!r}).getBoundingClientRect();"
                           " return JSON.stringify([r.left + r.width / 2, r.top + r.height / 2]); })()")
    QTest.mouseClick(browser.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(round(x), round(y)))


TASK = Task(id="short-1", instruction="Which paper?", answer="Read the paper", start_url=SHORT,
            normalise=("case", "whitespace"))


def test_a_click_on_text_is_no_step_and_one_inside_a_numbered_link_is_the_link(qtbot, short):
    recorder = Recorder(short, actor="person:test")
    messages: list[str] = []
    recorder.message.connect(messages.append)
    recorder.start(TASK)
    link = element(recorder.observation, "Read the paper")
    for where in ("plain", "foot"):
        click_at(short, where)
        qtbot.waitUntil(lambda: any("not recorded" in m for m in messages), timeout=5_000)
        assert recorder.steps == [] and "is no element an agent can click" in messages[-1]
        messages.clear()
    # A span (itself role=button) inside a link: the link is what set-of-mark numbers, so it is the target.
    click_at(short, "inner")
    qtbot.waitUntil(lambda: len(recorder.steps) == 1, timeout=10_000)
    [step] = recorder.steps
    assert format_action(step) == f"Click [{link.label}]" and step.target.xpath == link.xpath
    recorder.stop()


def test_a_click_on_empty_space_below_the_content_is_said_as_that_not_as_the_page_text(qtbot, short):
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    recorder = Recorder(short, actor="person:test")
    messages: list[str] = []
    recorder.message.connect(messages.append)
    recorder.start(TASK)
    # Far below the footer: the body's (or the document's) own space, whose text is the whole page's.
    QTest.mouseClick(short.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(450, 650))
    qtbot.waitUntil(lambda: any("not recorded" in m for m in messages), timeout=5_000)
    assert recorder.steps == []
    assert messages[-1] == ("not recorded: the click was on the page's empty space, where there is no element an "
                            "agent can click")
    recorder.stop()


def test_a_scroll_that_moves_nothing_is_no_step(qtbot, short):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    recorder = Recorder(short, actor="person:test")
    messages: list[str] = []
    recorder.message.connect(messages.append)
    recorder.start(TASK)
    wheel(short, 3)
    qtbot.waitUntil(lambda: any("moved nothing" in m for m in messages), timeout=5_000)
    QTest.keyClick(short.view.focusProxy(), Qt.Key.Key_PageDown)
    qtbot.waitUntil(lambda: sum("moved nothing" in m for m in messages) == 2, timeout=5_000)
    assert recorder.steps == []
    assert recorder.observation.elements  # the numbers the scroll hid are drawn again
    recorder.stop()


def test_a_steps_time_is_the_time_since_the_step_before_even_while_that_one_is_handled(qtbot, short, monkeypatch):
    """A click made while a Wait was being carried out got 0.0 s and its time went to the next step."""
    from PySide6.QtCore import QTimer

    from recordlens.annotator.agent import recorder as recorder_module

    # The Wait carried out for 3 s, not its 1 s: the click 0.4 s into it, told apart from a time counted to the
    # Wait's end, with room for a busy machine's late timer and the page's late report of the click
    monkeypatch.setattr(recorder_module, "WAIT_MS", 3000)
    recorder = Recorder(short, actor="person:test")
    recorder.start(TASK)
    QTimer.singleShot(400, lambda: click_at(short, "inner"))  # while the Wait is carried out
    recorder.wait()
    qtbot.waitUntil(lambda: len(recorder.steps) == 2, timeout=20_000)
    wait, click_step = recorder.steps
    assert wait.action == "wait" and click_step.action == "click"
    assert 0.3 <= click_step.seconds < 3.0, click_step.seconds
    recorder.stop()


def recording(qtbot, browser):  # noqa: ANN001, ANN201
    """A recording panel on `browser`, shown, recording the test's task (● Record pressed)."""
    from recordlens.annotator.agent.recording_panel import RecordingPanel

    recorder = Recorder(browser, actor="person:test")
    panel = RecordingPanel(recorder)
    qtbot.addWidget(panel)
    panel.set_tasks([TASK])
    panel.show()
    panel.toggle()
    return recorder, panel


def test_a_step_is_deleted_with_del_and_comes_back_with_ctrl_z(qtbot, short, monkeypatch):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    short_waits(monkeypatch)
    recorder, panel = recording(qtbot, short)
    click_at(short, "plain")  # not a step
    recorder.wait()
    qtbot.waitUntil(lambda: len(recorder.steps) == 1, timeout=10_000)
    recorder.wait()
    qtbot.waitUntil(lambda: len(recorder.steps) == 2, timeout=10_000)
    first, second = recorder.steps
    panel.activateWindow()
    panel.steps.setFocus()
    qtbot.waitUntil(panel.steps.hasFocus)
    panel.steps.setCurrentRow(0)
    QTest.keyClick(panel.steps, Qt.Key.Key_Delete)
    assert recorder.steps[0].seconds == pytest.approx(first.seconds + second.seconds, abs=0.002)
    assert len(recorder.steps) == 1 and panel.steps.count() == 1 and "step 1 (Wait) deleted" in panel.status.text()
    QTest.keyClick(panel.steps, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert recorder.steps == [first, second] and panel.steps.count() == 2
    panel.toggle()  # ■ Stop: a finished recording is saved already, so its steps stay
    panel.steps.setCurrentRow(0)
    QTest.keyClick(panel.steps, Qt.Key.Key_Delete)
    assert len(recorder.steps) == 2 and "while recording" in panel.status.text()


def test_a_wrong_answer_is_said_before_it_is_recorded_and_the_reference_is_marked(qtbot, short):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    recorder, panel = recording(qtbot, short)
    panel.answer_edit.setText("Plain text")
    QTest.mouseClick(panel.answer_button, Qt.MouseButton.LeftButton)
    assert recorder.recording and not panel.warning.isHidden()
    assert "does not match the task's gold answer “Read the paper”" in panel.warning.text()
    with qtbot.waitSignal(recorder.finished, timeout=10_000):
        QTest.mouseClick(panel.answer_button, Qt.MouseButton.LeftButton)  # again: recorded anyway
    assert recorder.trajectory.answer == "Plain text" and recorder.trajectory.success is False
    assert "saved marked “does not match”" in panel.warning.text()

    panel.toggle()  # another recording: a wrong answer warned about, then corrected (after the normalisation)
    assert panel.warning.isHidden()
    panel.answer_edit.setText("Plain text")
    QTest.mouseClick(panel.answer_button, Qt.MouseButton.LeftButton)
    assert recorder.recording and not panel.warning.isHidden()
    panel.answer_edit.setText("  read the PAPER ")
    with qtbot.waitSignal(recorder.finished, timeout=10_000):
        QTest.mouseClick(panel.answer_button, Qt.MouseButton.LeftButton)
    assert recorder.trajectory.success is True and panel.warning.isHidden()


def test_the_steps_list_wraps_a_long_answer_and_empties_for_another_task(qtbot, short):
    from recordlens.annotator.agent.recording_panel import RecordingPanel

    recorder = Recorder(short, actor="person:test")
    panel = RecordingPanel(recorder)
    qtbot.addWidget(panel)
    other = Task(id="short-2", instruction="Another?", answer="x", start_url=SHORT)
    panel.set_tasks([TASK, other])
    panel.resize(330, 600)
    panel.show()
    panel.toggle()
    long_answer = "Read the paper " + "and a long explanation of why " * 12
    panel.answer_edit.setText(long_answer)
    with qtbot.waitSignal(recorder.finished, timeout=10_000):
        panel.answer()
        panel.answer()  # it does not match: confirmed
    qtbot.waitUntil(lambda: panel.steps.count() == 1)
    item = panel.steps.item(0)
    assert item.toolTip() == f"1. ANSWER; {long_answer.strip()}"
    assert panel.steps.horizontalScrollBar().maximum() == 0
    assert panel.steps.visualItemRect(item).width() <= panel.steps.viewport().width()
    panel.task_box.setCurrentIndex(2)  # another task: the last one's steps go
    assert panel.steps.count() == 0


# -- a click on empty space inside a wrapper holding the whole page (a full-page div or main, not body) ----------

WRAPPED = "https://wrapped.example.org/"
WRAPPED_PAGE = """<!DOCTYPE html><html><head><meta charset='utf-8'><title>Wrapped</title></head>
<body style='font:18px sans-serif;margin:0'><main id='page'>
<div id='app' style='min-height:100vh;padding:24px;box-sizing:border-box'><span id='welcome'></span>Welcome to the
papers.<h1>A page inside one wrapper</h1>
<p id='plain'>Plain text that no agent can click.</p>
<p><a id='link' href='/next'>Read the paper</a></p>
<button id='more' type='button'>More papers</button></div></main></body></html>"""


@pytest.fixture(scope="module")
def wrapped_site(tmp_path_factory):
    return two_page_site(tmp_path_factory.mktemp("wrapped-site"), WRAPPED_PAGE, WRAPPED)


@pytest.fixture
def wrapped(qapp, wrapped_site):
    yield from shown_browser(wrapped_site, (900, 700))


def test_a_click_on_empty_space_of_a_full_page_wrapper_is_said_as_empty_space(qtbot, wrapped):
    """It quoted the wrapper's whole text ("Welcome to the papers. A page inside…") as what was clicked."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    recorder = Recorder(wrapped, actor="person:test")
    messages: list[str] = []
    recorder.message.connect(messages.append)
    recorder.start(Task(id="wrapped-1", instruction="Which paper?", answer="Read the paper", start_url=WRAPPED))
    # Below the button, inside the wrapper (it is as tall as the view): the wrapper is what the pointer is on.
    assert wrapped.run_js("document.elementFromPoint(450, 650).id") == "app"
    QTest.mouseClick(wrapped.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(450, 650))
    qtbot.waitUntil(lambda: any("not recorded" in m for m in messages), timeout=5_000)
    assert recorder.steps == []
    assert messages[-1] == ("not recorded: the click was on the page's empty space, where there is no element an "
                            "agent can click")
    messages.clear()
    # The wrapper's own words under the pointer are what was clicked, not the whole page's text after them.
    x, y = wrapped.js_json("(() => { const r = document.createRange(); const text = "
                           "document.getElementById('welcome').nextSibling; r.setStart(text, 0); r.setEnd(text, 7);"
                           " const b = r.getBoundingClientRect();"
                           " return JSON.stringify([b.left + b.width / 2, b.top + b.height / 2]); })()")
    QTest.mouseClick(wrapped.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(round(x), round(y)))
    qtbot.waitUntil(lambda: any("not recorded" in m for m in messages), timeout=5_000)
    assert messages[-1] == "not recorded: the click on “Welcome to the papers.” is no element an agent can click"
    messages.clear()
    click_at(wrapped, "plain")  # a paragraph's text inside the wrapper: quoted as before
    qtbot.waitUntil(lambda: any("not recorded" in m for m in messages), timeout=5_000)
    assert messages[-1] == ("not recorded: the click on “Plain text that no agent can click.” is no element an agent "
                            "can click")
    # A real button and a real link inside the wrapper are steps on them.
    observation = recorder.observation
    button, link = element(observation, "More papers"), element(observation, "Read the paper")
    click_at(wrapped, "more")
    qtbot.waitUntil(lambda: len(recorder.steps) == 1, timeout=10_000)
    click_at(wrapped, "link")
    qtbot.waitUntil(lambda: len(recorder.steps) == 2, timeout=10_000)
    first, second = recorder.steps
    assert format_action(first) == f"Click [{button.label}]" and first.target.xpath == button.xpath
    assert format_action(second) == f"Click [{link.label}]" and second.target.xpath == link.xpath
    assert second.target.text == "Read the paper"
    recorder.stop()
