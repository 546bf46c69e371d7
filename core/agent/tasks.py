"""Benchmark tasks: the JSONL file format (read with line-numbered errors, written atomically). The answer
normalisation that exact match is judged after is `answers`; RULES_TEXT says its rules in prose."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .. import atomic
from ..command_hints import hint_path
from ..errors import AgentError, system_words
from ..file_kinds import link_to_nothing, read_regular_file, unreadable_kind
from .answers import NORMALISE_RULES
from .model import ANSWER_KINDS, Task

REQUIRED_KEYS = ("id", "category", "instruction", "answer", "answer_kind", "normalise")
OPTIONAL_KEYS = ("start_url", "site")
MAX_REPORTED_PROBLEMS = 10

# Published verbatim in the README ("Answer normalisation"): keep the two in step.
RULES_TEXT = """\
An answer is correct when it equals the gold answer after both went through the task's `normalise` rules.
Whatever the rules, both are first put in Unicode NFKC form and trimmed. The rules then apply in this fixed
order, whatever order the task lists them in:

1. `numbers`: the digits of every script are ASCII digits (`١٢٠٠`, `۱۲۰۰`, `१२००` and `๑๒๐๐` = `1200`), and the
   Arabic decimal and thousands separators between digits are `.` and `,` (`١٫٥` = `1.5`, `١٬٠٢٤` = `1024`);
   number words from zero to ninety-nine become digits (`twelve` = `12`, `Twenty-one` = `21`);
   thousands separators go (`1,024` = `1024`); a decimal loses its trailing zeros (`3.50` = `3.5`, `3.0` = `3`),
   except one that may be a thousands separator (`1.000` stays: it is one thousand where `.` groups thousands);
   a decimal point with no digit before it gets a 0 (`.5` = `0.5`), and a minus sign is `-` (`−3` = `-3`), as
   is a dash that begins a number (`–3` = `-3`; `10–12` is a range, its dash no sign).
   A decimal comma is left as written (`2,50` is not `2.50`): no rule makes two different numbers equal.
2. `units`: the space between a number and its unit goes (`5 km` = `5km`, `40 %` = `40%`), and spelled-out
   units after a number become their symbols (`5 kilometres` = `5km`, `40 percent` = `40%`); known units:
   %, km, m, cm, mm, kg, g, s, min, h, MB, GB.
3. `punctuation`: apostrophes are removed (`don't` = `dont`); every other punctuation character (Unicode's
   category P: in ASCII `! " # & ( ) * , - . / : ; ? @ [ \\ ] _ { }`) becomes a space (`state-of-the-art` =
   `state of the art`), except `%`, `.` or `,` between two digits (`3.5` stays, as do the Arabic `١٫٥` and
   `١٬٠٢٤`), and a sign or a decimal point that begins a number (`-3`, `.5` and `-.5` stay; `-3` is not `3`), a
   minus sign or a dash there written `-` (`–3` = `-3`). Symbols are not punctuation and stay: `+ $ | ~ ^ = < >`
   and the backtick (`C++`, `$5`).
4. `whitespace`: runs of spaces, tabs and newlines become one space.
5. `case`: letters are case-folded (`Transformer` = `transformer`, `Straße` = `STRASSE`); last, so that it
   also folds the symbols `units` wrote (with both, `50 megabytes` = `50 mb` = `50 MB`).

