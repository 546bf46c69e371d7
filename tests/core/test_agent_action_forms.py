"""The action reader's tolerant forms: each one a model commonly writes is read when which action it means is
clear, and refused (a failed step that says why) when it is not."""

from __future__ import annotations

import pytest

from recordlens.core.agent.actions import ActionParseError, format_action, parse_action


@pytest.mark.parametrize(("text", "command"), [
    # Prose before the action on the same line, ended by a colon
    ("Final answer: ANSWER; 12", "ANSWER; 12"),
    ("**Final answer:** `ANSWER; 12`", "ANSWER; 12"),
    ("Next step: Click [4]", "Click [4]"),
    ("I read the listing.\nMy action: Scroll [WINDOW]; down", "Scroll [WINDOW]; down"),
    # JSON whose "action" is a verb alone, its arguments under keys of their own
    ('{"action":"ANSWER","answer":"12"}', "ANSWER; 12"),
    ('{"action": "answer", "answer": 12}', "ANSWER; 12"),
    ('{"thought": "the link", "action": "Click", "element": 2}', "Click [2]"),
    ('{"action": "Type", "element": "[6]", "text": "graph"}', "Type [6]; graph"),
    ('{"action": "Scroll", "direction": "down"}', "Scroll [WINDOW]; down"),
    # "Click on [n]", a Type with no ';' after its bracketed number, a Scroll with no target
    ("Click on [2]", "Click [2]"),
    ("click on 2", "Click [2]"),
    ("Type [6] graph", "Type [6]; graph"),
    ('Type [6] "graph neural"', "Type [6]; graph neural"),
    ("Scroll down", "Scroll [WINDOW]; down"),
    ("scroll up.", "Scroll [WINDOW]; up"),
])
def test_a_tolerated_form_reads_as_its_action(text: str, command: str) -> None:
    step = parse_action(text)
    assert format_action(step) == command
    assert step.raw == text


@pytest.mark.parametrize(("text", "message"), [
    # A refusal in prose is no answer, with or without a colon before it
    ("I cannot answer; the page does not say.", "no action"),
    ("Note: I cannot answer; sorry.", "no action"),
    # Prose that holds an action of its own before the colon: which one is meant is not clear
    ("I will Click [5]. Final answer: ANSWER; 12", "no action"),
    ("Thought: ANSWER; 12", "no action"),  # the thought is the reasoning, not the action
    ("Final answer: 12", "no action"),  # no action after the colon
    ("Next: scroll down to see more", "no action"),  # no whole action after the colon
    # JSON whose keys give one argument two ways
    ('{"action": "ANSWER", "answer": "12", "text": "13"}', "malformed answer"),
    ('{"action": "Click"}', "malformed click"),
    # Two actions on one line; a Type whose number is not bracketed (where would the text begin?)
    ("Click [2] then Click [3]", "malformed click"),
    ("Type 6 graph", "malformed type"),
    ("Type [6]", "malformed type"),
    ("Scroll left", "malformed scroll"),
])
def test_a_form_whose_action_is_not_clear_stays_refused(text: str, message: str) -> None:
    with pytest.raises(ActionParseError, match=message):
        parse_action(text)
