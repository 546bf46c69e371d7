"""The web-agent benchmark's data model: targets, steps, tasks, trajectories, observations; the action grammar
the model speaks; the rule that finds a step's target again on a page; the `Browser` the agent loop drives.

The grammar (one action per answer, WebVoyager's set):

    Click [n]               click the element numbered n on the screenshot
    Type [n]; text          clear the field numbered n, type the text, then press Enter (which submits its form)
    Scroll [WINDOW]; down   scroll the page by most of a screen (up or down); `Scroll [n]; up` scrolls element n
    Wait                    let the page settle
    GoBack                  the browser's back button
    ANSWER; text            end the episode with this answer

Step values are single-line: newlines in typed text or answers become spaces when an action is written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

from ..errors import RecordLensError

ACTIONS = ("click", "type", "scroll", "wait", "go_back", "answer")
TARGETED_ACTIONS = ("click", "type")  # scroll may have a target (an element) or none (the window)
SCROLL_DIRECTIONS = ("up", "down")
# Normalisation rules a task may name, applied in this order (core/agent/tasks.py implements them).
NORMALISE_RULES = ("numbers", "units", "punctuation", "whitespace", "case")
ANSWER_KINDS = ("text", "number", "title", "name", "date")

BBox = tuple[float, float, float, float]  # x, y, width, height in CSS pixels of the viewport


class AgentError(RecordLensError):
    """Something about a task, a trajectory or an episode that a person can fix or should know."""


class ActionParseError(AgentError):
    """A model's answer holds no action of the grammar, or a malformed one."""


class TargetNotFoundError(AgentError):
    """A step's target is not on the current page under any of its identities."""


# ---------------------------------------------------------------------------------------------------------------
# Data


@dataclass(frozen=True)
class Target:
    """One element of a page, by every identity we know: a set-of-mark number can drift between observations,
    an XPath between versions of a page, a text between languages; together they find the element again.

    The numbered elements of an `Observation` are Targets too (with `label` set)."""

    label: int | None = None  # the number drawn on the set-of-mark screenshot
    xpath: str | None = None  # absolute, core's addressing (/body[1]/div[2]/a[1])
    text: str = ""            # visible text (for a field: its value or placeholder)
    role: str = ""            # ARIA role, explicit or implied: link, button, textbox, searchbox, combobox...
    name: str = ""            # accessible name
    bbox: BBox | None = None

    def as_dict(self) -> dict[str, Any]:
        """Only the identities that are known, so stored targets stay small and readable."""
        out: dict[str, Any] = {}
        if self.label is not None:
            out["label"] = self.label
        if self.xpath:
            out["xpath"] = self.xpath
        for key in ("text", "role", "name"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.bbox is not None:
            out["bbox"] = list(self.bbox)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Target:
        bbox = data.get("bbox")
        label = data.get("label")
        return cls(label=int(label) if label is not None else None, xpath=data.get("xpath") or None,
                   text=str(data.get("text") or ""), role=str(data.get("role") or ""),
                   name=str(data.get("name") or ""),
                   bbox=tuple(float(v) for v in bbox) if bbox else None)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Step:
    """One action of a trajectory, as a person recorded it or an agent took it.

    A failed step (a malformed answer, a target the page does not have) keeps the model's raw output and the
    error; its `action` is what could be read of it ("" when nothing could)."""

    action: str                        # one of ACTIONS, or "" for an answer that named no action
    target: Target | None = None
    value: str | None = None           # typed text, "up"/"down", or the answer
    url: str = ""                      # the page the step was taken on
    screenshot_before: str | None = None  # content hash of a stored PNG
    screenshot_after: str | None = None
    thought: str | None = None
    seconds: float | None = None       # time the step took (the model call included, for agents)
    raw: str | None = None             # the model's whole answer
    error: str | None = None           # why the step failed; None for a step that was carried out
    at: str | None = None              # ISO timestamp

    @property
    def failed(self) -> bool:
        return self.error is not None

    def as_dict(self) -> dict[str, Any]:
        """JSON form: `command` is the step in the grammar, for people; the other keys are authoritative."""
        out: dict[str, Any] = {"action": self.action}
        if self.action in ACTIONS and not self.failed:
            out["command"] = format_action(self)
        if self.target is not None:
            out["target"] = self.target.as_dict()
        for key in ("value", "url", "screenshot_before", "screenshot_after", "thought", "seconds", "raw", "error",
                    "at"):
            value = getattr(self, key)
            if value is not None and value != "":
                out[key] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Step:
        """Read `as_dict`'s form, or a hand-written one where `command` ("Click [3]") stands for action, value
        and label, and `target` adds the other identities."""
        if "action" not in data and "command" in data:
            parsed = parse_action(str(data["command"]))
            target = parsed.target
            if target is not None and data.get("target"):
                target = replace(Target.from_dict(data["target"]), label=target.label)
            base = replace(parsed, target=target, raw=None, thought=data.get("thought"))
        else:
            action = str(data.get("action") or "")
            if action and action not in ACTIONS:
                raise AgentError(f"unknown step action {action!r}; expected one of {', '.join(ACTIONS)}")
            target = Target.from_dict(data["target"]) if data.get("target") else None
            base = cls(action=action, target=target, value=data.get("value"), thought=data.get("thought"))
        seconds = data.get("seconds")
        return replace(base, url=str(data.get("url") or ""), screenshot_before=data.get("screenshot_before"),
                       screenshot_after=data.get("screenshot_after"),
                       seconds=float(seconds) if seconds is not None else None, raw=data.get("raw", base.raw),
                       error=data.get("error"), at=data.get("at"))


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
    # The PNGs the steps' screenshot hashes name, kept here until the trajectory is stored (never in its JSON).
    screenshots: dict[str, bytes] = field(default_factory=dict, repr=False, compare=False)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task": self.task_id, "actor": self.actor, "answer": self.answer,
                               "success": self.success, "run": self.run, "stop": self.stop,
                               "steps": [s.as_dict() for s in self.steps]}
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
                   calls=[ModelCall.from_dict(c) for c in data.get("calls") or []])

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), ensure_ascii=False, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str, *, source: str = "the trajectory") -> Trajectory:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise AgentError(f"{source} is not valid JSON: {error}") from None
        if not isinstance(data, dict):
            raise AgentError(f"{source} must be a JSON object with 'task' and 'steps'")
        try:
            return cls.from_dict(data)
        except (AgentError, KeyError, TypeError, ValueError) as error:
            raise AgentError(f"{source}: {error}") from None


