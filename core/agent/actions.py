"""The action grammar the model speaks (one action per answer, WebVoyager's set) and `Step`, one action of a
trajectory.

The grammar (one action per answer, WebVoyager's set):

    Click [n]               click the element numbered n on the screenshot
    Type [n]; text          clear the field numbered n, type the text, then press Enter (which submits its form)
    Type [n]; text (no Enter)   the same without Enter: the form is not sent (a form of several fields is filled
                            so, field by field, then its button clicked)
    Scroll [WINDOW]; down   scroll the page by most of a screen (up or down); `Scroll [n]; up` scrolls element n
    Wait                    let the page settle
    GoBack                  the browser's back button
    ANSWER; text            end the episode with this answer

Step values are single-line: newlines in typed text or answers become spaces when an action is written.

Persons and agents share the grammar: a person's typing committed by leaving the field (Tab, a click elsewhere) is
recorded as a Type without Enter, and a model may answer one; both are read by `parse_action`, a hand-written
command of a trajectory's JSON too. "(no Enter)" is read in any case and spacing at the end of a Type's text and
is no part of what is typed, so the words themselves cannot be typed at the end of a field's text.

A password is kept only as Chromium shows it: a Type into a password field (`<input type=password>`) gives the
browser the real text, but what is kept of it is masked, one bullet for each character, as the page itself shows
the field (and both browsers read it out), so a step still says how long the typed text was. The typed text is a
secret of its whole episode (`masked_step`): every Type of it keeps its bullets, and no step's raw answer, thought or
error, and no stored model call, says it, before or after the Type that reached the field (agent.loop masks the
records made before it once it is known). Where it is masked: a Type's typed value always, whatever it is; in free
text (the model's answer and thought, an error, a stored prompt, another Type's text) wherever it stands apart from
letters and digits, whatever its length: its neighbours are neither (a space, punctuation, `_`, the text's start or
end, or the escape before it in a JSON answer, `\\n`), so "1" in "field 1" or "xy1_ok", not in "12"; and never in an
element's number (`[1]`), so the record still says which element was typed into. The trade-off: a password that is a
common word ("page") leaves the words that hold it as they are ("homepage"), so the records stay readable, and a
password written glued to letters or digits in free text ("pagex") is not masked there. Beyond the mask: the task's
instruction and gold answer (as the task holds them, and as each prompt sends the instruction: only a stored prompt
is masked whole), an ANSWER's value (what the episode is scored on), the URL of a step a form sent the password in
(a `method=get` form's next page), and the snapshot's own pages. A replayed or copied step therefore types the
bullets: a password cannot be typed again from a record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..errors import AgentError
from .page_text import TEXT_CHARS
from .targets import Target

ACTIONS = ("click", "type", "scroll", "wait", "go_back", "answer")
SCROLL_DIRECTIONS = ("up", "down")
NO_ENTER = " (no Enter)"  # said after a Type that presses no Enter (`said_action`; read by `parse_action`)
PASSWORD_BULLET = "\u2022"  # what Chromium shows, and reads out, for each character of a password field's value
# A password is masked in free text only where it stands apart from letters and digits (module notes): neither
# neighbour is one (`_` sets it apart), or the one before is the letter of an escape in a JSON answer (\n, \u00e9).
_APART_BEFORE = r"(?:(?<![^\W_])|(?<=\\[nrtbf])|(?<=\\u[0-9a-fA-F]{4}))"
_APART_AFTER = r"(?![^\W_])"
_ELEMENT_NUMBER = re.compile(r"\[\s*\d+\s*\]")  # "[12]": which element, never what was typed


class ActionParseError(AgentError):
    """A model's answer holds no action of the grammar, or a malformed one."""



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
    # A Type: Enter pressed after the text, which submits the field's form. False: "Type [n]; text (no Enter)", an
    # agent's that said so or a person's typing committed by leaving the field (Tab, a click elsewhere).
    submit: bool = True

    @property
    def failed(self) -> bool:
        return self.error is not None

    def as_dict(self) -> dict[str, Any]:
        """JSON form: `command` is the step as people read it (`said_action`); the other keys are authoritative."""
        out: dict[str, Any] = {"action": self.action}
        if self.action in ACTIONS and not self.failed:
            out["command"] = said_action(self)
        if self.target is not None:
            out["target"] = self.target.as_dict()
        for key in ("value", "url", "screenshot_before", "screenshot_after", "thought", "seconds", "raw", "error",
                    "at"):
            value = getattr(self, key)
            if value is not None and value != "":
                out[key] = value
        if not self.submit:
            out["submit"] = False
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
                       error=data.get("error"), at=data.get("at"),
                       submit=base.submit and data.get("submit") is not False)





