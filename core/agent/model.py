"""The web-agent benchmark's data model: tasks, model calls, trajectories, observations, and the `Browser` the
agent loop drives. A trajectory's steps and their grammar are in `actions`, targets and matching in `targets`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..command_hints import hint_path
from ..errors import AgentError, system_words
from ..file_kinds import read_regular_file, unreadable_kind
from ..wording import json_problem
from .actions import Step
from .answers import is_correct
from .targets import Target

ANSWER_KINDS = ("text", "number", "title", "name", "date")


@dataclass(frozen=True)
class Task:
    """One benchmark task: an instruction with one exact answer, compared after the named normalisation rules."""

    id: str
    instruction: str
    answer: str
    category: str = ""
    answer_kind: str = "text"
    normalise: tuple[str, ...] = ("case", "whitespace")
    start_url: str = ""
    site: str = ""  # the snapshot site's name (or folder)

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "category": self.category, "instruction": self.instruction, "answer": self.answer,
                "answer_kind": self.answer_kind, "normalise": list(self.normalise), "start_url": self.start_url,
                "site": self.site}

    def accepts(self, answer: str | None) -> bool:
        """Whether `answer` equals the gold answer under this task's normalisation (`answers.is_correct`)."""
        return is_correct(self, answer)


@dataclass(frozen=True)
class ModelCall:
    """One raw call to the model, kept whole so a run can be audited and re-scored without calling again."""

    position: int                # the step it produced (1-based)
    prompt: str
    answer: str | None           # the raw text; None when the call itself failed
    usage: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    error: str | None = None
    system: str | None = None
    images: int = 0              # how many images went with the prompt

    def as_dict(self) -> dict[str, Any]:
        return {"position": self.position, "prompt": self.prompt, "answer": self.answer, "usage": self.usage,
                "seconds": self.seconds, "error": self.error, "system": self.system, "images": self.images}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ModelCall:
        return cls(position=int(data["position"]), prompt=str(data.get("prompt") or ""), answer=data.get("answer"),
                   usage=dict(data.get("usage") or {}), seconds=float(data.get("seconds") or 0.0),
                   error=data.get("error"), system=data.get("system"), images=int(data.get("images") or 0))


@dataclass
class Trajectory:
    """A task's steps by one actor: a person's reference (`run` None) or one run of an agent."""

    task_id: str
    actor: str                        # "person:ana", "agent:gemini-2.5-pro/window:3"
    steps: list[Step] = field(default_factory=list)
    answer: str | None = None
    success: bool | None = None       # exact match after normalisation; None until judged
    run: int | None = None            # 0-based run index for agents
    stop: str | None = None           # why the episode ended: answer, budget, malformed, error
    calls: list[ModelCall] = field(default_factory=list)
    # When the episode began, ISO: an agent's before it opened its start page, a person's when ● Record was pressed.
    # None: not known (a file written before it was kept, a hand-written one): `began` reads it off the first step.
    started_at: str | None = None
    # The PNGs the steps' screenshot hashes name, kept here until the trajectory is stored (never in its JSON).
    screenshots: dict[str, bytes] = field(default_factory=dict, repr=False, compare=False)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task": self.task_id, "actor": self.actor, "answer": self.answer,
                               "success": self.success, "run": self.run, "stop": self.stop,
                               "steps": [s.as_dict() for s in self.steps]}
        if self.started_at:
            out["started_at"] = self.started_at
        if self.calls:
            out["calls"] = [c.as_dict() for c in self.calls]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Trajectory:
        if "task" not in data or not isinstance(data.get("steps"), list):
            raise AgentError("a trajectory needs a 'task' id and a list of 'steps'")
        steps = [Step.from_dict(s) for s in data["steps"]]
        answer = data.get("answer")
        if answer is None and steps and steps[-1].action == "answer":
            answer = steps[-1].value
        return cls(task_id=str(data["task"]), actor=str(data.get("actor") or "person"), steps=steps,
                   answer=answer, success=data.get("success"), run=data.get("run"), stop=data.get("stop"),
                   calls=[ModelCall.from_dict(c) for c in data.get("calls") or []],
                   started_at=str(data["started_at"]) if data.get("started_at") else None)

    def began(self) -> str | None:
        """When the episode began: `started_at`, else (not kept: a file written before it was) its first timed step's
        `at` less the seconds that step took, else that `at` as it is; None when no step says its time."""
        if self.started_at:
            return self.started_at
        first = next((step for step in self.steps if step.at), None)
        if first is None or not first.seconds:
            return None if first is None else first.at
        return _moment_before(first.at or "", first.seconds)

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), ensure_ascii=False, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str, *, source: str = "the trajectory") -> Trajectory:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise AgentError(f"{source} is not valid JSON: {json_problem(error)}") from None
        if not isinstance(data, dict):
            raise AgentError(f"{source} must be a JSON object with 'task' and 'steps'")
        try:
            return cls.from_dict(data)
        except (AgentError, KeyError, TypeError, ValueError) as error:
            raise AgentError(f"{source}: {error}") from None