@dataclass(frozen=True)
class Observation:
    """What the agent sees before a step: the screenshot with numbered boxes, and the numbered elements."""

    url: str
    title: str = ""
    screenshot: bytes | None = None   # PNG, the set-of-mark boxes drawn on it
    elements: tuple[Target, ...] = ()
    scroll: tuple[float, float] = (0.0, 0.0)          # the viewport's top-left in page pixels
    viewport: tuple[float, float] | None = None       # width, height in CSS pixels
    text: str = ""    # the page's visible text, optional: it lets a text-only run read what the screenshot shows

    def element(self, label: int) -> Target | None:
        return next((e for e in self.elements if e.label == label), None)


@runtime_checkable
class Browser(Protocol):
    """What the agent loop and replay drive: the app's QtWebEngine browser, or a Qt-free one in tests.

    `perform` receives a step whose target (if any) is one of the latest observation's elements: callers
    resolve recorded or model-given targets with `find_target` first. It raises `TargetNotFoundError` when the
    element is gone. Navigation never leaves the snapshot site: a link to an unsaved page shows a "not in this
    snapshot" page at that URL."""

    @property
    def url(self) -> str: ...

    def open(self, url: str) -> None:
        """Load a page of the site (an episode's start URL)."""

    def observe(self) -> Observation: ...

    def perform(self, step: Step) -> None:
        """Carry out click, type, scroll, wait and go_back (answer does nothing on the page)."""

    def go_back(self) -> None: ...


# ---------------------------------------------------------------------------------------------------------------
# The grammar


def format_action(step: Step) -> str:
    """The step in the model's grammar: "Click [3]", "Type [5]; text", "Scroll [WINDOW]; down", "Wait",
    "GoBack", "ANSWER; text". A target without a label (recorded outside every numbered box) shows as [?]."""
    action = step.action
    if action == "click":
        return f"Click [{_label_text(step.target)}]"
    if action == "type":
        return f"Type [{_label_text(step.target)}]; {_one_line(step.value)}"
    if action == "scroll":
        where = "WINDOW" if step.target is None else _label_text(step.target)
        return f"Scroll [{where}]; {step.value or 'down'}"
    if action == "wait":
        return "Wait"
    if action == "go_back":
        return "GoBack"
    if action == "answer":
        return f"ANSWER; {_one_line(step.value)}"
    raise AgentError(f"unknown step action {action!r}; expected one of {', '.join(ACTIONS)}")


def _label_text(target: Target | None) -> str:
    return "?" if target is None or target.label is None else str(target.label)


def _one_line(value: str | None) -> str:
    return " ".join((value or "").split())


GRAMMAR_HELP = "Click [n], Type [n]; text, Scroll [WINDOW]; up|down, Wait, GoBack, ANSWER; text"

