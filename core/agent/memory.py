"""What the agent remembers of its earlier steps when it chooses the next one.

- `WindowMemory(n)`: the last n steps.
- `DynamicMemory(k)`: the last step always (what just happened), plus the k earlier steps most relevant to the
  task now. Each earlier step is a short document: its thought, its action in the grammar, its target's text and
  name, its error, and the words of its page URL. The query is the instruction plus the current page's title and
  URL words. Relevance is the cosine of TF-IDF vectors over those documents (words of two or more letters or
  digits, case-folded; idf = ln((1 + N) / (1 + df)) + 1 over the N step documents and the query). Ties go to the
  more recent step. The chosen steps are shown in the order they were taken. No model and no download:
  the same steps give the same memory on every machine.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol
from urllib.parse import unquote

from ..errors import AgentError
from .actions import ACTIONS, Step, said_action
from .model import Observation

_WORD = re.compile(r"[^\W_]{2,}")


class Memory(Protocol):
    name: str

    def select(self, steps: Sequence[Step], instruction: str, observation: Observation) -> list[int]:
        """Indexes (0-based, ascending) of the earlier steps to show."""


@dataclass(frozen=True)
class _CountedMemory:
    """A memory of one kind that shows `count` steps; its name, `kind:count`, is what parse_memory reads."""

    kind: ClassVar[str]
    count: int = 3

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.count}"


@dataclass(frozen=True)
class WindowMemory(_CountedMemory):
    """The last `count` steps."""

    kind = "window"

    def select(self, steps: Sequence[Step], instruction: str, observation: Observation) -> list[int]:
        return list(range(max(0, len(steps) - self.count), len(steps))) if self.count > 0 else []


@dataclass(frozen=True)
class DynamicMemory(_CountedMemory):
    """The last step, and the `count` earlier steps most relevant to the task now."""

    kind = "dynamic"

    def select(self, steps: Sequence[Step], instruction: str, observation: Observation) -> list[int]:
        if not steps:
            return []
        last = len(steps) - 1
        earlier = list(range(last))
        query = " ".join((instruction, observation.title, _url_words(observation.url)))
        scores = relevance(query, [step_document(steps[i]) for i in earlier])
        ranked = sorted(earlier, key=lambda i: (-scores[i], -i))
        return sorted(ranked[:self.count]) + [last]


def parse_memory(spec: str) -> WindowMemory | DynamicMemory:
    """`window:N`, `dynamic` or `dynamic:K` (K earlier steps besides the last, 3 by default)."""
    kind, _, count = spec.strip().lower().partition(":")
    try:
        number = int(count) if count else 3
    except ValueError:
        number = -1
    memories = {memory.kind: memory for memory in (WindowMemory, DynamicMemory)}
    if kind not in memories or number < 0:
        raise AgentError(f"unknown memory {spec!r}: use window:N (the last N steps) or dynamic[:K]")
    return memories[kind](number)


def step_document(step: Step) -> str:
    parts = [step.thought or "", describe_action(step), step.error or "", _url_words(step.url)]
    if step.target is not None:
        parts += [step.target.text, step.target.name]
    return " ".join(parts)


def describe_action(step: Step) -> str:
    """The step as the model wrote it (or what it wrote, when that was no action), with its target's text: a Type
    that pressed no Enter says so ("Type [2]; ada (no Enter)", `said_action`)."""
    written = " ".join((step.raw or "").split())[:200] or "(no action)"
    action = said_action(step) if step.action in ACTIONS else written
    if step.target is not None and (step.target.text or step.target.name):
        action += f" on \"{_short(step.target.text or step.target.name)}\""
    return action


def relevance(query: str, documents: Sequence[str]) -> list[float]:
    """Cosine similarity between the query and each document under TF-IDF weights."""
    bags = [Counter(_words(d)) for d in documents]
    query_bag = Counter(_words(query))
    everything = [*bags, query_bag]
    frequency = Counter(word for bag in everything for word in bag)
    total = len(everything)

    def vector(bag: Counter[str]) -> dict[str, float]:
        return {w: c * (math.log((1 + total) / (1 + frequency[w])) + 1) for w, c in bag.items()}

    q = vector(query_bag)
    q_norm = math.sqrt(sum(v * v for v in q.values()))
    scores = []
    for bag in bags:
        d = vector(bag)
        norm = math.sqrt(sum(v * v for v in d.values()))
        dot = sum(q[w] * d[w] for w in q.keys() & d.keys())
        scores.append(dot / (q_norm * norm) if q_norm and norm else 0.0)
    return scores


def render(memory: Memory, steps: Sequence[Step], instruction: str, observation: Observation) -> str:
    """The earlier steps as the prompt shows them, one per line, numbered as they were taken."""
    if not steps:
        return "(none yet: this is the first step)"
    chosen = memory.select(steps, instruction, observation)
    lines = []
    previous = -1
    for index in chosen:
        if index > previous + 1:
            lines.append(f"(steps {previous + 2}–{index} not shown)" if index > previous + 2
                         else f"(step {index} not shown)")
        lines.append(render_step(index + 1, steps[index]))
        previous = index
    return "\n".join(lines)


def render_step(number: int, step: Step) -> str:
    line = f"Step {number} on {step.url or '(unknown page)'}: {describe_action(step)}"
    if step.thought:
        line += f" — thought: {_short(step.thought, 160)}"
    if step.error:
        line += f" — FAILED: {_short(step.error, 160)}"
    return line


def _words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(text)]


def _url_words(url: str) -> str:
    return " ".join(re.split(r"[/?=&.:+_-]+", unquote(url or "")))


def _short(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"
