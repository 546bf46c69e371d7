"""The one interface every extractor implements: a cleaned Page in, records (element XPaths) out."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..errors import RecordLensError
from ..llm.gemini import BudgetExceededError
from ..page.dom import Page
from ..wording import counted

if TYPE_CHECKING:
    from ..records.model import TextKeyIndex

HTML_PREFIX = "/html[1]"


@dataclass
class Extraction:
    """What one extractor run found on one page, and enough context to reproduce or explain it."""

    records: list[list[str]]  # element XPaths rooted at /body[1]... (core's convention: no /html[1])
    method: str
    version: str
    parameters: dict[str, object]
    seconds: float
    input_format: str | None = None
    tokens: dict[str, int] | None = None  # prompt/completion/total (and thinking, when reported) when an LLM was used
    warnings: list[str] = field(default_factory=list)
    raw: object | None = None  # e.g. the model's raw answer, MDR regions


@dataclass(frozen=True)
class Proposed:
    """What a proposal of one page's extraction holds (`proposal_of`): the records proposed, and the warnings said
    with them."""

    records: list[list[str]]
    warnings: list[str]


def proposal_of(extraction: Extraction, keys: TextKeyIndex | None) -> Proposed:
    """What the app's Propose proposes of an extraction of a page whose text keys are `keys` (None: the page's text
    not read): its records but those a proposal cannot hold, each kind said with how many among its warnings. The
    extraction, and the run that keeps it, holds every record as found, as NEXT-EVAL's score counts them.

    A record without any XPath (a model's `[]`) names nothing a label could hold (`labels check` flags one); a
    record that repeats an earlier one, by its XPaths or by the text they cover (a wrapper and its only child),
    would make a pair of one text (`weigh_proposals` leaves it out: here, that is said)."""
    from ..records.hygiene import weigh_proposals  # here: listing the extractors imports no scorer

    named = [list(record) for record in extraction.records if record]
    proposed = weigh_proposals(named, [], keys).new  # against no record held: the repeats within the extraction
    warnings = list(extraction.warnings)
    empty, repeated = len(extraction.records) - len(named), len(named) - len(proposed)
    if empty:
        warnings.append(f"{counted(empty, 'empty record')} not proposed: a record without any XPath names nothing "
                        "a label could hold")
    if repeated:
        each = "it repeats" if repeated == 1 else "each repeats"
        warnings.append(f"{counted(repeated, 'record')} not proposed: {each} an earlier record, by its XPaths or by "
                        "the text they cover (a wrapper and its only child, say), and the earlier one is proposed")
    return Proposed(proposed, warnings)


class ExtractionFailedError(RecordLensError):
    """A page got no valid answer (refused, cut off, unreadable after retries, a call that failed for good).

    It is a failed page, not an empty prediction: a run keeps `details` (the reason, every attempt, raw answers,
    tokens) in `RUN/_run/N.json`, writes no `N.json`, and the next run of the same folder tries the page again.
    """

    def __init__(self, reason: str, details: dict[str, object] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.details = details or {}


class StoppedOnPageError(BudgetExceededError):
    """The run's budget ran out part way through a page, after calls on it were paid for: `details` holds them
    (answers, statuses, tokens) so that the run keeps them, marked not finished, rather than losing them."""

    def __init__(self, message: str, details: dict[str, object]) -> None:
        super().__init__(message)
        self.details = details


@runtime_checkable
class Extractor(Protocol):
    name: str
    version: str

    def extract(self, page: Page) -> Extraction: ...


def strip_html_prefix(xpath: str) -> str:
    """`/html[1]/body[1]/x` -> `/body[1]/x`; `/html[1]` alone -> `/` (core's key for <html>)."""
    if xpath == HTML_PREFIX:
        return "/"
    if xpath.startswith(HTML_PREFIX + "/"):
        return xpath[len(HTML_PREFIX):]
    return xpath


# What RecordLens hands a method itself (objects, the key), never a parameter a user gives, by the option to use.
SET_BY_RECORDLENS = {"caller": "--base-url, --timeout-s", "budget": "--max-requests, --max-tokens",
                     "api_key": "GEMINI_API_KEY", "cancel": "Ctrl+C", "notify": "nothing (waits are said on stderr)",
                     "setting_places": "nothing (what is said names the command's options)"}


def refuse_unknown_parameters(method: str, given: Iterable[str], named: Sequence[str]) -> None:
    """A parameter the method does not have, said with the ones a user can give (rather than Python's
    TypeError)."""
    unknown = sorted(set(given) - set(named))
    if unknown:
        offered = [name for name in named if name not in SET_BY_RECORDLENS]
        raise RecordLensError(f"method {method!r} has no parameter {', '.join(map(repr, unknown))}; it takes "
                              f"{', '.join(offered) or 'none'}")
