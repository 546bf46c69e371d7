"""A person's Type committed by leaving the field (`submit: false`) showed in the recording panel and the viewer as
`Type [1]; alice (no Enter)`, but its trajectory's JSON said `"command": "Type [1]; alice"`, the grammar's Type,
which presses Enter. The JSON's `command` now says it as the panel does (`said_action`). A model may say it too
(tests/core/test_agent_types_without_enter.py): one grammar, read by one parser."""

from __future__ import annotations

import json

from recordlens.core.agent.actions import Step, format_action, parse_action, said_action
from recordlens.core.agent.model import Trajectory
from recordlens.core.agent.targets import Target

LEFT = Step(action="type", target=Target(label=1, xpath="/html/body/input[1]"), value="alice", url="http://x/",
            submit=False)
ENTERED = Step(action="type", target=Target(label=2, xpath="/html/body/input[2]"), value="bob", url="http://x/")


def test_a_type_left_without_enter_round_trips_through_its_json_saying_so() -> None:
    trajectory = Trajectory(task_id="t1", actor="person:test", steps=[LEFT, ENTERED])
    saved = json.loads(trajectory.to_json())
    assert [step["command"] for step in saved["steps"]] == ["Type [1]; alice (no Enter)", "Type [2]; bob"]
    back = Trajectory.from_json(trajectory.to_json())
    assert back.steps == [LEFT, ENTERED]
    assert [said_action(step) for step in back.steps] == ["Type [1]; alice (no Enter)", "Type [2]; bob"]


def test_an_older_json_without_the_words_reads_as_before() -> None:
    older = {"task": "t1", "steps": [{"action": "type", "command": "Type [1]; alice", "value": "alice",
                                      "target": {"label": 1, "xpath": "/html/body/input[1]"}, "url": "http://x/",
                                      "submit": False}]}
    assert Trajectory.from_dict(older).steps == [LEFT]


def test_a_hand_written_command_saying_no_enter_types_the_text_without_enter() -> None:
    step = Step.from_dict({"command": "Type [1]; alice (no Enter)"})
    assert (step.value, step.submit) == ("alice", False)
    empty = Step.from_dict({"command": said_action(Step(action="type", target=Target(label=1), value="",
                                                        submit=False))})
    assert (empty.value, empty.submit) == ("", False)


def test_a_model_says_no_enter_as_a_person_does() -> None:
    assert format_action(LEFT) == "Type [1]; alice"  # the action alone; said_action says the whole step
    answered = parse_action("Type [1]; alice (no Enter)")  # a model's answer, read as the hand-written command
    assert (answered.value, answered.submit) == ("alice", False)
    assert said_action(answered) == "Type [1]; alice (no Enter)"