With no rules, the trimmed answers must be identical.
"""


class TaskFileError(AgentError):
    """A tasks file that cannot be read as tasks; the message names every bad line (up to ten)."""


# ---------------------------------------------------------------------------------------------------------------
# The file format


def load_tasks(path: str | Path, *, strict: bool = False) -> list[Task]:
    """Read a tasks JSONL file: one JSON object per line, blank lines ignored. Every problem is reported with its
    line number, all at once, so a person can fix the file in one go. `strict` (`agent tasks --check`): what a
    run reads leniently is a mistake too (`strict_problems`)."""
    source = Path(path)
    try:
        # through the guarded reader: a FIFO is not waited on, a file of the open project's database not opened
        text = read_regular_file(source).decode("utf-8-sig")  # a byte order mark (Windows editors) is no task
    except OSError as error:
        if isinstance(error, FileNotFoundError) and link_to_nothing(source) is None:
            raise TaskFileError(f"no tasks file at {hint_path(source)}") from None
        said = unreadable_kind(source, error, "tasks file") or system_words(error)
        raise TaskFileError(f"cannot read the tasks file {hint_path(source)}: {said}") from None
    except UnicodeDecodeError as error:
        raise TaskFileError(f"cannot read the tasks file {hint_path(source)}: {system_words(error)}") from None
    return parse_tasks(text, source=hint_path(source), strict=strict)


def parse_tasks(text: str, *, source: str = "the tasks file", strict: bool = False) -> list[Task]:
    """The tasks of a tasks file's `text`; a TaskFileError naming it by `source` (words, or its path as a hint
    names it) with every bad line when there is one."""
    tasks: list[Task] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        said: list[str] = []  # this line's problems, all of them: its own and a repeated id
        task = None
        try:
            task = task_from_line(line, strict=strict)
        except TaskFileError as error:
            said.append(str(error))
        ident = task.id if task is not None else _readable_id(line)
        if ident is not None and ident in seen:
            said.append(f"task id {ident!r} was already used on line {seen[ident]}")
        elif ident is not None:  # a bad line's id is taken too: fixing its other problems makes no duplicate
            seen[ident] = number
        if task is None or said:
            problems.append(f"line {number}: " + "; ".join(said))
            continue
        tasks.append(task)
    if problems:
        shown = problems[:MAX_REPORTED_PROBLEMS]
        more = len(problems) - len(shown)
        tail = f"\n  ... and {more} more" if more else ""
        raise TaskFileError(f"{source} has {len(problems)} bad line(s):\n  " + "\n  ".join(shown) + tail)
    if not tasks:
        raise TaskFileError(f"{source} holds no tasks")
    return tasks


def _readable_id(line: str) -> str | None:
    """The id a bad line gives, when it gives a good one, so that a repeated id is said with its other problems."""
    try:
        data = json.loads(line)
        return _id_of(data["id"]) if isinstance(data, dict) and "id" in data else None
    except (json.JSONDecodeError, TaskFileError):
        return None


# How each key is read and checked; a required key is checked when present (its absence is said once, as
# missing), an optional one always (it has a default).
_READERS: dict[str, Callable[[dict], object]] = {
    "id": lambda data: _id_of(data["id"]),
    "category": lambda data: _text(data, "category", empty=True),
    "instruction": lambda data: _text(data, "instruction"),
    "answer": lambda data: _answer_of(data["answer"]),
    "answer_kind": lambda data: _kind_of(data["answer_kind"]),
    "normalise": lambda data: _rules_of(data["normalise"]),
    "start_url": lambda data: _start_url_of(data),
    "site": lambda data: _text(data, "site", empty=True),
}


def task_from_line(line: str, *, strict: bool = False) -> Task:
    """The task a line holds; a bad line's error names all its problems (missing and unknown keys, and every bad
    value), so that a file is fixed in one pass, not one kind of error per try. `strict`: `strict_problems` are
    problems too."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise TaskFileError(f"not valid JSON ({error.msg} at column {error.colno})") from None
    if not isinstance(data, dict):
        raise TaskFileError("expected a JSON object with keys " + ", ".join(REQUIRED_KEYS))
    problems = []
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        problems.append("missing key(s) " + ", ".join(missing))
    unknown = sorted(set(data) - set(REQUIRED_KEYS) - set(OPTIONAL_KEYS))
    if unknown:
        problems.append(f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(REQUIRED_KEYS + OPTIONAL_KEYS)}")
    values: dict[str, Any] = {}
    for key, read in _READERS.items():
        if key in data or key in OPTIONAL_KEYS:
            try:
                values[key] = read(data)
            except TaskFileError as error:
                problems.append(str(error))
    if strict:
        problems.extend(strict_problems(data))
    if problems:
        raise TaskFileError("; ".join(problems))
    return Task(**values)