def password_bullets(value: str) -> str:
    """A password field's value as Chromium shows it: a bullet for each character (each UTF-16 unit, as Chromium
    counts them: an emoji outside the basic plane is two)."""
    return PASSWORD_BULLET * (len(value.encode("utf-16-le")) // 2)


def shows_as_password(shown: str, value: str) -> bool:
    """Whether a field holding `value` that shows `shown` as its text (set-of-mark's text of it, taken with the value,
    cut as som.js cuts it: page_text.TEXT_CHARS) is a password field: it shows the value's bullets, not the value. A
    value of bullets only is its own mask, so no field is taken for a password field wrongly where that would change
    what is kept."""
    return bool(value) and shown == password_bullets(value)[:TEXT_CHARS] != value[:TEXT_CHARS]


def is_password_mask(value: str | None) -> bool:
    """Whether a typed `value` is a password's mask, bullets only: what is kept of a Type into a password field."""
    return bool(value) and set(value or "") == {PASSWORD_BULLET}


def masked_password(step: Step) -> Step:
    """The Type `step`, which typed its value into a password field, as it is kept: its value as bullets, and the
    password masked wherever the model's answer, its thought or an error says it (`masked_step`)."""
    if step.action != "type" or not step.value:
        return step
    return masked_step(step, (step.value,))


def masked_step(step: Step, secrets: Collection[str]) -> Step:
    """`step` as it is kept in an episode whose passwords typed are `secrets` (module notes): a Type of one of them
    keeps its bullets, whether it reached the field or failed; no raw answer, thought, error or other Type's text
    says one. An ANSWER's value is left as answered: it is what the episode is scored on."""
    if not secrets:
        return step
    value = step.value
    if step.action == "type" and value in secrets:
        value = password_bullets(value or "")
    elif step.action == "type":
        value = masked_all(value, secrets)
    return replace(step, value=value, raw=masked_all(step.raw, secrets), thought=masked_all(step.thought, secrets),
                   error=masked_all(step.error, secrets))


def masked_all(text: str | None, secrets: Collection[str]) -> str | None:
    """`text` saying none of `secrets` (`masked`), the longest masked first: one may hold another."""
    for secret in sorted(secrets, key=len, reverse=True):
        text = masked(text, secret)
    return text


def masked(text: str | None, secret: str) -> str | None:
    """`text` with the password `secret` replaced by its bullets where it says it (module notes): as written, and as
    JSON writes it inside a string (a model's JSON answer escapes a quote or a backslash in it). Only where it stands
    apart from letters and digits (_APART_BEFORE, _APART_AFTER), whatever its length, so a password that is a common
    word leaves the words that hold it; never inside an element's number."""
    if not text or not secret:
        return text
    forms = dict.fromkeys((json.dumps(secret, ensure_ascii=False)[1:-1], json.dumps(secret)[1:-1], secret))
    found = "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))
    pattern = re.compile(rf"{_APART_BEFORE}(?:{found}){_APART_AFTER}")
    numbers = [span.span() for span in _ELEMENT_NUMBER.finditer(text)]
    bullets = password_bullets(secret)

    def mask(match: re.Match[str]) -> str:
        inside_a_number = any(start <= match.start() and match.end() <= end for start, end in numbers)
        return match.group() if inside_a_number else bullets

    return pattern.sub(mask, text)


def format_action(step: Step) -> str:
    """The step's action in the grammar, without whether a Type pressed Enter (`said_action` says all of it):
    "Click [3]", "Type [5]; text", "Scroll [WINDOW]; down", "Wait", "GoBack", "ANSWER; text". A target without a
    label (recorded outside every numbered box) shows as [?]."""
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


def said_action(step: Step) -> str:
    """The whole step in the grammar persons and agents share, as `parse_action` reads it back (a trajectory's JSON
    `command`, the recording panel, the viewer, replay's messages, the agent's memory of its steps): `format_action`,
    and a Type that pressed no Enter says so, "Type [1]; alice (no Enter)"."""
    said = format_action(step)
    if step.action != "type" or step.submit:
        return said
    return f"{said.rstrip()}{NO_ENTER}"  # an emptied field: "Type [1]; (no Enter)"


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
# Each action's forms. Beside the grammar's own: "Click on [2]"; "Type [6] graph" (the text after a bracketed
# number, with no ';': the bracket ends the number, so nothing is ambiguous; "Type 6 graph" stays refused);
# "Scroll down" (no target: the window).
_PATTERNS: dict[str, re.Pattern[str]] = {
    "click": re.compile(rf"(?i)^click\s*(?:on\s+)?{_LABEL}\s*[.;]?\s*$"),
    "type": re.compile(rf"(?i)^type\s*(?:{_LABEL}\s*[;:,]|\[\s*(\d+)\s*\]\s)\s*(.*)$"),
    "scroll": re.compile(r"(?i)^scroll(?:\s*\[?\s*(window|\d+)\s*\]?)?\s*[;:,]?\s*(up|down)\b\s*[.;]?\s*$"),
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

    Tolerated: any case and spacing, code fences, a JSON object {"thought": ..., "action": ...} (or an "action"
    that is a verb alone with its arguments under "answer"/"text", "element"/"label", "direction"), the
    "Thought: ... Action: ..." form, prose around the action line, "Click on [n]", "Type [n] text", "Scroll down";
    "(no Enter)" ending a Type's text in any case (module notes).
    With an "Action:" marker the action is read after the last marker; without one, the last line that begins with
    an action verb, or that gives a whole action after prose ending with a colon ("Final answer: ANSWER; 12") when
    that prose holds no action (nor a "Thought"), is taken."""
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
    return (thought if isinstance(thought, str) else ""), [_json_command(action.strip(), lowered)]


# A JSON answer whose "action" is a verb alone may give its arguments under keys of their own
# ({"action": "ANSWER", "answer": "12"}, {"action": "Click", "element": 2}): these keys, per argument.
_JSON_TEXT_KEYS = ("answer", "text", "value")
_JSON_LABEL_KEYS = ("element", "label", "target", "index", "number", "id")
_JSON_DIRECTION_KEYS = ("direction", "value")


def _json_command(action: str, data: Mapping[str, Any]) -> str:
    """The action of a JSON answer as one command: the "action" itself, or a verb alone with the arguments its
    other keys give. Two keys that give one argument differently leave the verb alone (refused as malformed):
    which one was meant is not clear."""
    verb = _VERB.match(action)
    if verb is None or action[verb.end():].strip(" .;:"):
        return action
    kind = re.sub(r"[\s_-]+", "", verb.group(1).lower())
    text, label = _json_argument(data, _JSON_TEXT_KEYS), _json_argument(data, _JSON_LABEL_KEYS)
    if kind == "answer" and text is not None:
        return f"ANSWER; {text}"
    if kind == "click" and label is not None:
        return f"Click [{label}]"
    if kind == "type" and label is not None and text is not None:
        return f"Type [{label}]; {text}"
    direction = _json_argument(data, _JSON_DIRECTION_KEYS)
    if kind == "scroll" and direction is not None:
        return f"Scroll [{label if label is not None else 'WINDOW'}]; {direction}"
    return action


def _json_argument(data: Mapping[str, Any], keys: Sequence[str]) -> str | None:
    """The one value `keys` give (a string or a number; a label's brackets dropped), or None: none, or two that
    differ."""
    values = {str(data[k]).strip().strip("[]").strip() for k in keys
              if isinstance(data.get(k), (str, int, float)) and not isinstance(data.get(k), bool)}
    values.discard("")
    return values.pop() if len(values) == 1 else None


def _from_markers(body: str) -> tuple[str, list[str]]:
    thought_match = _THOUGHT.search(body)
    thought = " ".join(thought_match.group(1).split()) if thought_match else ""
    marks = list(_ACTION_MARK.finditer(body))
    if marks:
        after = body[marks[-1].end():]
        lines = [ln for ln in after.splitlines() if ln.strip()]
        return thought, lines[:1]
    lines = [ln for ln in body.splitlines() if _VERB.match(_strip_lead(ln)) or _after_prose(ln)]
    return thought, [ln if _VERB.match(_strip_lead(ln)) else str(_after_prose(ln)) for ln in lines[-1:]]


_COLON = re.compile(r"[:：]")
# An action written in prose ("I will Click [5]", "I cannot answer; ..."), or the thought: prose before a colon that
# holds one leaves the action after it unclear.
_ACTION_IN_PROSE = re.compile(r"(?i)\b(?:click|type|scroll)\s*(?:on\s+)?\[|\banswer\s*;|\bthought\b")


def _after_prose(line: str) -> str | None:
    """The action a line gives after prose that ends with a colon ("Final answer: ANSWER; 12"), when the action
    reads whole and the prose holds no action (else which one is meant is not clear); None otherwise."""
    for colon in _COLON.finditer(line):
        if _ACTION_IN_PROSE.search(line[:colon.start()]):
            return None
        rest = line[colon.end():].strip()  # its lead (`, **) is _choose_line's to strip, as any action line's
        if _VERB.match(_strip_lead(rest)) and _reads(_choose_line([rest]) or ""):
            return rest
    return None


def _reads(line: str) -> bool:
    try:
        _parse_line(line)
    except ActionParseError:
        return False
    return True


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


# "(no Enter)" ending a Type's text (module notes): in any case and spacing, and with the full stop a model may end
# its sentence with (the other actions take one too; without it here the words would be typed and Enter pressed).
_NO_ENTER_SAID = re.compile(r"(?i)\s*\(\s*no\s+enter\s*\)\s*\.?\s*$")


def _typed(match: re.Match[str]) -> Step:
    said = match.group(3)
    submit = _NO_ENTER_SAID.search(said) is None
    text = _unquoted(_NO_ENTER_SAID.sub("", said))
    if not text and submit:  # "Type [n]; (no Enter)" empties the field, as a person's emptied one is said
        raise ActionParseError("malformed type action: no text after the ';'; expected Type [n]; text")
    return Step("type", Target(label=int(match.group(1) or match.group(2))), text, submit=submit)


def _scrolled(match: re.Match[str]) -> Step:
    where = match.group(1) or "window"
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