def _moment_before(at: str, seconds: float) -> str:
    """The moment `seconds` before `at`, in its form (its zone, a Z kept); `at` itself when it is no ISO moment."""
    try:
        moment = datetime.fromisoformat(at) - timedelta(seconds=seconds)
    except ValueError:
        return at
    earlier = moment.isoformat(timespec="milliseconds")
    return earlier.replace("+00:00", "Z") if at.endswith("Z") else earlier


MAX_PAGE_TEXT = 6000  # characters of page text in a prompt, when the browser gives any
TEXT_PER_SCREEN = 6000  # how far one screen height scrolled moves the page text on, where no layout says


@dataclass(frozen=True)
class Observation:
    """What the agent sees before a step: the screenshot with numbered boxes, and the numbered elements."""

    url: str
    title: str = ""
    screenshot: bytes | None = None   # PNG, the set-of-mark boxes drawn on it
    elements: tuple[Target, ...] = ()
    scroll: tuple[float, float] | None = None         # the viewport's top-left in page pixels; None: not reported
    viewport: tuple[float, float] | None = None       # width, height in CSS pixels
    text: str = ""    # the page's visible text, optional: it lets a text-only run read what the screenshot shows
    page_height: float | None = None  # the whole page's height in CSS pixels, when the browser knows it
    # When the elements are those in view only (the Qt browser's set-of-mark), how many more lie above and below
    # the view, numbered once scrolled into it; None: the elements are the whole page's (the text browser).
    elements_out_of_view: tuple[int, int] | None = None

    def element(self, label: int) -> Target | None:
        return next((e for e in self.elements if e.label == label), None)

    def moved_since(self, before: Observation) -> bool | None:
        """Whether the page moved or changed between `before` and this observation (a Scroll did something): its
        URL, where it is scrolled to, or a page that grew in place (a scroll at its end loaded more: a taller
        page, more text). None when the browser does not report where it is scrolled to: nobody can tell."""
        if self.scroll is None or before.scroll is None:
            return None
        return (self.url, self.scroll, self.page_height, self.text) != (before.url, before.scroll, before.page_height,
                                                                        before.text)


@runtime_checkable
class Browser(Protocol):
    """What the agent loop and replay drive: the app's QtWebEngine browser, or a Qt-free one in tests.

    `perform` receives a step whose target (if any) is one of the latest observation's elements: callers
    resolve recorded or model-given targets with `find_target` first. It raises `TargetNotFoundError` when the
    element is gone. Navigation never leaves the snapshot site: a link to an unsaved page shows a "not in this
    snapshot" page at that URL.

    Beyond the protocol, a browser may say `is_password_field(target) -> bool` of an element of its latest
    observation (both browsers do): the agent loop asks it before a Type, and keeps what was typed into a password
    field masked (actions.masked_password). A browser without it (a test's) has nothing masked."""

    @property
    def url(self) -> str: ...

    def open(self, url: str) -> None:
        """Load a page of the site (an episode's start URL)."""

    def observe(self) -> Observation: ...

    def perform(self, step: Step) -> None:
        """Carry out click, type, scroll, wait and go_back (answer does nothing on the page)."""

    def go_back(self) -> None: ...


def read_references(folder: Path) -> dict[str, Trajectory]:
    """The reference trajectories of a folder of `TASK.json` files, by task id."""
    return {task_id: trajectory for task_id, (_, trajectory) in reference_files(folder).items()}


def reference_files(folder: Path) -> dict[str, tuple[Path, Trajectory]]:
    """As read_references, with the file each came from (a message about one names its file)."""
    if not folder.is_dir():
        raise AgentError(f"no references folder at {hint_path(folder)}")
    references = {}
    for path in sorted(folder.glob("*.json")):
        trajectory = Trajectory.from_json(_reference_text(path), source=hint_path(path))
        references[trajectory.task_id] = (path, trajectory)
    return references


def _reference_text(path: Path) -> str:
    """A reference file's text, through the guarded reader: a FIFO named TASK.json is not waited on, a folder is
    said as one, and a file of an open project's database (a hard link) is not opened."""
    try:
        return read_regular_file(path).decode("utf-8")
    except OSError as error:
        said = unreadable_kind(path, error, "reference trajectory file") or system_words(error)
    except UnicodeDecodeError as error:
        said = system_words(error)
    raise AgentError(f"cannot read the reference trajectory {hint_path(path)}: {said}")
