"""Gemini as a record extractor, over any of core's input formats (flat, hier, hier-ref, slim, outline).

The prompt is ours (resources/prompts: the task in `common.md`, one paragraph per input format, the page in
`user.md`). The answer is read tolerantly: a code fence or prose around the JSON is fine, a flat list of XPaths
is read as one XPath per record. An answer that still cannot be read is *malformed*: it is kept (in `raw`),
counted, retried up to `malformed_retries` times as the reference did, and the page then gets an empty
prediction with a warning, never a crash.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field

from ..llm.gemini import Budget, CallSettings, GeminiCaller
from ..page import formats as represent
from ..page.dom import Page
from ..resource_files import read_resource
from .base import Extraction

_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)```", re.DOTALL)


def build_prompt(page: Page, input_format: str) -> tuple[str, str]:
    """(system instruction, user prompt) for one page in one input format."""
    system = read_resource("prompts", "common.md") + "\n" + read_resource("prompts", f"format-{input_format}.md")
    user = read_resource("prompts", "user.md").replace("{input}", represent.represent(page, input_format))
    return system, user


@dataclass
class ParsedAnswer:
    records: list[list[str]]
    problems: list[str] = field(default_factory=list)
    malformed: bool = False


def parse_answer(text: str) -> ParsedAnswer:
    """Read `string[][]` out of a model answer, tolerating fences, prose and a flat `string[]`."""
    candidate = _json_candidate(text)
    if candidate is None:
        return ParsedAnswer([], ["the answer holds no JSON array"], malformed=True)
    try:
        data = json.loads(candidate)
    except json.JSONDecodeError as error:
        return ParsedAnswer([], [f"the answer's JSON does not parse: {error}"], malformed=True)
    except RecursionError:
        return ParsedAnswer([], ["the answer's JSON is nested too deeply"], malformed=True)
    if not isinstance(data, list):
        return ParsedAnswer([], [f"the answer is a JSON {type(data).__name__}, not an array"], malformed=True)
    records: list[list[str]] = []
    problems: list[str] = []
    for index, item in enumerate(data, 1):
        if isinstance(item, str):
            item = [item]
        if not isinstance(item, list):
            problems.append(f"record {index} is not a list of XPaths; skipped")
            continue
        xpaths = [x.strip() for x in item if isinstance(x, str) and x.strip()]
        if len(xpaths) != len(item):
            problems.append(f"record {index}: {len(item) - len(xpaths)} entry(ies) not a non-empty string; dropped")
        records.append(xpaths)
    return ParsedAnswer(records, problems)


def _json_candidate(text: str) -> str | None:
    text = text.strip()
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1).strip()
    if text.startswith("["):
        return text
    start = text.find("[")
    if start < 0:
        return None
    end = _matching_bracket(text, start)
    return text[start:end + 1] if end is not None else text[start:]


def _matching_bracket(text: str, start: int) -> int | None:
    depth = 0
    in_string = escaped = False
    for position in range(start, len(text)):
        char = text[position]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return position
    return None


class GeminiExtractor:
    name = "gemini"
    version = "1"

    def __init__(self, input_format: str = "flat", *, model: str | None = None, temperature: float | None = 1.0,
                 seed: int | None = 0, caller: GeminiCaller | None = None, budget: Budget | None = None,
                 api_key: str | None = None, base_url: str | None = None, timeout_s: float | None = None,
                 max_attempts: int | None = None, backoff_s: float | None = None,
                 malformed_retries: int = 2) -> None:
        if input_format not in represent.FORMATS:
            raise ValueError(f"unknown input format {input_format!r}; choose one of {', '.join(represent.FORMATS)}")
        self.input_format = input_format
        self.malformed_retries = malformed_retries
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
            caller = GeminiCaller(settings, api_key=api_key, budget=budget)
        self.caller = caller

    @property
    def parameters(self) -> dict[str, object]:
        settings = self.caller.settings
        return {"model": settings.model, "temperature": settings.temperature, "seed": settings.seed,
                "input_format": self.input_format}

    def extract(self, page: Page) -> Extraction:
        start = time.monotonic()
        system, user = build_prompt(page, self.input_format)
        answers: list[str] = []
        usage = {"prompt": 0, "completion": 0, "total": 0}
        warnings: list[str] = []
        parsed = ParsedAnswer([], malformed=True)
        malformed = 0
        for _ in range(1 + self.malformed_retries):
            answer = self.caller.generate(user, system=system)
            answers.append(answer.text)
            for key in usage:
                usage[key] += answer.usage.get(key, 0)
            parsed = parse_answer(answer.text)
            if not parsed.malformed:
                break
            malformed += 1
            warnings.append(f"malformed answer ({'; '.join(parsed.problems)})")
        if parsed.malformed:
            warnings.append(f"no readable answer after {len(answers)} call(s): empty prediction")
        warnings.extend(parsed.problems if not parsed.malformed else [])
        dangling = sum(1 for r in parsed.records for x in r if page.resolve(x) is None)
        if dangling:
            total = sum(len(r) for r in parsed.records)
            warnings.append(f"{dangling} of {total} XPaths in the answer name no element of the page")
        return Extraction(
            records=parsed.records, method=self.name, version=self.version, parameters=self.parameters,
            seconds=time.monotonic() - start, input_format=self.input_format, tokens=usage,
            warnings=warnings, raw={"answers": answers, "malformed": malformed},
        )
