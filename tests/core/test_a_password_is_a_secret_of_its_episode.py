"""A password an agent typed was masked only in the step whose Type reached the password field, and only in that
step's own call: a failed attempt before it (`Type [9]; pw`, a number the page has not) kept it in its step, its
stored answer and the memory of every later prompt, and a later thought that said it again kept it too. The
password is now a secret of its whole episode (core/agent/actions.py `masked_step`, core/agent/loop.py). Masking
replaced the secret as a plain substring, so a short password garbled element numbers and other words; and
agreement with a reference compared a masked Type's bullets (core/agent/evaluate.py `same_typing`). (Later: a
password is masked in free text as a word only, whatever its length, and a masked Type agrees only with a Type of
its length: tests/core/test_passwords_masked_as_words_and_by_length.py.)"""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent import actions, page_text
from recordlens.core.agent.actions import Step, format_action, masked, masked_password, password_bullets
from recordlens.core.agent.evaluate import steps_match
from recordlens.core.agent.loop import AgentSettings, run_episode
from recordlens.core.agent.memory import WindowMemory
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.agent.targets import Target
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from tests.core.hidden_parts_page import LOGIN_HOME, LOGIN_PAGE, Scripted, one_page_site

PASSWORD = "hunter22"
BULLETS = password_bullets(PASSWORD)


def _login(tmp_path: Path, *answers: str) -> tuple[Trajectory, Scripted]:
    model = Scripted(*answers)
    task = Task(id="login", instruction="Log in.", answer="done", start_url=LOGIN_HOME)
    browser = HtmlSiteBrowser(one_page_site(tmp_path / "site", LOGIN_PAGE, LOGIN_HOME))
    settings = AgentSettings(memory=WindowMemory(5), send_screenshot=False)
    return run_episode(task, browser, model, settings), model


def test_a_failed_attempt_and_a_later_thought_keep_the_password_masked(tmp_path: Path) -> None:
    trajectory, model = _login(tmp_path,
                               f"Thought: type the password.\nAction: Type [9]; {PASSWORD}",
                               f"Action: Type [2]; {PASSWORD}",
                               f"Thought: I entered {PASSWORD} as the password, now done.\nAction: Wait",
                               "Action: ANSWER; done")

    failed, typed, wait, _ = trajectory.steps
    assert failed.failed and failed.value == BULLETS and format_action(failed) == f"Type [9]; {BULLETS}"
    assert failed.raw == f"Thought: type the password.\nAction: Type [9]; {BULLETS}"  # its number kept
    assert not typed.failed and typed.value == BULLETS
    assert wait.thought == f"I entered {BULLETS} as the password, now done."
    assert PASSWORD not in trajectory.to_json()
    assert all(PASSWORD not in (call.answer or "") + call.prompt for call in trajectory.calls)
    # The second prompt went out before the password was known; every one after it shows the bullets only.
    assert PASSWORD in model.prompts[1] and f"Type [9]; {BULLETS}" in trajectory.calls[1].prompt
    assert all(PASSWORD not in prompt for prompt in model.prompts[2:])
    assert f"Type [9]; {BULLETS}" in model.prompts[2]


def test_a_type_that_never_reaches_a_password_field_keeps_its_text(tmp_path: Path) -> None:
    """A Type whose number the page has not cannot say what field it aimed at: kept as typed (loop notes)."""
    trajectory, _ = _login(tmp_path, f"Action: Type [9]; {PASSWORD}", f"Action: Type [1]; {PASSWORD}",
                           "Action: ANSWER; done")
    assert [step.value for step in trajectory.steps] == [PASSWORD, PASSWORD, "done"]


def test_a_password_is_masked_where_it_was_typed_and_as_a_word_only() -> None:
    raw = "Thought: field 1 of 12 is it.\nAction: Type [1]; 1"
    step = masked_password(Step("type", Target(label=1), "1", raw=raw, thought="field 1 of 12 is it"))
    assert step.raw == "Thought: field \u2022 of 12 is it.\nAction: Type [1]; \u2022"  # not "[\u2022]", "\u20222"
    assert step.thought == "field \u2022 of 12 is it"
    assert masked('{"action": "Type [3]; e", "thought": "the field e here"}', "e") == \
        '{"action": "Type [3]; \u2022", "thought": "the field \u2022 here"}'
    four = "\u2022" * 4  # a longer password too is masked as a word only, and never in an element's number
    assert masked("Type [1234]; 1234 (1234567)", "1234") == f"Type [1234]; {four} (1234567)"


def test_a_masked_type_agrees_with_a_reference_by_its_field_and_length() -> None:
    task = Task(id="login", instruction="Log in.", answer="done", start_url=LOGIN_HOME)
    field = Target(label=2, xpath="/html[1]/body[1]/form[1]/label[2]/input[1]")
    other = Target(label=1, xpath="/html[1]/body[1]/form[1]/label[1]/input[1]")

    def typed(target: Target, value: str) -> Step:
        return Step("type", target, value, url=LOGIN_HOME)

    agent = masked_password(typed(field, PASSWORD))
    assert steps_match(task, typed(field, PASSWORD), agent)  # a reference recorded in clear, before masking
    assert steps_match(task, masked_password(typed(field, "others22")), agent)  # bullets of its length
    assert not steps_match(task, masked_password(typed(field, "other")), agent)  # of another length
    assert not steps_match(task, masked_password(typed(other, PASSWORD)), agent)  # another field
    assert not steps_match(task, typed(field, "wrong one"), typed(field, PASSWORD))  # in clear: the text counts


def test_the_cut_of_an_element_s_text_has_one_home() -> None:
    assert not hasattr(actions, "SHOWN_CHARS")
    assert actions.TEXT_CHARS is page_text.TEXT_CHARS