_FENCE = re.compile(r"```[a-zA-Z0-9_-]*[ \t]*\n?(.*?)```", re.DOTALL)
_ACTION_MARK = re.compile(r"(?i)\baction\s*[:：]")
_THOUGHT = re.compile(r"(?is)\bthought\s*[:：]\s*(.*?)(?=\baction\s*[:：]|\Z)")
_LEAD = re.compile(r"^[\s>*#_`'\"\-•.\d)]*?(?=[A-Za-z])")  # bullets, quotes, "1." before an action
_VERB = re.compile(r"(?i)^(click|type|scroll|wait|go[\s_-]*back|answer)\b")

_LABEL = r"\[?\s*(\d+)\s*\]?"
_PATTERNS: dict[str, re.Pattern[str]] = {
    "click": re.compile(rf"(?i)^click\s*{_LABEL}\s*[.;]?\s*$"),
    "type": re.compile(rf"(?i)^type\s*{_LABEL}\s*[;:,]\s*(.*)$"),
    "scroll": re.compile(r"(?i)^scroll\s*\[?\s*(window|\d+)\s*\]?\s*[;:,]?\s*(up|down)\b\s*[.;]?\s*$"),
    "wait": re.compile(r"(?i)^wait\s*[.;]?\s*$"),
    "go_back": re.compile(r"(?i)^go[\s_-]*back\s*[.;]?\s*$"),
    "answer": re.compile(r"(?i)^answer\s*[;:]\s*(.*)$"),
}
_EXPECTED = {
    "click": "Click [n] with n the element's number",
    "type": "Type [n]; text",
    "scroll": "Scroll [WINDOW]; up or Scroll [WINDOW]; down",
    "wait": "Wait alone",
    "go_back": "GoBack alone",
    "answer": "ANSWER; text",
}


def parse_action(text: str) -> Step:
    """Read one action from a model's answer; raise `ActionParseError` saying what was wrong.

    Tolerated: any case and spacing, code fences, a JSON object {"thought": ..., "action": ...}, the
    "Thought: ... Action: ..." form, and prose around the action line. With an "Action:" marker the action is
    read after the last marker; without one, the last line that begins with an action verb is taken."""
    if text is None or not str(text).strip():
        raise ActionParseError("the model's answer is empty; expected one action: " + GRAMMAR_HELP)
    body = _unfenced(str(text))
    thought, candidates = _from_json(body) or _from_markers(body)
    line = _choose_line(candidates)
    if line is None:
        raise ActionParseError(f"no action in the model's answer {_excerpt(text)}; expected one of: {GRAMMAR_HELP}")
    step = _parse_line(line)
    return replace(step, thought=thought or None, raw=str(text))


def _unfenced(text: str) -> str:
    fenced = _FENCE.findall(text)
    # Keep the prose outside the fence too: the thought is often written before it.
    return text if not fenced else _FENCE.sub(lambda m: "\n" + m.group(1) + "\n", text)


def _from_json(body: str) -> tuple[str, list[str]] | None:
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        data = json.loads(body[start:end + 1])
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    lowered = {str(k).lower(): v for k, v in data.items()}
    action = lowered.get("action")
    if not isinstance(action, str):
        return None
    thought = lowered.get("thought")
    return (thought if isinstance(thought, str) else ""), [action.strip()]


def _from_markers(body: str) -> tuple[str, list[str]]:
    thought_match = _THOUGHT.search(body)
    thought = " ".join(thought_match.group(1).split()) if thought_match else ""
    marks = list(_ACTION_MARK.finditer(body))
    if marks:
        after = body[marks[-1].end():]
        lines = [ln for ln in after.splitlines() if ln.strip()]
        return thought, lines[:1]
    lines = [ln for ln in body.splitlines() if _VERB.match(_strip_lead(ln))]
    return thought, lines[-1:]


def _choose_line(candidates: Sequence[str]) -> str | None:
    if not candidates:
        return None
    raw = candidates[0].strip()
    line = _strip_lead(raw).rstrip()
    lead = raw[:len(raw) - len(_strip_lead(raw))]
    if "`" in lead:  # `Click [3]` in inline code: the closing backtick is not part of the action
        line = line.removesuffix("`").rstrip()
    return line or None


def _strip_lead(line: str) -> str:
    return _LEAD.sub("", line.strip(), count=1) if line.strip() else ""


def _parse_line(line: str) -> Step:
    verb = _VERB.match(line)
    if verb is None:
        raise ActionParseError(f"{_excerpt(line)} is not an action; expected one of: {GRAMMAR_HELP}")
    kind = re.sub(r"[\s_-]+", "", verb.group(1).lower())
    kind = "go_back" if kind == "goback" else kind
    match = _PATTERNS[kind].match(line.strip())
    if match is None:
        raise ActionParseError(f"malformed {kind.replace('_', ' ')} action {_excerpt(line)}; "
                               f"expected {_EXPECTED[kind]}")
    return _STEP_OF[kind](match)


