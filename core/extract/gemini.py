"""Gemini as a record extractor, over any of core's input formats (flat, hier, hier-ref, slim, outline).

The prompt is ours (resources/prompts: the task in `common.md`, one paragraph per input format, the page in
`user.md`), or a user's own (`prompt_file`: a template in which `{input}` stands for the page). The answer is read
tolerantly: a code fence or prose around the JSON is fine (prose with brackets of its own too), a flat list of XPaths
is read as one XPath per record, and an answer holding the same record many times is kept as answered, each said. An
answer that still cannot be read (or is not `string[][]`, the reference's zod check) is *malformed*: it is kept,
counted and retried up to `malformed_retries` times as the reference did. A refused or cut-off answer (finishReason
SAFETY, RECITATION, MAX_TOKENS, OTHER; no candidates; empty text) is not retried with the same settings. Either way,
a page without a valid answer raises `ExtractionFailedError` carrying every attempt: a failed page, never an empty
prediction. A budget that runs out part way through a page raises `StoppedOnPageError` with the calls paid for; an
interrupt (Ctrl+C, SIGTERM) goes on as one, carrying them (`llm.gemini.carry_paid`), so that the run keeps them too.
A page with nothing to read (no text, or bytes that are not text) is failed without a request (`nothing_to_read`).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..command_hints import hint_path
from ..errors import RecordLensError, shortened, system_words
from ..file_kinds import read_regular_file, unreadable_kind
from ..llm.answer_json import closing_bracket
from ..llm.gemini import (
    COMMAND_LINE,
    CUT_OFF,
    INCOMPLETE_USAGE,
    NO_USAGE_METADATA,
    UNCOUNTED,
    UNREAD,
    Answer,
    Budget,
    BudgetExceededError,
    CallLog,
    CallSettings,
    GeminiCaller,
    GeminiError,
    SettingPlaces,
    carry_paid,
    cut_off_said,
    given_up_said,
    never_read_said,
    paid_carried,
)
from ..page import formats as represent
from ..page.dom import Page
from ..resource_files import read_resource
from ..wording import counted
from .base import Extraction, ExtractionFailedError, StoppedOnPageError

_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)```", re.DOTALL)


INPUT_PLACEHOLDER = "{input}"
# A run's parameters' keys for its prompt: where it came from ("shipped", or the file as given: for people) and its
# SHA-256 (what tells one prompt from another: `run_files.run_identity`)
PROMPT_SOURCE, PROMPT_SHA256 = "prompt", "prompt_sha256"


@dataclass(frozen=True)
class PromptTemplate:
    """The words sent around a page: a system instruction (None: none sent) and a user template with `{input}`.

    `source` names where it came from ("shipped" or the file's path) and `sha256` identifies it, so that a run
    records which prompt made it: a prompt file by its own bytes (`file_sha256`, what `sha256sum FILE` prints), the
    shipped prompt, made of several resource files, by its texts (`text_sha256`).
    """

    system: str | None
    user: str
    source: str
    file_sha256: str | None = None  # a prompt file's bytes' SHA-256; None for the shipped prompt

    @property
    def sha256(self) -> str:
        """The prompt's SHA-256 as a run records it (`prompt_sha256`)."""
        return self.file_sha256 or self.text_sha256

    @property
    def text_sha256(self) -> str:
        """The SHA-256 of the texts sent around a page (system instruction and user template, as one JSON object):
        the shipped prompt's identity, and what runs recorded as a prompt file's `prompt_sha256` before the file's
        own bytes were hashed (`run_files.prompt_as_recorded_now` reads such a run as made with this prompt)."""
        text = json.dumps({"system": self.system, "user": self.user}, ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def fill(self, page_text: str) -> tuple[str | None, str]:
        return self.system, self.user.replace(INPUT_PLACEHOLDER, page_text)


def shipped_prompt(input_format: str) -> PromptTemplate:
    system = read_resource("prompts", "common.md") + "\n" + read_resource("prompts", f"format-{input_format}.md")
    return PromptTemplate(system, read_resource("prompts", "user.md"), "shipped")


def prompt_from_file(path: str | Path) -> PromptTemplate:
    """A user's prompt: the whole file is the user message, `{input}` replaced by the page (appended after a
    blank line when the file has no `{input}`); no system instruction is sent."""
    try:
        # through the guarded reader: a FIFO is not waited on, a file of an open project's database not opened
        data = read_regular_file(path)  # hashed as they are, so that the run's hash is the file's own
        text = data.decode("utf-8")
    except OSError as error:  # what it is, or the system's words, not the path again (as Python writes it)
        said = unreadable_kind(path, error, "prompt file") or system_words(error)
        raise RecordLensError(f"cannot read the prompt file {hint_path(path)}: {said}") from None
    except UnicodeDecodeError as error:
        raise RecordLensError(f"cannot read the prompt file {hint_path(path)}: {system_words(error)}") from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # line ends as a text read makes them
    if not text.strip():
        raise RecordLensError(f"the prompt file {hint_path(path)} is empty")
    if INPUT_PLACEHOLDER not in text:
        text = text.rstrip("\n") + "\n\n" + INPUT_PLACEHOLDER
    return PromptTemplate(None, text, str(path), hashlib.sha256(data).hexdigest())


def prompt_for(input_format: str, prompt_file: str | Path | None = None) -> PromptTemplate:
    """The prompt a Gemini run in `input_format` sends: a user's prompt file, or the shipped prompt."""
    return prompt_from_file(prompt_file) if prompt_file else shipped_prompt(input_format)


def build_prompt(page: Page, input_format: str, template: PromptTemplate | None = None) -> tuple[str | None, str]:
    """(system instruction, user prompt) for one page in one input format."""
    return (template or shipped_prompt(input_format)).fill(represent.represent(page, input_format))


@dataclass
class ParsedAnswer:
    records: list[list[str]]
    problems: list[str] = field(default_factory=list)
    malformed: bool = False


def parse_answer(text: str) -> ParsedAnswer:
    """Read `string[][]` out of a model answer, tolerating fences, prose (brackets of its own too: "see [1]") and a
    flat `string[]`.

    Each top-level bracketed span of the answer is tried in turn (a span that parses, or not, is skipped whole, so
    a list inside a cut-off answer is never taken for it, and a huge answer is read in one pass); of those that are
    records, a list of records is preferred to a flat list of XPaths (an example in the prose), then the longest;
    more than one of the shape read is an ambiguous answer, read so and said in `problems` (the run's warnings).
    A JSON object is not `string[][]` (the reference's zod check refuses it): a list inside one (`{"records":
    [[…]]}`, `{"error": "… [policy 3]"}`) is never read as the answer. Without any records, the answer is malformed,
    for the reason of the longest span tried (most likely the answer): an object's is that it is an object."""
    text = text.strip()
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1).strip()
    if text.startswith("["):  # the answer is the JSON alone (as JSON output mode asks): read it in one go
        whole = _records_in(text)
        if not whole.malformed:
            return whole
    objects = list(_json_objects(text))
    best: tuple[tuple[bool, int], int, ParsedAnswer] | None = None
    refused: tuple[int, ParsedAnswer] | None = max(
        ((end - start, _object_refused(data)) for start, end, data in objects), default=None, key=lambda r: r[0])
    shapes: list[bool] = []  # of each span that is records: whether it is a list of records (else a flat list)
    for start, end in _bracketed_spans(text, [(start, end) for start, end, _ in objects]):
        candidate = text[start:end]
        parsed = _records_in(candidate)
        if parsed.malformed:
            if refused is None or end - start > refused[0]:
                refused = (end - start, parsed)
            continue
        shapes.append(_NESTED.match(candidate) is not None)
        rank = (shapes[-1], end - start)
        if best is None or rank > best[0]:
            best = (rank, len(shapes), parsed)
    if best is not None:
        (nested, _), kept, chosen = best
        rivals = shapes.count(nested) - 1  # answers of the same shape; a flat list beside records is an example
        if rivals:  # which one the model meant cannot be known: the choice is said, not made silently
            chosen.problems.append(_rivals_said(rivals, shapes[:kept].count(nested), nested))
        return chosen
    if refused is not None:
        return refused[1]
    return ParsedAnswer([], ["the answer holds no JSON array"], malformed=True)


def _rivals_said(rivals: int, kept: int, nested: bool) -> str:
    """The warning for an answer holding `rivals` more JSON arrays of the shape read (lists of records, or flat
    lists of XPaths) where the prompt asks for one array; the `kept`-th of them (counted from 1) is the one read."""
    shape = "lists of records" if nested else "flat lists of XPaths"
    return (f"the answer holds {rivals + 1} JSON {shape} where one array is asked for: the longest (the first of "
            f"equal length), list {kept}, is read as the answer, and {counted(rivals, 'other')} ignored")


_NESTED = re.compile(r"\[\s*\[")  # a list of records, not a flat list of XPaths


def _bracketed_spans(text: str, objects: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """(start, end) of each top-level span of `text` from a "[" to its closing bracket, in order, leaving out those
    inside the JSON `objects` (their (start, end), in order): a list in an object is the object's, not the answer;
    one never closed (a cut-off answer) runs to the end and is the last. Each character is walked once, and each
    span parsed on its own (a parse error's cost is its span's), so that a huge answer, or one with many brackets,
    is read in linear time."""
    position = text.find("[")
    inside = iter(objects)
    current = next(inside, None)
    while position >= 0:
        while current is not None and current[1] <= position:
            current = next(inside, None)
        if current is not None and current[0] < position:  # within an object: go on after it
            position = text.find("[", current[1])
            continue
        closing = closing_bracket(text, position)
        if closing is None:
            yield position, len(text)
            return
        yield position, closing + 1
        position = text.find("[", closing + 1)


def _json_objects(text: str) -> Iterator[tuple[int, int, dict[str, object]]]:
    """(start, end, value) of each top-level span of `text` from a "{" to its closing brace that is a JSON object,
    in order. Braces that are prose ("{see below}") are passed over whole; one never closed ends the search. Each
    character is walked once and each span parsed once, as for brackets."""
    position = text.find("{")
    while position >= 0:
        closing = closing_bracket(text, position, "{", "}")
        if closing is None:
            return
        try:
            data = json.loads(text[position:closing + 1])
        except (json.JSONDecodeError, RecursionError):
            data = None
        if isinstance(data, dict):
            yield position, closing + 1, data
        position = text.find("{", closing + 1)


def _object_refused(data: dict[str, object]) -> ParsedAnswer:
    """An answer that is a JSON object, refused as the reference's `string[][]` check refuses it, naming its keys
    (a list of records under "records" is still an object, not the array asked for)."""
    keys = list(data)
    shown = ", ".join(json.dumps(key, ensure_ascii=False)[:40] for key in keys[:3]) + (", …" if len(keys) > 3 else "")
    holding = f"with {'key' if len(keys) == 1 else 'keys'} {shown}" if keys else "empty"
    return ParsedAnswer([], [f"the answer is a JSON object ({holding}), not the array of records (string[][]) "
                             "asked for"], malformed=True)


def _records_in(candidate: str) -> ParsedAnswer:
    """The records a JSON text holds, or why it holds none."""
    try:
        data = json.loads(candidate)
    except json.JSONDecodeError as error:
        return ParsedAnswer([], [f"the answer's JSON does not parse: {error}"], malformed=True)
    except RecursionError:
        return ParsedAnswer([], ["the answer's JSON is nested too deeply"], malformed=True)
    return _records_of(data)


def _records_of(data: object) -> ParsedAnswer:
    """The records a JSON value is (`string[][]`, or a flat `string[]` read as one XPath a record), or why not."""
    if not isinstance(data, list):
        return ParsedAnswer([], [f"the answer is a JSON {type(data).__name__}, not an array"], malformed=True)
    records: list[list[str]] = []
    problems: list[str] = []
    if any(isinstance(item, str) for item in data) and not all(isinstance(item, str) for item in data):
        # A flat list of XPaths is read as one XPath a record; strings beside records are neither shape.
        return ParsedAnswer([], ["the answer mixes XPath strings and records in one list"], malformed=True)
    if data and all(isinstance(item, str) for item in data):
        problems.append(_flat_list_said(len(data)))
    for index, item in enumerate(data, 1):
        if isinstance(item, str):
            item = [item]
        # The reference's check is zod's string[][]: an object or a list inside a record fails the whole answer,
        # which is then asked again, never kept as an empty record.
        if not isinstance(item, list) or not all(isinstance(x, str) for x in item):
            shown = json.dumps(item, ensure_ascii=False)
            return ParsedAnswer([], [f"record {index} is not a list of XPath strings: "
                                     f"{shown[:80] + '…' if len(shown) > 80 else shown}"], malformed=True)
        # Kept as the model wrote them, as the reference keeps them (zod's string[][], no trim): " /body[1]" then
        # names nothing, in the score as in NEXT-EVAL's (`_padded_said` says so); only "" is dropped, which the
        # paper's pipeline would read as the whole page
        xpaths = [x for x in item if x]
        dropped = len(item) - len(xpaths)
        if not xpaths:  # kept, as answered: the score counts it, and it names nothing
            problems.append(f"record {index}: " + (f"its {dropped} XPath(s) empty, dropped, so the record is empty"
                                                   if dropped else "an empty record")
                            + ": kept as answered, it names nothing on the page and counts as a hallucinated record")
        elif dropped:
            problems.append(f"record {index}: {dropped} empty XPath(s) dropped")
        records.append(xpaths)
    padded = _padded_said(records)
    return ParsedAnswer(records, problems + ([padded] if padded else []))


def _flat_list_said(count: int) -> str:
    """The warning for an answer that is a flat list of `count` XPaths, not the list of records asked for: read as
    one record per XPath (as NEXT-EVAL's web app reads one), which a model that meant one record of them all did
    not answer."""
    return (f"the answer is a flat list of {counted(count, 'XPath')}, not the list of records (string[][]) asked "
            f"for: read as {counted(count, 'record')} of one XPath each")


def _padded_said(records: list[list[str]]) -> str | None:
    """The warning for XPaths written with whitespace around them (or of whitespace only), kept as written; None
    when there is none."""
    found = [(index, xpath) for index, record in enumerate(records, 1) for xpath in record if xpath != xpath.strip()]
    if not found:
        return None
    shown = ", ".join(shortened(json.dumps(xpath, ensure_ascii=False), 80) for _, xpath in found[:3])
    more = f" and {len(found) - 3:,} more" if len(found) > 3 else ""
    return (f"{counted(len(found), 'XPath')} of the answer {'has' if len(found) == 1 else 'have'} whitespace around "
            f"{'it' if len(found) == 1 else 'them'} or {'is' if len(found) == 1 else 'are'} only whitespace "
            f"({shown}{more}; in {counted(len({i for i, _ in found}), 'record')}): kept as written, as NEXT-EVAL "
            "keeps them, so each names no element and matches nothing in the score")


# The hier format's key for an element's own text (`represent --format hier`): a model may copy it into an XPath
_OWN_TEXT_STEP = re.compile(r"/#text(\[\d+\])?/?$")


def _own_text_keys_said(records: list[list[str]]) -> str | None:
    """The warning for XPaths ending in the hier format's `#text` key (`…/li[2]/#text`), which is no step of an
    XPath; None when there is none. They are kept and scored as written, as NEXT-EVAL's normalisation reads them
    (`#text[1]`, a prefix of no text-map key: they match nothing), so that a run's figures are the reference's
    whatever the format; the warning names the element the model most likely meant."""
    found = [xpath for record in records for xpath in record if _OWN_TEXT_STEP.search(xpath)]
    if not found:
        return None
    example, meant = (shortened(json.dumps(xpath, ensure_ascii=False), 200)
                      for xpath in (found[0], _OWN_TEXT_STEP.sub("", found[0])))
    return (f"{counted(len(found), 'XPath')} of the answer end{'s' if len(found) == 1 else ''} in /#text, the hier "
            f"format's key for an element's own text, not a step of an XPath ({example}): kept and scored as "
            f"written, as NEXT-EVAL scores them, so each matches nothing; the element meant is the path without "
            f"/#text ({meant})")


class GeminiExtractor:
    name = "gemini"
    version = "1"

    def __init__(self, input_format: str = "flat", *, model: str | None = None, temperature: float | None = 1.0,
                 seed: int | None = 0, caller: GeminiCaller | None = None, budget: Budget | None = None,
                 api_key: str | None = None, base_url: str | None = None, timeout_s: float | None = None,
                 max_attempts: int | None = None, backoff_s: float | None = None,
                 malformed_retries: int = 2, prompt_file: str | Path | None = None,
                 cancel: threading.Event | None = None, notify: Callable[[str], None] | None = None,
                 setting_places: SettingPlaces | None = None) -> None:
        """`cancel` (set: no further call, a wait ends at once) and `notify` (waits and retries said as they
        happen) are the app's: its Cancel button and its status bar; so is `setting_places`, where the words about
        a page's calls say its settings are set (the command line's options when left out, or `caller`'s)."""
        if input_format not in represent.FORMATS:
            raise ValueError(f"unknown input format {input_format!r}; choose one of {', '.join(represent.FORMATS)}")
        self.input_format = input_format
        self.malformed_retries = malformed_retries
        self.prompt = prompt_for(input_format, prompt_file)
        if caller is None:
            settings = CallSettings(temperature=temperature, seed=seed, base_url=base_url)
            if model:
                settings.model = model
            if timeout_s is not None:
                settings.timeout_s = timeout_s
            if max_attempts is not None:
                settings.max_attempts = max_attempts
            if backoff_s is not None:
                settings.backoff_s = backoff_s
            caller = GeminiCaller(settings, api_key=api_key, budget=budget, cancel=cancel, notify=notify,
                                  setting_places=setting_places or COMMAND_LINE)
        self.caller = caller
        self.setting_places = setting_places or caller.setting_places

    @property
    def parameters(self) -> dict[str, object]:
        """What decides the answers: a resumed run must have the same (the runner compares them)."""
        settings = self.caller.settings
        return {"model": settings.model, "temperature": settings.temperature, "seed": settings.seed,
                "input_format": self.input_format, PROMPT_SOURCE: self.prompt.source,
                PROMPT_SHA256: self.prompt.sha256}

    @property
    def settings(self) -> dict[str, object]:
        """How the calls were made (recorded with a run): the endpoint and JSON mode are part of which run it is, the
        session limits are not (`run_files.run_identity`)."""
        settings = self.caller.settings
        return {"timeout_s": settings.timeout_s, "max_attempts": settings.max_attempts,
                "backoff_s": settings.backoff_s, "max_backoff_s": settings.max_backoff_s,
                "max_retry_after_s": settings.max_retry_after_s,
                "json_output": settings.json_output, "malformed_retries": self.malformed_retries,
                "max_requests": self.caller.budget.max_requests, "max_tokens": self.caller.budget.max_tokens,
                # Where the answers came from: Google's endpoint (None), or a proxy or a test server; a key
                # written into the address is never recorded.
                "base_url": self.caller.recorded_base_url}

    def extract(self, page: Page) -> Extraction:
        asked = _PageCalls(time.monotonic(), self.input_format, self.parameters, self.setting_places)
        unreadable = nothing_to_read(page)
        if unreadable:  # no answer could name a record: failed, without a request paid for
            raise ExtractionFailedError(unreadable, asked.details(unreadable))
        try:
            return self._extract(page, asked)
        except Exception:
            raise
        except BaseException as stop:
            # Ctrl+C, SIGTERM: the interrupt goes on as one, carrying what this page already paid for, so that the
            # run keeps it with the page, marked not finished, as it does for a budget stop
            call = paid_carried(stop)
            if isinstance(call, CallLog) and call.statuses:
                asked.calls.append({**call.as_dict(), "error": f"interrupted ({type(stop).__name__})"})
            if asked.calls:
                carry_paid(stop, asked.details(f"interrupted ({type(stop).__name__}) part way through the page"))
            raise

    def _extract(self, page: Page, asked: _PageCalls) -> Extraction:
        system, user = self.prompt.fill(represent.represent(page, self.input_format))
        parsed = ParsedAnswer([], malformed=True)
        for _ in range(1 + self.malformed_retries):
            try:
                answer = self.caller.generate(user, system=system,
                                              about=f"page {page.name}" if page.name else None)
            except BudgetExceededError as error:
                if error.log is not None and error.log.statuses:  # attempts of this call were paid for
                    asked.calls.append({**error.log.as_dict(), "error": str(error)})
                if not asked.calls:
                    raise
                # Calls on this page were paid for: the run keeps them with the page, marked not finished.
                raise StoppedOnPageError(str(error), asked.details(str(error))) from None
            except GeminiError as error:
                asked.calls.append({**(error.log.as_dict() if error.log else {}), "error": str(error)})
                # The endpoint's failure after every retry, not the model's answer: a run stops after a few.
                raise ExtractionFailedError(str(error), {**asked.details(str(error)),
                                                         "endpoint_failed": error.endpoint_failed}) from None
            asked.add(answer)
            incomplete = answer.incomplete
            if incomplete:
                # Refused or cut off: the same request with the same settings would most likely end the same.
                incomplete += _what_to_do_about(answer, self.setting_places)
                raise ExtractionFailedError(incomplete, asked.details(incomplete))
            parsed = parse_answer(answer.text)
            if not parsed.malformed:
                break
            asked.malformed += 1
            asked.warnings.append(f"malformed answer ({'; '.join(parsed.problems)})")
        if parsed.malformed:
            # the last answer's fault, said where the page's failure is said (not only in its _run/N.json)
            reason = (f"no readable answer after {len(asked.answers)} call(s) (the last: {'; '.join(parsed.problems)})"
                      "; running again asks again")
            raise ExtractionFailedError(reason, asked.details(reason))
        warnings = asked.warnings
        warnings.extend(parsed.problems)
        for said in (_duplicates_said(parsed.records), _own_text_keys_said(parsed.records)):
            if said:
                warnings.append(said)
        dangling = sum(1 for r in parsed.records for x in r if page.resolve(x) is None)
        if dangling:
            total = sum(len(r) for r in parsed.records)
            warnings.append(f"{dangling} of {total} XPaths in the answer name no element of the page")
        return Extraction(
            records=parsed.records, method=self.name, version=self.version, parameters=self.parameters,
            seconds=time.monotonic() - asked.start, input_format=self.input_format, tokens=asked.usage,
            warnings=warnings, raw=asked.raw(),
        )


def uncounted_answer(why: str | None) -> str:
    """Said of a page whose answer came without token counts (kept as "uncounted", not as 0 tokens), `why` being
    what the answer held in their place (`Answer.uncounted_why`): none at all, zeros, or the prompt's alone."""
    if why == INCOMPLETE_USAGE:
        return (f"the endpoint reported incomplete token usage for this page's answer ({why}): the prompt's are "
                "counted, the answer's are unknown, not 0")
    return (f"the endpoint reported no token usage for this page's answer ({why or NO_USAGE_METADATA}): its tokens "
            "are unknown, not 0")


UNCOUNTED_ANSWER = uncounted_answer(NO_USAGE_METADATA)  # said of an answer without a usage block (the usual case)


# Of a page's text, the share of characters that no text holds (control characters, U+FFFD for bytes that could not
# be decoded) from which it is taken for bytes that are no text: a damaged file, or one that is no page, read as
# mojibake (random bytes read as windows-1252 give some 13%; the text of a page, in any encoding, next to none)
NOT_TEXT_SHARE = 0.05
_NOT_TEXT_AT_LEAST = 10  # characters: a page of a few words with one stray control character is still text
_TEXT_CONTROLS = frozenset("\t\n\r\f")  # whitespace of HTML, which text may hold


def nothing_to_read(page: Page) -> str | None:
    """Why a page is not sent to the model, or None when it is: it holds no text (no record could name any, and
    every record, true or answered, would expand to nothing in the score), or what it holds is not text. Such a
    page is failed with this reason, and no request is paid for; `score` counts it as an empty prediction, as
    NEXT-EVAL scores a page answered with no records (1 when it has no true records either, else 0)."""
    text = "".join(page.text_map.values())
    if not text.strip():
        return ("the page holds no text (no element of it has any): nothing for the model to read, so no request "
                "was sent; check its saved file")
    not_text = sum(1 for c in text if c == "\ufffd" or (unicodedata.category(c) == "Cc" and c not in _TEXT_CONTROLS))
    if not_text >= _NOT_TEXT_AT_LEAST and not_text >= NOT_TEXT_SHARE * len(text):
        return (f"the page's text is not text: {not_text:,} of its {len(text):,} characters are control characters "
                f"or U+FFFD (a damaged file, or bytes that are no page, read as mojibake), so no request was sent; "
                f"check its saved file")
    return None


@dataclass
class _PageCalls:
    """What one page's calls brought and cost so far, kept with the page however its extraction ends: answered,
    failed, stopped by the budget or interrupted."""

    start: float
    input_format: str
    parameters: dict[str, object]
    places: SettingPlaces = COMMAND_LINE  # where its warnings say the settings are set
    answers: list[str] = field(default_factory=list)
    calls: list[dict[str, object]] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)  # summed over its answers: counted kinds, or "uncounted"
    warnings: list[str] = field(default_factory=list)
    malformed: int = 0

    def add(self, answer: Answer) -> None:
        self.answers.append(answer.text)
        self.calls.append(_call_record(answer))
        for kind, count in answer.usage.items():  # thinking too, when the model reports it
            self.usage[kind] = self.usage.get(kind, 0) + count
        said = [uncounted_answer(answer.uncounted_why)] if answer.uncounted_why else []
        # attempts before the answer that were paid for, their tokens unknown (counted in its usage already)
        said += [given_up_said(answer.log.given_up, self.places)] if answer.log.given_up else []
        said += [cut_off_said(answer.log.cut_off)] if answer.log.cut_off else []
        if answer.candidates > 1:
            said.append(f"the answer holds {answer.candidates} candidates: the first one's text is read, the others "
                        "are ignored")
        self.warnings.extend(warning for warning in said if warning not in self.warnings)

    def raw(self) -> dict[str, object]:
        return {"answers": self.answers, "malformed": self.malformed, "calls": self.calls}

    def details(self, reason: str | None) -> dict[str, object]:
        """What the page's calls brought and cost, as its record keeps it however it ended: the attempts cut off
        mid-answer, and the one an interrupt cut short while its answer was awaited (`UNREAD`: sent, so paid for), in
        calls that ended without an answer are among its answers without token counts, and said (an answered call's
        usage holds its own already)."""
        unanswered = [call for call in self.calls if "tokens" not in call]
        cut_off = sum(int(call.get(CUT_OFF) or 0) for call in unanswered)  # type: ignore[call-overload]
        unread = sum(int(call.get(UNREAD) or 0) for call in unanswered)  # type: ignore[call-overload]
        tokens = ({**self.usage, UNCOUNTED: self.usage.get(UNCOUNTED, 0) + cut_off + unread} if cut_off + unread
                  else self.usage)
        warnings = [*self.warnings, *([cut_off_said(cut_off)] if cut_off else []),
                    *([never_read_said(unread)] if unread else [])]
        return {"reason": reason, "seconds": time.monotonic() - self.start, "tokens": tokens,
                "warnings": warnings, "input_format": self.input_format, "parameters": self.parameters,
                "raw": self.raw()}


def _what_to_do_about(answer: Answer, places: SettingPlaces = COMMAND_LINE) -> str:
    """What an answer cut off at the model's output limit adds to its page's failure: the next step, the model
    named where `places` set it (the others, refusals, are said as they are: running again, as for any failed page,
    is the step)."""
    if answer.finish_reason != "MAX_TOKENS":
        return ""
    return ("; its answer reached the model's output limit (thinking counts toward it): running again asks again, "
            f"and a page with this many records may need a model with a larger limit ({places.model})")


def _duplicates_said(records: list[list[str]]) -> str | None:
    """An answer that holds the same record more than once (the same XPaths, in any order), said with how many;
    None when each record is there once. The records stay as answered: the score is the reference's on them."""
    distinct = len({frozenset(record) for record in records})
    if distinct == len(records):
        return None
    return (f"the answer holds {counted(len(records) - distinct, 'duplicate record')} "
            f"({counted(len(records), 'record')}, {distinct:,} distinct); kept as answered")


def _call_record(answer: Answer) -> dict[str, object]:
    """One model call as a run keeps it: attempts and HTTP statuses, wait, finish reason, tokens."""
    record: dict[str, object] = {**answer.log.as_dict(), "finish_reason": answer.finish_reason,
                                 "tokens": answer.usage, "seconds": round(answer.seconds, 3)}
    if answer.block_reason:
        record["block_reason"] = answer.block_reason
    return record
