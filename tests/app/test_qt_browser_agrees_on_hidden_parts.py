"""The Qt browser and core's text browser agree on what a page hides, and both keep a typed password masked.

The text browser's page text held text its style made invisible (`visibility: hidden`), and it numbered the elements
inside a closed `<details>`: the Qt browser shows neither (tests/core/test_text_browser_invisible_text.py and
test_text_browser_closed_details.py hold the text browser to these pages). A password typed into a password field,
by an agent in the Qt browser or by a person recording, was kept in clear in the steps: now as bullets, while the
field holds the real text (tests/core/test_typed_passwords_are_masked.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.annotator.agent.recorder import Recorder
from recordlens.core.agent.actions import Step, format_action
from recordlens.core.agent.loop import AgentSettings, run_episode
from recordlens.core.agent.model import Task
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from tests.app.agent_helpers import element, shown_browser, type_text, wait_for
from tests.core.hidden_parts_page import (
    BULLETS,
    DETAILS_CLOSED,
    DETAILS_HOME,
    DETAILS_OPENED,
    DETAILS_PAGE,
    INVISIBLE_TEXTS,
    LOGIN_HOME,
    LOGIN_PAGE,
    SECRET,
    Scripted,
    one_page_site,
    page_of,
)

pytestmark = pytest.mark.app

PASSWORD_VALUE = "JSON.stringify(document.querySelector('input[type=password]').value)"


@pytest.mark.timeout(180)
def test_both_browsers_leave_invisible_text_out_alike(qapp, tmp_path: Path) -> None:
    url = "https://invisible.example.org/"
    site = one_page_site(tmp_path, page_of("".join(body for body, _ in INVISIBLE_TEXTS)), url)
    with QtSiteBrowser(site) as browser:
        browser.open(url)
        rendered = browser.observe().text
    text = HtmlSiteBrowser(site)
    text.open(url)
    assert rendered == text.observe().text == "\n".join(expected for _, expected in INVISIBLE_TEXTS)


@pytest.mark.timeout(180)
def test_both_browsers_number_only_the_summary_of_a_closed_details(qapp, tmp_path: Path) -> None:
    site = one_page_site(tmp_path, DETAILS_PAGE, DETAILS_HOME)
    text = HtmlSiteBrowser(site)
    text.open(DETAILS_HOME)
    with QtSiteBrowser(site) as browser:
        browser.open(DETAILS_HOME)
        seen = browser.observe()
        assert [(e.role, e.name) for e in seen.elements] == DETAILS_CLOSED
        assert [(e.role, e.name) for e in seen.elements] == [(e.role, e.name) for e in text.observe().elements]
        browser.perform(Step("click", seen.element(2)))  # the summary opens its details in both
        text.perform(Step("click", text.observe().element(2)))
        opened = browser.observe()
        assert [(e.role, e.name) for e in opened.elements] == DETAILS_OPENED
        assert [(e.role, e.name) for e in opened.elements] == [(e.role, e.name) for e in text.observe().elements]


@pytest.mark.timeout(180)
def test_an_agent_s_password_in_the_qt_browser_is_kept_masked(qapp, tmp_path: Path) -> None:
    site = one_page_site(tmp_path, LOGIN_PAGE, LOGIN_HOME)
    model = Scripted(f"Thought: the password is {SECRET}.\nAction: Type [2]; {SECRET}", "Action: ANSWER; done")
    task = Task(id="login", instruction="Log in.", answer="done", start_url=LOGIN_HOME)
    with QtSiteBrowser(site) as browser:
        browser.open(LOGIN_HOME)
        assert [browser.is_password_field(e) for e in browser.observe().elements] == [False, True]
        trajectory = run_episode(task, browser, model, AgentSettings(send_screenshot=False))
        assert browser.browser.js_json(PASSWORD_VALUE) == SECRET  # the field got the real keys
    typed = trajectory.steps[0]
    assert not typed.failed and format_action(typed) == f"Type [2]; {BULLETS}"
    assert SECRET not in trajectory.to_json() and SECRET not in model.prompts[1]
    assert f"Type [2]; {BULLETS}" in model.prompts[1]


@pytest.fixture
def login_browser(qapp, tmp_path: Path):  # noqa: ANN201 - yields a shown SiteBrowser on the login page's site
    one_page_site(tmp_path / "site", LOGIN_PAGE, LOGIN_HOME)
    yield from shown_browser(tmp_path / "site", (1000, 700))


@pytest.mark.timeout(180)
def test_a_person_s_password_is_recorded_masked(login_browser) -> None:
    password = "s3cret"
    recorder = Recorder(login_browser, actor="person:test")
    recorder.start(Task(id="login", instruction="Log in.", answer="x", start_url=LOGIN_HOME))
    type_text(login_browser, element(recorder.observation, "User"), "ann")
    wait_for(lambda: len(recorder.steps) == 1)
    type_text(login_browser, element(recorder.observation, "Password"), password)
    wait_for(lambda: len(recorder.steps) == 2)
    assert login_browser.js_json(PASSWORD_VALUE) == password  # the field holds what was typed
    trajectory = recorder.stop()
    assert trajectory is not None
    assert [s.value for s in trajectory.steps] == ["ann", "\u2022" * len(password)]
    assert password not in trajectory.to_json()