def strict_problems(data: dict) -> list[str]:
    """What a run reads leniently but a checked file should not hold: an empty category (the report and the task
    generation group tasks by it), an answer that is not a string (read as its digits, which may not be the
    digits meant: 1.50 is read as 1.5) and a normalisation rule named twice (a typo, or a rule meant but not
    written)."""
    problems = []
    category = data.get("category")
    if "category" in data and (category is None or (isinstance(category, str) and not category.strip())):
        problems.append("'category' is empty: every task needs one (reports and generation group by it)")
    answer = data.get("answer")
    if isinstance(answer, int | float) and not isinstance(answer, bool):
        problems.append(f"'answer' {answer!r} is a number: write it as a string ({json.dumps(str(answer))})")
    rules = data.get("normalise")
    if isinstance(rules, list):
        counts = {rule: rules.count(rule) for rule in dict.fromkeys(rules) if isinstance(rule, str)}
        problems.extend(f"'normalise' names {rule!r} {'twice' if n == 2 else f'{n} times'}"
                        for rule, n in counts.items() if n > 1)
    return problems


def _start_url_of(data: dict) -> str:
    url = _text(data, "start_url", empty=True)
    # file: too: a site may hold pages saved from files, and its tasks (generated ones too) start there
    if url and urlsplit(url).scheme.lower() not in ("http", "https", "file"):
        raise TaskFileError(f"'start_url' {url!r} is not an http://, https:// or file: address (a page of the site)")
    return url


def task_line(task: Task) -> str:
    return json.dumps(task.as_dict(), ensure_ascii=False)


def save_tasks(path: str | Path, tasks: Sequence[Task]) -> Path:
    """Write the tasks as JSONL, atomically (a crash leaves the old file, never half a new one)."""
    ids = [t.id for t in tasks]
    duplicated = sorted({i for i in ids if ids.count(i) > 1})
    if duplicated:
        raise TaskFileError(f"task id(s) used twice: {', '.join(duplicated)}")
    for task in tasks:
        task_from_line(task_line(task))  # the same validation as reading, so what we write reads back
    target = Path(path)
    return atomic.write_text(target, "".join(task_line(t) + "\n" for t in tasks))


def _id_of(value: object) -> str:
    # JSON numbers are accepted as ids ("id": 7), but bools are not numbers here.
    if isinstance(value, bool) or not isinstance(value, str | int) or not str(value).strip():
        raise TaskFileError("'id' must be a non-empty string")
    text = str(value).strip()
    # A task's reference trajectory and results are files named by its id: an id must stay one file name.
    if any(c in text for c in "/\\\0") or text in (".", ".."):
        raise TaskFileError(f"'id' {text!r} cannot be a file name (no /, \\ or NUL, not . or ..)")
    return text


def _text(data: dict, key: str, *, empty: bool = False) -> str:
    value = data.get(key, "")
    if value is None and empty:
        return ""
    if not isinstance(value, str):
        raise TaskFileError(f"{key!r} must be a string")
    if not empty and not value.strip():
        raise TaskFileError(f"{key!r} is empty")
    return value.strip()


def _answer_of(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise TaskFileError("'answer' must be a string (or a number)")
    text = str(value).strip()
    if not text:
        raise TaskFileError("'answer' is empty: every task needs its one exact answer")
    return text


def _kind_of(value: object) -> str:
    if value not in ANSWER_KINDS:
        raise TaskFileError(f"'answer_kind' {value!r} is not one of {', '.join(ANSWER_KINDS)}")
    return str(value)


def _rules_of(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TaskFileError(f"'normalise' must be a list of rule names from {', '.join(NORMALISE_RULES)}")
    unknown = [v for v in value if v not in NORMALISE_RULES]
    if unknown:
        raise TaskFileError(f"unknown normalisation rule(s) {', '.join(map(repr, unknown))}; "
                            f"known: {', '.join(NORMALISE_RULES)}")
    return tuple(dict.fromkeys(value))


# ---------------------------------------------------------------------------------------------------------------
def task_digest(task: Task) -> str:
    """What a task says, as a short hash: its instruction, gold answer, rules, category, answer kind and start URL
    (not its id or site). An agent run records each task's, so that a task changed later is told apart."""
    content = {k: v for k, v in task.as_dict().items() if k not in ("id", "site")}
    return hashlib.sha256(json.dumps(content, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()[:16]


def same_version(recorded: str | None, task: Task) -> bool:
    """Whether a trajectory stored for the task whose `task_digest` was `recorded` is one of `task` as it is now. Not
    known (None: stored before versions were kept, or read from a references file) counts, as it always did."""
    return recorded is None or recorded == task_digest(task)
