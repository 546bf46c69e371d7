"""A typed password of 4 or more characters was masked as a bare substring of every stored prompt, thought and
error, so a password that is a common word mangled other words ("homepage" became "home••••" for the password
"page", the login page's own "Password" label "••••word" for "pass"), while a shorter one next to `_` was left in
clear ("xy1_ok"). A password is now masked in free text where it stands apart from letters and digits, whatever
its length (core/agent/actions.py `masked`). And agreement let a masked Type agree with a Type of any length; now
the lengths must be the same, counted as Chromium counts them (core/agent/evaluate.py `same_typing`)."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.actions import Step, masked, masked_all, masked_step, password_bullets
from recordlens.core.agent.evaluate import same_typing, steps_match
from recordlens.core.agent.loop import AgentSettings, run_episode
from recordlens.core.agent.memory import WindowMemory
from recordlens.core.agent.model import Task
from recordlens.core.agent.targets import Target
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from tests.core.hidden_parts_page import LOGIN_HOME, LOGIN_PAGE, Scripted, one_page_site

FOUR = "\u2022" * 4
THREE = "\u2022" * 3


def test_a_common_word_password_is_masked_as_a_word_not_inside_other_words() -> None:
    assert masked("Clicked the Login button on the homepage; the page says Welcome", "page") == \
        f"Clicked the Login button on the homepage; the {FOUR} says Welcome"
    assert masked("I will type the password next. Type [5]; pass", "pass") == \
        f"I will type the password next. Type [5]; {FOUR}"
    assert masked("page,page.(page)pages", "page") == f"{FOUR},{FOUR}.({FOUR})pages"
    assert masked("Type [1234]; 1234 (1234567)", "1234") == f"Type [1234]; {FOUR} (1234567)"  # its number kept


def test_an_underscore_or_a_text_s_ends_set_a_password_apart() -> None:
    assert masked("value:xy1_ok", "xy1") == f"value:{THREE}_ok"
    assert masked("login as ada_xy1 with pw=xy1", "xy1") == f"login as ada_{THREE} with pw={THREE}"
    assert masked("xy1", "xy1") == THREE
    assert masked("xy1ok xy12 axy1", "xy1") == "xy1ok xy12 axy1"


def test_a_password_after_an_escape_of_a_json_answer_is_masked() -> None:
    """A JSON answer writes a new line as `\\n`: the letter of the escape does not join the password to a word."""
    assert masked('{"thought": "it is:\\nhunter2\\tnow"}', "hunter2") == \
        '{"thought": "it is:\\n' + "\u2022" * 7 + '\\tnow"}'
    assert masked('{"thought": "\\u00e9hunter2"}', "hunter2") == '{"thought": "\\u00e9' + "\u2022" * 7 + '"}'


def test_the_typed_value_of_a_type_is_masked_whatever_it_is() -> None:
    secrets = ("page",)
    typed = masked_step(Step("type", Target(label=2), "page", raw="Type [2]; page", thought="the homepage asks"),
                        secrets)
    assert (typed.value, typed.raw, typed.thought) == (FOUR, f"Type [2]; {FOUR}", "the homepage asks")
    search = masked_step(Step("type", Target(label=1), "homepage ideas"), secrets)
    assert search.value == "homepage ideas"
    assert masked_all("pass page password", ("pass", "page")) == f"{FOUR} {FOUR} password"


def test_an_episode_whose_password_is_a_word_keeps_the_page_s_words(tmp_path: Path) -> None:
    model = Scripted("Thought: the Password field.\nAction: Type [2]; pass",
                     "Thought: typed pass into the password field.\nAction: ANSWER; done")
    task = Task(id="login", instruction="Log in.", answer="done", start_url=LOGIN_HOME)
    browser = HtmlSiteBrowser(one_page_site(tmp_path / "site", LOGIN_PAGE, LOGIN_HOME))
    trajectory = run_episode(task, browser, model, AgentSettings(memory=WindowMemory(5), send_screenshot=False))

    typed, answered = trajectory.steps
    assert typed.value == FOUR and typed.thought == "the Password field."
    assert answered.thought == f"typed {FOUR} into the password field."
    assert all("Password" in call.prompt and "\u2022word" not in call.prompt for call in trajectory.calls)


def test_a_masked_type_agrees_only_with_a_type_of_its_length() -> None:
    assert not same_typing(FOUR, "\u2022" * 12)
    assert not same_typing("hunter2", THREE) and not same_typing(THREE, "hunter2")
    assert same_typing("hunter2", "\u2022" * 7) and same_typing("\u2022" * 7, "hunter2")
    assert same_typing("h\U0001f600", THREE)  # an emoji is two characters of the field, as Chromium counts them
    assert not same_typing("h\U0001f600", "\u2022" * 2)
    assert same_typing("Hunter2", "hunter2") and not same_typing("hunter2", "hunter3")  # in clear: the text

    task = Task(id="login", instruction="Log in.", answer="done", start_url=LOGIN_HOME)
    field = Target(label=2, xpath="/html[1]/body[1]/form[1]/label[2]/input[1]")
    agent = Step("type", field, password_bullets("hunter22"), url=LOGIN_HOME)
    assert steps_match(task, Step("type", field, "hunter22", url=LOGIN_HOME), agent)
    assert not steps_match(task, Step("type", field, "ann", url=LOGIN_HOME), agent)  # the username, not it
