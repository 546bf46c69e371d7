"""The agent's grammar could not fill a form of two fields: `Type [n]; text` always pressed Enter, so on a login
page the first Type sent the form with the password empty. A person's recording had the Type without Enter,
`Type [8]; ada (no Enter)`, which replay read from a hand-written command, but an agent writing it got the words
"(no Enter)" typed and the form sent. Now persons and agents share one grammar (actions.parse_action): the text
ends before "(no Enter)", and no Enter is pressed; the prompt offers it, both browsers carry it out (the Qt one:
tests/app/test_qt_agent_types_without_enter.py), agreement with a person's reference counts it as the person's
Type, and a run made before the rule is not resumed under it."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

from recordlens.core.agent.actions import Step, parse_action, password_bullets, said_action
from recordlens.core.agent.evaluate import agreement, steps_match
from recordlens.core.agent.forms import FormControls
from recordlens.core.agent.loop import LOOP_RULES, AgentSettings, run_episode, system_prompt
from recordlens.core.agent.memory import WindowMemory
from recordlens.core.agent.model import Trajectory
from recordlens.core.agent.sites import load_site
from recordlens.core.agent.targets import Target
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.cli.command import main
from recordlens.core.llm.gemini import Answer
from recordlens.core.page.dom import parse_html
from tests.demo_agent import REFERENCES, SITE_DIR, TASK_IDS, TASKS_FILE, agent_run, respond
from tests.fake_gemini import FakeGemini, answer_with
from tests.login_form_site import (
    ACCOUNT,
    ACCOUNT_NUMBER,
    ANSWERS,
    LOGIN,
    PASSWORD,
    TASK,
    USER,
    login_episode,
    make_login_form_site,
)

BULLETS = password_bullets(PASSWORD)


@pytest.mark.parametrize(("said", "value"), [
    ("Type [8]; ada (no Enter)", "ada"),
    ("Action: type [8]; ada (No  enter)", "ada"),
    ('Type [8]; "ada lovelace" (no Enter)', "ada lovelace"),
    ("Type [8] ada(no Enter)", "ada"),
    ('{"thought": "t", "action": "Type [8]; ada (no Enter)"}', "ada"),
    ('{"action": "Type", "element": 8, "text": "ada (no Enter)"}', "ada"),
    ("Type [8]; (no Enter)", ""),  # the field emptied, as a person's emptied field is said
    ("Type [8]; ada (no Enter).", "ada"),  # the sentence's full stop, as the other actions take it
])
def test_a_model_and_a_hand_written_command_read_no_enter_alike(said: str, value: str) -> None:
    step = parse_action(said)
    assert (step.action, step.target, step.value, step.submit) == ("type", Target(label=8), value, False)
    assert said_action(step) == f"Type [8]; {value} (no Enter)".replace(";  (", "; (")
    assert parse_action(said_action(step)).submit is False  # what is said is read back the same
    if not said.startswith(("{", "Action")):
        written = Step.from_dict({"command": said})  # a trajectory's hand-written command
        assert (written.value, written.submit) == (value, False)
    entered = parse_action("Type [8]; ada")
    assert (entered.value, entered.submit) == ("ada", True)
    assert parse_action("Type [8]; St. Ives.").value == "St. Ives."  # a full stop of the text itself is typed


def test_the_prompt_offers_a_type_without_enter() -> None:
    lines = system_prompt(False).splitlines()
    offered = [line for line in lines if "(no Enter)" in line]
    assert offered == ["- `Type [n]; text (no Enter)` does the same but presses no Enter: fill a form's fields so, "
                       "then click its button."]
    assert "- `Type [n]; text` clears the text field n, types the text and presses Enter, which submits the " \
           "field's form (in a" in lines  # WebVoyager's words for the Type with Enter are kept


class Scripted:
    """The model: the login answers in turn."""

    def __init__(self) -> None:
        self.answers = list(ANSWERS)

    def generate(self, prompt: str, *, system: str | None = None, images: list[bytes] | None = None,
                 about: str | None = None) -> Answer:
        return Answer(text=self.answers.pop(0), usage={}, attempts=1, seconds=0.0, finish_reason="STOP")


def test_the_text_browser_fills_two_fields_without_sending_the_form(tmp_path: Path) -> None:
    browser = HtmlSiteBrowser(load_site(make_login_form_site(tmp_path / "site")))
    trajectory = run_episode(TASK, browser, Scripted(), AgentSettings(memory=WindowMemory(5), send_screenshot=False))
    assert [s.error for s in trajectory.steps] == [None] * 4 and trajectory.answer == ACCOUNT_NUMBER
    user, password, click, _ = trajectory.steps
    assert [user.url, password.url, click.url] == [LOGIN] * 3  # neither Type sent the form
    assert (user.value, user.submit, password.value, password.submit) == (USER, False, BULLETS, False)
    assert browser.visited == [LOGIN, ACCOUNT]  # one form sent, by the button, both fields filled
    assert said_action(password) == f"Type [2]; {BULLETS} (no Enter)"

    browser.open(LOGIN)  # a person's Type without Enter, replayed: the browser keeps to the step's `submit`
    first = browser.observe().elements[0]
    browser.perform(Step("type", first, USER, LOGIN, submit=False))
    assert browser.url == LOGIN and browser.observe().elements[0].text == USER
    browser.perform(Step("type", first, USER, LOGIN))  # the grammar's Type: Enter sends the form (the password empty)
    assert browser.url == "https://bank.example.org/account?user=ada&pw="


def test_a_text_area_typed_without_enter_gets_no_new_line() -> None:
    page = parse_html("<body><form><textarea name=note></textarea></form></body>")
    area = next(e for e in page.elements if e.tag == "textarea")
    controls = FormControls(page)
    controls.type_into(area, "hello", enter=False)
    assert controls.value(area) == "hello"
    controls.type_into(area, "hello")  # Enter: a new line, as Chromium's text area takes it
    assert controls.value(area) == "hello\n"


def test_an_agent_logs_in_with_the_text_browser_and_agrees_with_a_persons_reference(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    site = tmp_path / "site"
    episode = login_episode(main, tmp_path, capsys, "text")
    assert [(s.action, s.value, s.submit, s.url) for s in episode.steps[:2]] == [
        ("type", USER, False, LOGIN), ("type", BULLETS, False, LOGIN)]  # stored as taken
    assert episode.steps[3].url == ACCOUNT and episode.success

    # A person's reference of the same login, as the recorder keeps it (each field left, the password masked).
    person = HtmlSiteBrowser(load_site(site))
    person.open(LOGIN)
    user, password, button = person.observe().elements
    reference = Trajectory(task_id=TASK.id, actor="person:ann", answer=ACCOUNT_NUMBER, steps=[
        Step("type", user, USER, LOGIN, submit=False), Step("type", password, BULLETS, LOGIN, submit=False),
        Step("click", button, url=LOGIN), Step("answer", None, ACCOUNT_NUMBER, ACCOUNT)])
    assert agreement(TASK, reference, episode) == 1.0
    # The agent's answer as it wrote it, its number resolved on the page: the words are no part of its text.
    taken = replace(parse_action(f"Type [1]; {USER} (no Enter)"), target=user, url=LOGIN)
    assert steps_match(TASK, reference.steps[0], taken)


def test_a_run_made_before_the_rule_is_not_resumed_under_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    assert LOOP_RULES["types_without_enter_when_said"] is True
    project = tmp_path / "p"
    with FakeGemini(default=answer_with(respond)) as server:
        run0_requests = sum(len(REFERENCES[t].steps) for t in TASK_IDS)
        assert agent_run(project, server, "--max-requests", str(run0_requests + 1)) == 3
        with closing(sqlite3.connect(project / "project.db")) as conn, conn:  # as a run made before the rule
            (text,) = conn.execute("SELECT parameters FROM agent_runs WHERE id = 1").fetchone()
            parameters = json.loads(text)
            del parameters["types_without_enter_when_said"]
            conn.execute("UPDATE agent_runs SET parameters = ? WHERE id = 1", (json.dumps(parameters),))
        server.requests.clear()
        capsys.readouterr()
        tasks = [arg for t in TASK_IDS for arg in ("--task", t)]
        assert main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(TASKS_FILE),
                     *tasks, "--base-url", server.url, "--resume", "1"]) == 2
        said = capsys.readouterr().err
        assert server.requests == []  # refused before any request
    assert ("agent run 1 was made before this rule of the agent's loop, which its settings do not record: "
            "types_without_enter_when_said (the README's agent section says what each does)") in said, said