def _unquoted(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return value


def _typed(match: re.Match[str]) -> Step:
    text = _unquoted(match.group(2))
    if not text:
        raise ActionParseError("malformed type action: no text after the ';'; expected Type [n]; text")
    return Step("type", Target(label=int(match.group(1))), text)


def _scrolled(match: re.Match[str]) -> Step:
    where = match.group(1)
    target = None if where.lower() == "window" else Target(label=int(where))
    return Step("scroll", target, match.group(2).lower())


def _answered(match: re.Match[str]) -> Step:
    text = _unquoted(match.group(1))
    if not text:
        raise ActionParseError("malformed answer: no text after 'ANSWER;'; expected ANSWER; text")
    return Step("answer", None, text)


_STEP_OF: dict[str, Callable[[re.Match[str]], Step]] = {
    "click": lambda m: Step("click", Target(label=int(m.group(1)))),
    "type": _typed,
    "scroll": _scrolled,
    "wait": lambda m: Step("wait"),
    "go_back": lambda m: Step("go_back"),
    "answer": _answered,
}


def _excerpt(text: str, limit: int = 80) -> str:
    flat = " ".join(str(text).split())
    return repr(flat if len(flat) <= limit else flat[:limit - 1] + "…")


# ---------------------------------------------------------------------------------------------------------------
# Finding a target again


MIN_BOX_OVERLAP = 0.5  # intersection over union


def find_target(target: Target, elements: Sequence[Target]) -> Target | None:
    """The element of `elements` that `target` names, or None. This is what lets replay survive drift.

    Identities are tried in this order, each only when the target has it:
      1. XPath, exactly;
      2. role and accessible name, both equal (case and spacing ignored);
      3. text, equal (case and spacing ignored);
      4. bounding box, intersection over union at least 0.5 (the largest wins);
      5. label (the set-of-mark number), only for a target that has none of the identities above (what a model
         gives): numbers are per screenshot, so on a page where nothing else matches a label names some other
         element.
    The first identity that singles out one element decides. When an identity matches several elements, the
    later identities choose among those; if none can, the first in document order is taken."""
    pool: Sequence[Target] = elements
    narrowed = False
    for applies, matches in _IDENTITIES:
        if not applies(target):
            continue
        hits = matches(target, pool)
        if len(hits) == 1:
            return hits[0]
        if hits:
            pool, narrowed = hits, True
    if narrowed:
        return pool[0]
    if _has_only_label(target):
        return next((e for e in elements if e.label == target.label), None)
    return None


def targets_match(a: Target | None, b: Target | None) -> bool:
    """Two steps aim at the same element: both have no target, or `find_target(a, [b])` finds b."""
    if a is None or b is None:
        return a is None and b is None
    return find_target(a, [b]) is not None


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()


def _has_only_label(target: Target) -> bool:
    return target.label is not None and not (target.xpath or target.text.strip() or target.bbox
                                             or (target.role and target.name.strip()))


def _iou(a: BBox, b: BBox) -> float:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    width = min(ax + aw, bx + bw) - max(ax, bx)
    height = min(ay + ah, by + bh) - max(ay, by)
    if width <= 0 or height <= 0:
        return 0.0
    inter = width * height
    union = aw * ah + bw * bh - inter
    return inter / union if union > 0 else 0.0


def _by_box(target: Target, pool: Sequence[Target]) -> list[Target]:
    assert target.bbox is not None
    scored = [(e, _iou(target.bbox, e.bbox)) for e in pool if e.bbox is not None]
    scored = [(e, s) for e, s in scored if s >= MIN_BOX_OVERLAP]
    if not scored:
        return []
    best = max(s for _, s in scored)
    return [e for e, s in scored if s == best]


_IDENTITIES: tuple[tuple[Callable[[Target], bool], Callable[[Target, Sequence[Target]], list[Target]]], ...] = (
    (lambda t: bool(t.xpath), lambda t, pool: [e for e in pool if e.xpath == t.xpath]),
    (lambda t: bool(t.role and t.name.strip()),
     lambda t, pool: [e for e in pool if _folded(e.role) == _folded(t.role) and _folded(e.name) == _folded(t.name)]),
    (lambda t: bool(t.text.strip()), lambda t, pool: [e for e in pool if _folded(e.text) == _folded(t.text)]),
    (lambda t: t.bbox is not None, _by_box),
)
