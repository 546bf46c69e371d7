"""`agent tasks --check` named a repeated id only on a line that was otherwise valid, so a file took two passes:
line 2 repeating `lookup-1` with answer_kind `money` was said to have the bad kind alone. Every problem of every bad
line is now said in one pass: a repeated id with the line's other problems, and an id taken by a bad line is taken
(fixing that line's other problems makes no new duplicate)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.agent.tasks import TaskFileError, parse_tasks
from recordlens.core.cli.command import main


def line(**overrides: object) -> str:
    data = {"id": "lookup-1", "category": "lookup", "instruction": "What is the price of the Alder Kettle?",
            "answer": "$24.50", "answer_kind": "number", "normalise": ["numbers"]}
    data.update(overrides)
    return json.dumps(data)


def test_a_repeated_id_is_named_with_the_lines_other_problems(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tasks.jsonl"
    path.write_text(line() + "\n" + line(answer_kind="money") + "\n", encoding="utf-8")
    assert main(["agent", "tasks", "--check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "has 1 bad line(s)" in err
    assert ("line 2: 'answer_kind' 'money' is not one of text, number, title, name, date; task id 'lookup-1' was "
            "already used on line 1") in err


def test_an_id_on_a_bad_line_is_taken_for_the_lines_after_it() -> None:
    text = "\n".join([line(answer=""), line(id="other"), line()])
    with pytest.raises(TaskFileError) as error:
        parse_tasks(text)
    said = str(error.value)
    assert "has 2 bad line(s)" in said
    assert "line 1: 'answer' is empty" in said
    assert "line 3: task id 'lookup-1' was already used on line 1" in said


def test_a_line_with_no_readable_id_is_said_once() -> None:
    with pytest.raises(TaskFileError) as error:
        parse_tasks("\n".join([line(), line(id=""), "not json"]))
    said = str(error.value)
    assert "line 2: 'id' must be a non-empty string" in said and "already used" not in said
    assert "line 3: not valid JSON" in said
