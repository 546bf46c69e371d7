"""Task files (validation with line numbers, atomic round trip) and the published answer normalisation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.agent.answers import NORMALISE_RULES, is_correct, normalise_answer
from recordlens.core.agent.model import Task
from recordlens.core.agent.tasks import (
    RULES_TEXT,
    TaskFileError,
    load_tasks,
    save_tasks,
)
from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path

ALL = NORMALISE_RULES


@pytest.mark.parametrize(("a", "b", "rules", "equal"), [
    ("Ilse Marrow", "ilse marrow", ["case"], True),
    ("Ilse Marrow", "ilse marrow", [], False),
    ("  Ilse   Marrow\n", "Ilse Marrow", ["whitespace"], True),
    (" Ilse Marrow ", "Ilse Marrow", [], True),  # trimmed whatever the rules
    ("Smith, J.", "Smith J", ["punctuation", "whitespace"], True),
    ("state-of-the-art", "state of the art", ["punctuation", "whitespace"], True),
    ("don't", "dont", ["punctuation"], True),
    ("1,024", "1024", ["numbers"], True),
    ("1,024", "1024", [], False),
    ("3.0", "3", ["numbers"], True),
    ("3.50", "3.5", ["numbers"], True),
    ("1,024.50", "1024.5", ["numbers"], True),
    ("twelve", "12", ["numbers"], True),
    ("Twenty-one", "21", ["case", "numbers"], True),
    ("12,34", "1234", ["numbers"], False),  # not thousands groups: left alone
    ("3.5", "35", ALL, False),               # a decimal point survives punctuation
    ("5 km", "5km", ["units"], True),
    ("5 kilometres", "5km", ["units"], True),
    ("40 percent", "40%", ["units"], True),
    ("40 %", "40%", ["units"], True),
    ("40%", "40", ALL, False),               # % is kept
    ("50 MB", "50mb", ["case", "units"], True),
    ("2401.00012", "2401.00012", ALL, True),
    ("Straße", "STRASSE", ["case"], True),
    ("ＡＢＣ１", "ABC1", [], True),            # NFKC whatever the rules
    ("91.4 percent", "91.4%", ALL, True),
    # A sign or a decimal point before a digit is part of the number: never two different numbers made equal.
    ("-3", "3", ["punctuation"], False),
    ("-3", "3", ALL, False),
    ("-3 °C", "3 °C", ALL, False),
    ("(-3)", "-3", ["punctuation", "whitespace"], True),
    ("\u22123", "-3", ["numbers"], True),          # the minus sign is a hyphen-minus
    # a dash used as a minus where it begins a number (typeset pages: an en dash), never one between two numbers
    ("\u20133 °C", "-3 °C", ALL, True),
    ("\u20133 °C", "3 °C", ALL, False),
    ("\u20133", "-3", ["punctuation"], True),
    ("(\u20133)", "-3", ["punctuation", "whitespace"], True),
    ("low \u2013.5", "low -0.5", ALL, True),
    ("\u20123", "-3", ALL, True),                  # a figure dash
    ("\ufe633", "-3", ALL, True),                  # a small and a fullwidth hyphen-minus (NFKC: -)
    ("\uff0d3", "-3", ALL, True),
    ("\u22123", "-3", ["punctuation"], True),
    ("pages 10\u201312", "pages 10 12", ALL, True),  # a range: a space, as a hyphen between two numbers
    ("pages 10\u201312", "pages 10 -12", ALL, False),
    ("x\u20133", "x -3", ALL, False),               # after a letter: a dash, no sign
    ("A\u20133", "A 3", ["punctuation"], True),
    (".5", "5", ["punctuation"], False),
    (".5", "5", ALL, False),
    (".5", "0.5", ALL, True),
    ("-.5", "-0.5", ["numbers"], True),
    ("state-of-the-art", "state of the art", ALL, True),
    ("pages 10-12", "pages 10 12", ALL, True),   # a dash between two numbers is no sign
    ("1.000", "1", ["numbers"], False),          # 1.000 may be one thousand (1.000 €): left as written
    ("1.000", "1000", ["numbers"], False),
    ("1.000", "1.000", ALL, True),
    ("1.0000", "1", ["numbers"], True),
    ("1,000.500", "1000.5", ["numbers"], True),  # a comma-grouped number: its point is a decimal point
    ("2,50", "2.50", ALL, False),                # a decimal comma is left as written
])
def test_normalisation_table(a: str, b: str, rules: list[str], equal: bool) -> None:
    assert (normalise_answer(a, rules) == normalise_answer(b, rules)) is equal


def test_rules_apply_in_the_published_order_whatever_the_task_lists() -> None:
    assert normalise_answer("Twenty Percent", ["units", "numbers", "case"]) == "20%"
    for rule in NORMALISE_RULES:
        assert f"`{rule}`" in RULES_TEXT


def test_the_readme_publishes_the_rules_text_word_for_word() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Answer normalisation"):readme.index("### Building an agent benchmark")]
    published = section.removeprefix("### Answer normalisation").strip()
    assert published.split() == RULES_TEXT.split()


def test_is_correct_needs_an_answer() -> None:
    task = Task("t", "How many?", "1,920", normalise=("numbers",))
    assert is_correct(task, "1920") and not is_correct(task, None) and not is_correct(task, "192")


def line(**overrides: object) -> str:
    data = {"id": "t1", "category": "lookup", "instruction": "Who?", "answer": "Ana", "answer_kind": "name",
            "normalise": ["case"]}
    data.update(overrides)
    return json.dumps({k: v for k, v in data.items() if v is not ...})


def test_a_bad_tasks_file_names_every_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "tasks.jsonl"
    path.write_text("\n".join([
        line(),
        "{not json",
        line(id="t2", answer=""),
        line(id="t3", normalise=["case", "stemming"]),
        line(id="t1"),
        "",
        line(id="t4", answer_kind="colour"),
        line(id="t5", instruction=...),
        line(id="t6", extra=1),
        "[1, 2]",
        line(id="a/b"),
        line(id="t7", start_url="ftp://shop.example.com/"),
    ]), encoding="utf-8")
    with pytest.raises(TaskFileError) as caught:
        load_tasks(path)
    message = str(caught.value)
    for expected in ("line 2: not valid JSON", "line 3: 'answer' is empty", "line 4: unknown normalisation rule",
                     "line 5: task id 't1' was already used on line 1", "line 7: 'answer_kind' 'colour'",
                     "line 8: missing key(s) instruction", "line 9: unknown key(s) extra", "line 10: expected",
                     "line 11: 'id' 'a/b' cannot be a file name",
                     "line 12: 'start_url' 'ftp://shop.example.com/' is not an http://, https:// or file: address"):
        assert expected in message
    assert "10 bad line(s)" in message
    with pytest.raises(TaskFileError, match="no tasks file"):
        load_tasks(tmp_path / "missing.jsonl")
    (tmp_path / "empty.jsonl").write_text("\n\n", encoding="utf-8")
    with pytest.raises(TaskFileError, match="holds no tasks"):
        load_tasks(tmp_path / "empty.jsonl")


def test_agent_tasks_check_reports_every_kind_of_problem_of_a_line_in_one_pass(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # One line with a missing key, an unknown rule and a site that is no name, another with a bad start page
    # and an unknown key: each of the five used to come out one kind per try.
    path = tmp_path / "seeds.jsonl"
    path.write_text("\n".join([
        line(answer_kind=..., normalise=["case", "stemming"], site=7),
        line(id="t2", start_url="ftp://x.org/", extra=1),
    ]) + "\n", encoding="utf-8")
    assert main(["agent", "tasks", "--check", str(path)]) == 2
    error = capsys.readouterr().err
    assert "2 bad line(s)" in error
    first = next(text for text in error.splitlines() if text.strip().startswith("line 1:"))
    assert all(problem in first for problem in ("missing key(s) answer_kind", "unknown normalisation rule(s) "
                                                "'stemming'", "'site' must be a string")), first
    second = next(text for text in error.splitlines() if text.strip().startswith("line 2:"))
    assert "unknown key(s) extra" in second and "'start_url' 'ftp://x.org/'" in second, second


def test_agent_tasks_check_reports_an_empty_category_a_number_answer_and_a_repeated_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # What a run reads leniently (30 as "30", the rule once), the check names, with its line, as a mistake.
    path = tmp_path / "seeds.jsonl"
    path.write_text("\n".join([
        line(),
        line(id="t2", category=""),
        line(id="t3", answer=30, answer_kind="number"),
        line(id="t4", normalise=["case", "whitespace", "case"]),
        line(id="t5", category="  "),
    ]) + "\n", encoding="utf-8")
    assert main(["agent", "tasks", "--check", str(path)]) == 2
    error = capsys.readouterr().err
    assert "4 bad line(s)" in error
    lines = {text.strip().split(":")[0]: text.strip() for text in error.splitlines()
             if text.strip().startswith("line ")}
    assert "'category' is empty" in lines["line 2"] and "'category' is empty" in lines["line 5"]
    assert "'answer' 30 is a number: write it as a string (\"30\")" in lines["line 3"], lines
    assert "'normalise' names 'case' twice" in lines["line 4"]
    assert len(load_tasks(path)) == 5  # reading the file for a run accepts them as before


def test_tasks_round_trip_and_numbers_are_accepted_as_ids_and_answers(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("\ufeff" + line(id=7, answer=12) + "\n", encoding="utf-8")  # a byte order mark, as some write
    [task] = load_tasks(path)
    assert (task.id, task.answer) == ("7", "12")
    save_tasks(tmp_path / "out.jsonl", [task])
    assert load_tasks(tmp_path / "out.jsonl") == [task]
    with pytest.raises(TaskFileError, match="used twice"):
        save_tasks(tmp_path / "dup.jsonl", [task, task])


def test_the_demo_tasks_are_two_of_each_kind_with_a_start_page() -> None:
    tasks = load_tasks(resource_path("agent", "demo-tasks.jsonl"))
    kinds = sorted(t.category for t in tasks)
    assert len(tasks) == 12 and all(kinds.count(k) == 2 for k in set(kinds))
    assert set(kinds) == {"lookup", "rules", "retrieval", "filtered search", "content extraction", "comparison"}
    assert all(t.start_url == "https://papers.example.org/" for t in tasks)
