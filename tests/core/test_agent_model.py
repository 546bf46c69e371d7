"""The agent's data model: the action grammar (round trip, tolerant reading, clear errors), JSON forms of steps
and trajectories, and the identity order that finds a target again after drift."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recordlens.core.agent.actions import ActionParseError, Step, format_action, parse_action
from recordlens.core.agent.model import Trajectory
from recordlens.core.agent.targets import Target, find_target, targets_match

VALUE = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40).filter(
    lambda t: t.strip() and not (len(t.strip()) >= 2 and t.strip()[0] == t.strip()[-1] and t.strip()[0] in "\"'"))
LABEL = st.integers(min_value=0, max_value=10_000)
STEPS = st.one_of(
    st.builds(lambda n: Step("click", Target(label=n)), LABEL),
    st.builds(lambda n, v: Step("type", Target(label=n), " ".join(v.split())), LABEL, VALUE),
    st.builds(lambda d: Step("scroll", None, d), st.sampled_from(["up", "down"])),
    st.builds(lambda n, d: Step("scroll", Target(label=n), d), LABEL, st.sampled_from(["up", "down"])),
    st.just(Step("wait")),
    st.just(Step("go_back")),
    st.builds(lambda v: Step("answer", None, " ".join(v.split())), VALUE),
)


@settings(derandomize=True, max_examples=300)
@given(STEPS)
def test_every_action_reads_back_as_itself(step: Step) -> None:
    parsed = parse_action(format_action(step))
    assert (parsed.action, parsed.target, parsed.value) == (step.action, step.target, step.value)


@settings(derandomize=True, max_examples=300)
@given(st.text(max_size=200))
def test_any_text_gives_a_step_or_an_action_parse_error(text: str) -> None:
    try:
        step = parse_action(text)
    except ActionParseError as error:
        assert str(error)
    else:
        assert step.action in ("click", "type", "scroll", "wait", "go_back", "answer")


@pytest.mark.parametrize(("text", "command", "thought"), [
    ("Click [3]", "Click [3]", None),
    ("click[ 3 ]", "Click [3]", None),
    ("CLICK 3", "Click [3]", None),
    ("```\nType [5]; deep learning\n```", "Type [5]; deep learning", None),
    ('Type [5]; "graph"', "Type [5]; graph", None),
    ("Thought: the list is here. Action: Click [12]", "Click [12]", "the list is here."),
    ("Thought: scroll on\nAction:\nScroll [WINDOW]; Down", "Scroll [WINDOW]; down", "scroll on"),
    ("I read the abstract.\nANSWER; 91.4%", "ANSWER; 91.4%", None),
    ("Answer: Ilse Marrow", "ANSWER; Ilse Marrow", None),
    ('{"thought": "back", "action": "GoBack"}', "GoBack", "back"),
    ("go back", "GoBack", None),
    ("Go_Back.", "GoBack", None),
    ("Wait.", "Wait", None),
    ("- `Click [7]`", "Click [7]", None),
    ("1. Scroll [4]; up", "Scroll [4]; up", None),
    ("Click [2] is wrong.\nThought: no\nAction: Click [9]", "Click [9]", "no"),
])
def test_tolerant_reading(text: str, command: str, thought: str | None) -> None:
    step = parse_action(text)
    assert format_action(step) == command
    assert step.thought == thought
    assert step.raw == text


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty"),
    ("   \n ", "empty"),
    ("I am not sure what to do.", "no action"),
    ("Click [abc]", "malformed click"),
    ("Click", "malformed click"),
    ("Type [3]", "malformed type"),
    ("Type [3];", "no text"),
    ("ANSWER;", "no text"),
    ("Scroll [WINDOW]; left", "malformed scroll"),
    ("Action: Hover [3]", "not an action"),
    ("Wait for it to load", "malformed wait"),
])
def test_malformed_actions_raise_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(ActionParseError, match=message):
        parse_action(text)


def test_format_shows_unlabelled_targets_and_one_line_values() -> None:
    assert format_action(Step("click", Target(xpath="/body[1]/a[1]"))) == "Click [?]"
    assert format_action(Step("answer", None, "two\nlines")) == "ANSWER; two lines"
    assert format_action(Step("scroll")) == "Scroll [WINDOW]; down"


LINK = Target(label=4, xpath="/body[1]/a[2]", text="Machine Learning", role="link", name="Machine Learning",
              bbox=(10, 20, 100, 18))
PAGE = (
    Target(label=1, xpath="/body[1]/a[1]", text="Home", role="link", name="Home", bbox=(10, 0, 50, 18)),
    LINK,
    Target(label=5, xpath="/body[1]/a[3]", text="Machine Learning", role="link", name="ML listing",
           bbox=(10, 200, 100, 18)),
)


def test_find_target_prefers_xpath_then_role_and_name_then_text_then_box() -> None:
    assert find_target(LINK, PAGE) is LINK
    drifted = Target(label=9, xpath="/body[1]/div[1]/a[2]", text="Machine Learning", role="link",
                     name="ML listing")
    assert find_target(drifted, PAGE) is PAGE[2]  # role and name single it out although the label moved
    by_text = Target(text="  home ")
    assert find_target(by_text, PAGE) is PAGE[0]
    # Two elements share the text: the box decides among them.
    assert find_target(Target(text="Machine Learning", bbox=(12, 198, 100, 18)), PAGE) is PAGE[2]
    assert find_target(Target(bbox=(11, 1, 50, 18)), PAGE) is PAGE[0]


def test_a_label_alone_finds_its_element_but_never_overrides_other_identities() -> None:
    assert find_target(Target(label=5), PAGE) is PAGE[2]
    assert find_target(Target(label=7), PAGE) is None
    gone = Target(label=1, xpath="/body[1]/nav[1]/a[9]", text="Gone")
    assert find_target(gone, PAGE) is None


def test_targets_match_by_identity() -> None:
    assert targets_match(None, None)
    assert not targets_match(LINK, None)
    assert targets_match(LINK, Target(label=8, xpath="/body[1]/a[2]"))
    assert not targets_match(Target(label=4, xpath="/body[1]/a[9]", text="Other"), LINK)


def test_steps_and_trajectories_survive_json() -> None:
    steps = [Step("type", LINK, "graph", "https://a.org/", "h1", "h2", "why", 1.5, "Type [4]; graph"),
             Step("", None, None, "https://a.org/", raw="??", error="no action"),
             Step("answer", None, "42", "https://a.org/x")]
    trajectory = Trajectory("t1", "agent:m", steps, answer="42", success=True, run=1, stop="answer")
    back = Trajectory.from_json(trajectory.to_json())
    assert back.steps == steps and (back.answer, back.success, back.run, back.stop) == ("42", True, 1, "answer")
    written = Trajectory.from_dict({"task": "t2", "steps": [
        {"command": "Click [3]", "target": {"xpath": "/body[1]/a[1]", "text": "Go"}, "url": "u"},
        {"command": "ANSWER; yes"}]})
    assert written.steps[0].target == Target(label=3, xpath="/body[1]/a[1]", text="Go")
    assert written.answer == "yes"
