"""A password an agent types into `<input type=password>` was kept in clear: in its step (`Type [2]; hunter2`), in
the model's answer and thought kept with the run, in the trajectory's JSON on disk, and in every later prompt's
memory of the steps. The field gets the real text; everything kept of the step shows a bullet for each character,
as the page shows the field (core/agent/actions.py, `masked_password`). Text typed into any other field is kept as
typed."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.actions import (
    Step,
    format_action,
    masked,
    masked_password,
    password_bullets,
    shows_as_password,
)
from recordlens.core.agent.loop import LOOP_RULES, AgentSettings, run_episode
from recordlens.core.agent.memory import WindowMemory
from recordlens.core.agent.model import Task
from recordlens.core.agent.sites import Site
from recordlens.core.agent.targets import Target
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from tests.core.hidden_parts_page import BULLETS, LOGIN_PAGE, SECRET, Scripted, one_page_site
from tests.core.hidden_parts_page import LOGIN_HOME as HOME


def login_site(folder: Path) -> Site:
    return one_page_site(folder, LOGIN_PAGE, HOME)


class ReceivingBrowser(HtmlSiteBrowser):
    """The text browser, noting the text each Type gave it."""

    def __init__(self, site: Site) -> None:
        super().__init__(site)
        self.typed: list[str | None] = []

    def perform(self, step: Step) -> None:
        if step.action == "type":
            self.typed.append(step.value)
        super().perform(step)


def test_a_password_typed_by_the_agent_is_kept_and_shown_again_only_as_bullets(tmp_path: Path) -> None:
    browser = ReceivingBrowser(login_site(tmp_path / "site"))
    model = Scripted("Thought: the user is ann.\nAction: Type [1]; ann",
                     f"Thought: now the password {SECRET}.\nAction: Type [2]; {SECRET}",
                     '{"thought": "the password ' + SECRET.replace('"', '\\"') + ' again", "action": "Type [2]; '
                     + SECRET.replace('"', '\\"') + '"}',
                     "Action: ANSWER; logged in")
    task = Task(id="login", instruction="Log in as ann.", answer="logged in", start_url=HOME)
    trajectory = run_episode(task, browser, model, AgentSettings(memory=WindowMemory(5), send_screenshot=False))

    assert browser.typed == ["ann", SECRET, SECRET]  # the page got the real text
    user, typed, again, _ = trajectory.steps
    assert (user.value, format_action(user)) == ("ann", "Type [1]; ann")  # any other field: as typed
    for step in (typed, again):
        assert not step.failed and step.value == BULLETS and format_action(step) == f"Type [2]; {BULLETS}"
        assert SECRET not in (step.raw or "") and BULLETS in (step.raw or "")
        assert step.thought is not None and SECRET not in step.thought and BULLETS in step.thought
    assert 'hun\\"ter2' not in (again.raw or "")  # nor as the JSON answer wrote it
    for call in trajectory.calls:
        assert SECRET not in (call.answer or "") and 'hun\\"ter2' not in (call.answer or "")
    # Later prompts show the steps from memory masked; the page shows the field's bullets, as Chromium does.
    assert f"Type [2]; {BULLETS}" in model.prompts[2] and f"Type [2]; {BULLETS}" in model.prompts[3]
    assert all(SECRET not in prompt for prompt in model.prompts)
    assert all(SECRET not in call.prompt for call in trajectory.calls)
    assert SECRET not in trajectory.to_json() and "hun\\\"ter2" not in trajectory.to_json()
    assert browser.observe().element(2).text == BULLETS
    assert LOOP_RULES["masks_typed_passwords"] is True


def test_the_text_browser_says_which_field_is_a_password_field(tmp_path: Path) -> None:
    browser = HtmlSiteBrowser(login_site(tmp_path / "site"))
    browser.open(HOME)
    user, password = browser.observe().elements
    assert [browser.is_password_field(e) for e in (user, password)] == [False, True]
    assert browser.is_password_field(Target(label=9)) is False  # no such element: nothing to mask


def test_a_password_is_masked_however_it_is_written() -> None:
    assert password_bullets("h\U0001f600") == "\u2022" * 3  # UTF-16 units, as Chromium counts them
    assert masked('say "a\\\\b" or a\\b', "a\\b") == 'say "\u2022\u2022\u2022" or \u2022\u2022\u2022'
    step = masked_password(Step("type", Target(label=2), "pw1", raw="Type [2]; pw1", thought="pw1 it is",
                                error="refused pw1"))
    three = "\u2022" * 3
    assert (step.value, step.raw, step.thought, step.error) == (three, f"Type [2]; {three}", f"{three} it is",
                                                                f"refused {three}")
    assert masked_password(Step("click", Target(label=2))) == Step("click", Target(label=2))


def test_a_field_that_shows_its_value_as_bullets_is_a_password_field() -> None:
    assert shows_as_password("\u2022" * 7, "hunter2")
    assert not shows_as_password("hunter2", "hunter2")  # a text field shows its value
    assert not shows_as_password("Search", "")  # nothing typed: the placeholder
    assert not shows_as_password("\u2022\u2022", "\u2022\u2022")  # bullets typed anywhere are their own mask
    assert shows_as_password("\u2022" * 200, "x" * 250)  # set-of-mark cuts a text at 200 characters
