"""Calling Gemini: the key, one request with retries and backoff, a budget, token usage, token counts.

Everything that talks to Gemini (the LLM extractor, token counts, the web agent) goes through `GeminiCaller`,
so that retry, budget and secrecy rules live in one place. The key comes from the caller (the app's settings)
or from `GEMINI_API_KEY` / `GOOGLE_API_KEY`; it is never written to a project and never appears in a message:
`redact` scrubs it from any text that leaves this module.
"""

from __future__ import annotations

import contextlib
import email.utils
import json
import logging
import os
import random
import re
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol, TypeVar
from urllib.parse import urlsplit

from ..deadline_calls import DeadlinePassed, call_within
from ..errors import RecordLensError
from ..wording import as_clause, counted
from .endpoint import KEY_MARK, recorded_base_url

_T = TypeVar("_T")

KEY_VARIABLES = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
DEFAULT_MODEL = "gemini-2.5-pro"
RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})
MAX_RETRY_AFTER_S = 300.0  # a server asking for a longer wait (a quota reset hours away) stops the run instead
WAIT_NOTICE_S = 2.0  # a wait longer than this is said on stderr, so that a run never looks hung


class GeminiError(RecordLensError):
    """A call failed for good (after retries, or with an error retrying cannot fix).

    `log` (when the call got that far) says what each attempt met: HTTP statuses, errors, time waited.
    """

    def __init__(self, message: str, log: CallLog | None = None) -> None:
        super().__init__(message)
        self.log = log

    @property
    def endpoint_failed(self) -> bool:
        """Whether the endpoint or the account failed (unreachable, overloaded, a key or a model refused), so
        that the next request would most likely fail too; False for a refusal of this one request (HTTP 400,
        413, 422: a prompt too long, say)."""
        last = self.log.statuses[-1] if self.log is not None and self.log.statuses else 0
        if last == 400 and _KEY_REFUSED.search(self.log.errors[-1] if self.log and self.log.errors else ""):
            return True  # Gemini refuses a bad key with a 400, as it refuses one bad request: every page would fail
        return last not in _REQUEST_STATUSES


_REQUEST_STATUSES = (400, 413, 422)  # refusals of one request, not of the endpoint
# Gemini's words for a key it refuses (HTTP 400 INVALID_ARGUMENT, reason API_KEY_INVALID).
_KEY_REFUSED = re.compile(r"API key not valid|API_KEY_INVALID|API key expired", re.IGNORECASE)


class NoApiKeyError(GeminiError):
    pass


class BudgetExceededError(GeminiError):
    """The run can ask no more now: its own budget is spent, or the server's quota is (`QuotaWaitError`). The run
    stops cleanly and resumes later, rather than fail page after page."""


class CallCancelledError(BudgetExceededError):
    """The caller was cancelled (the app's Cancel): no further attempt is made, a wait ends at once; like a spent
    budget, the attempts already paid for are in `log` and the run keeps them."""


class QuotaWaitError(BudgetExceededError):
    """The server asks to wait longer than a call waits (Retry-After beyond `max_retry_after_s`): a quota, not a
    failing endpoint."""


# The attribute an interrupt (Ctrl+C, SIGTERM, a lost stdout: a BaseException, never a page's failure) carries what
# was paid for before it came in, as each level it passes through knows it: a call's attempts (`CallLog`), then the
# page's calls (the extractor's details, as `StoppedOnPageError` holds them for a budget stop)
_PAID = "recordlens_paid_before_the_interrupt"


def carry_paid(stop: BaseException, paid: object) -> None:
    """Let an interrupt that cuts paid work short carry `paid` on its way up (it replaces a lower level's account:
    each level's holds the one below's), so that whoever keeps the page can keep what it cost, and the interrupt
    stays an interrupt."""
    setattr(stop, _PAID, paid)


def paid_carried(stop: BaseException) -> object | None:
    """What an interrupt carries of the work it cut short (`carry_paid`), or None."""
    return getattr(stop, _PAID, None)


def api_key_from_environment() -> str | None:
    name = key_variable_used()
    return os.environ[name].strip() if name else None


def key_variable_used() -> str | None:
    """The variable whose key a call made without a key of its own sends: the first of `KEY_VARIABLES` that holds
    one (GEMINI_API_KEY before GOOGLE_API_KEY; a blank one holds none), or None."""
    return next((name for name in KEY_VARIABLES if os.environ.get(name, "").strip()), None)


def key_choice_said() -> str | None:
    """Which variable's key is sent, when the environment could leave a doubt (both variables set, or the first
    one blank); None when at most one holds a key. google-genai says "Using GOOGLE_API_KEY" whenever both are set,
    even though RecordLens hands it GEMINI_API_KEY's key: that line is silenced (`_SdkKeyLineFilter`) and this is
    said instead."""
    used = key_variable_used()
    others = [name for name in KEY_VARIABLES if name != used and name in os.environ]
    if used is None or not others:
        return None
    other = others[0]
    if os.environ[other].strip():
        return f"both {used} and {other} are set: the key of {used} is used, {other} is ignored"
    if KEY_VARIABLES.index(other) < KEY_VARIABLES.index(used):  # the one that would win is blank: said, not guessed
        return f"{other} is set but blank: the key of {used} is used"
    return None


KEY_IN_THE_SETTINGS = "the key in the app's settings"  # where a key not in a variable came from


def key_source(key: str | None, origin: str | None = None) -> str:
    """Where a key sent came from, as advice about it names it: `origin` when its caller was told (a Ray worker's
    environment may hold no key, or another), else the variable holding it, else the app's settings (the one other
    place a key comes from)."""
    if origin:
        return origin
    for name in KEY_VARIABLES:
        if key and os.environ.get(name, "").strip() == key:
            return name
    return KEY_IN_THE_SETTINGS


def key_sent_said(key: str | None, origin: str | None = None) -> str:
    """Which key was sent, as advice about a refusal names it: its variable (and the other one, set but ignored),
    the app's settings, or the placeholder sent for want of any. `origin`: where the key came from, when its caller
    was told (`key_source`)."""
    if key == NO_KEY:
        return "no key is set: a placeholder was sent; set GEMINI_API_KEY (or GOOGLE_API_KEY)"
    source = key_source(key, origin)
    if source not in KEY_VARIABLES:
        return f"the key sent is {source}"
    ignored = [name for name in KEY_VARIABLES if name != source and os.environ.get(name, "").strip()]
    return f"the key sent is {source}'s" + (f"; {ignored[0]} is set too, and ignored" if ignored else "")


class _SdkKeyLineFilter(logging.Filter):
    """Drops google-genai's "Both GOOGLE_API_KEY and GEMINI_API_KEY are set. Using GOOGLE_API_KEY.": it is said
    whenever both are set, whichever key the SDK is given, and RecordLens gives it GEMINI_API_KEY's
    (`key_choice_said` says so truthfully)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Both GOOGLE_API_KEY and GEMINI_API_KEY are set")


_SDK_KEY_LINE = _SdkKeyLineFilter()
logging.getLogger("google_genai._api_client").addFilter(_SDK_KEY_LINE)  # added once: a module is imported once


@dataclass(frozen=True)
class SettingPlaces:
    """Where whoever makes the Gemini calls sets what words about them name: the command line's options
    (`COMMAND_LINE`, the default), or what the app passes, naming its Settings and its fixed values (the app has no
    --timeout-s). Words are made with the places of the caller that made the run, and kept so in its records: they
    say where that run's setting was set, which reads the same whether `recordlens runs` or the app shows them."""

    model: str = "--model"
    timeout_s: str = "--timeout-s"  # said after "given up at": an option, or the app's words for its fixed limit
    endpoint: str = "--base-url"


COMMAND_LINE = SettingPlaces()

# Why an answer's tokens are unknown, in the words every account of it uses (a page's warning, a budget's stop, a
# bench's note): the answer came without a usage block, or it was given up at --timeout-s part way (a trickling
# server): a model answer is generated before it is sent, so one given up was paid for, its counts never read.
NO_USAGE_METADATA = "no usageMetadata"
# An answer whose HTTP 200 came and whose body the connection cut part way (a reset, a proxy gone): it was generated
# before it was sent, so paid for, and its token counts (at the end of the body) were never read
CUT_OFF_MID_ANSWER = "cut off mid-answer: generated, so paid for"
# What an answer with text held in place of its own token counts: the prompt's alone (as a refused answer has them)
INCOMPLETE_USAGE = "a usageMetadata that counts the prompt's tokens only, none of the answer's"
ZEROED_USAGE = "a usageMetadata whose token counts are all 0"
# A model request a Ray worker had out when it died: sent, so paid for, its answer lost with the worker
LOST_WITH_A_WORKER = "lost with the Ray worker that made it"
# The kinds of answer without token counts that are the endpoint's way of answering (its proxy's), as a stop line says
# the requests so answered: a run against it meets them again, where an answer cut off or lost with a worker is a
# mishap of its own request (`_LOSSES_SAID`)
_ANSWERED_SAID = {NO_USAGE_METADATA: f"without token counts ({NO_USAGE_METADATA})",
                  ZEROED_USAGE: f"with {ZEROED_USAGE}", INCOMPLETE_USAGE: f"with {INCOMPLETE_USAGE}"}


def given_up_at(places: SettingPlaces = COMMAND_LINE) -> str:
    """"given up at --timeout-s: generated, so paid for", the time limit named where `places` set it."""
    return f"given up at {places.timeout_s}: generated, so paid for"


def budget_used_up(max_requests: int | None, requests: int, max_tokens: int | None, tokens: int,
                   uncounted: int = 0, given_up: int = 0, kinds: Mapping[str, int] | None = None) -> str | None:
    """Why caps of `max_requests` and `max_tokens` allow no further request after these counts, or None.
    `uncounted` answers came without token counts, `given_up` of them being answers given up at --timeout-s and the
    others counted by why in `kinds` (`count_uncounted`; those of no kind known are said as without token counts):
    a token cap can no longer be held, so it allows no more."""
    if max_requests is not None and requests >= max_requests:
        return f"request budget used up ({requests} of {max_requests})"
    if max_tokens is not None and tokens >= max_tokens:
        return f"token budget used up ({tokens:,} of {max_tokens:,})"
    if max_tokens is not None and uncounted:
        given_up = min(given_up, uncounted)
        by_kind = _by_kind(uncounted - given_up, kinds or {})
        return (f"token budget cannot be held ({tokens:,} of {max_tokens:,} counted): "
                f"{_without_counts_said(by_kind, given_up)}, so no further request is made under --max-tokens; "
                f"{_holding_a_cap(by_kind, given_up)}")
    return None


def count_uncounted(kinds: dict[str, int], given_up: bool = False, why: str | None = None) -> None:
    """An answer without token counts counted in `kinds` (a budget's `uncounted_kinds`) by `why`: what it held in
    their place (`Answer.uncounted_why`; None: no usage block), or what lost them (`CUT_OFF_MID_ANSWER`,
    `LOST_WITH_A_WORKER`). One `given_up` at --timeout-s is counted apart, by the budget's `given_up`."""
    if not given_up:
        kind = why or NO_USAGE_METADATA
        kinds[kind] = kinds.get(kind, 0) + 1


def _by_kind(without: int, kinds: Mapping[str, int]) -> dict[str | None, int]:
    """The `without` answers without token counts (not given up) by kind, as `kinds` counted them; those it does
    not know (counted back from pages' records) under None."""
    known = {kind: count for kind, count in kinds.items()
             if count > 0 and (kind in _ANSWERED_SAID or kind in _LOSSES_SAID)}
    return {**known, None: max(without - sum(known.values()), 0)}


def _holding_a_cap(by_kind: Mapping[str | None, int], given_up: int) -> str:
    """What lets a later run hold its token cap, by why this one could not: an endpoint that answers without token
    counts is capped by requests; answers given up at --timeout-s alone are read whole with a longer one; answers
    cut off or lost with a worker are mishaps of their requests, not the endpoint's way."""
    if any(by_kind.get(kind) for kind in _ANSWERED_SAID):
        return "cap such an endpoint with --max-requests instead"
    if given_up:
        return "a longer --timeout-s lets a slow answer be read whole, and counted (or cap the run with --max-requests)"
    if by_kind.get(None):
        return "cap the run with --max-requests instead"
    return ("the endpoint counts tokens, so a run that loses no answer holds the cap (or cap the run with "
            "--max-requests)")


def _without_counts_said(by_kind: Mapping[str | None, int], given_up: int) -> str:
    """The answers whose tokens a budget could not count, each kind with its reason."""
    answered = [f"{counted(by_kind[kind], 'request')} {said}" for kind, said in _ANSWERED_SAID.items()
                if by_kind.get(kind)]
    parts = [f"the endpoint answered {' and '.join(answered)}"] if answered else []
    parts += [said(by_kind[kind]) for kind, said in _LOSSES_SAID.items() if by_kind.get(kind)]
    parts += [given_up_said(given_up)] if given_up else []
    parts += [uncounted_said(by_kind[None])] if by_kind.get(None) else []
    return " and ".join(parts)


def counts_missing(usage: Mapping[str, object]) -> bool:
    """Whether an answer's usage (`_usage_of`) holds no token count: no usage block, or one of zeros (an answer
    is never free). Such an answer's tokens are unknown, not 0."""
    return not usage.get("total")


# The kind of token account (beside prompt, completion, thinking, total) that counts the answers which came without
# token counts: summed kind by kind like the others, an account of a page, a run or a bench method then says how
# many of its answers its token figures leave out, rather than take them for answers that cost 0.
UNCOUNTED = "uncounted"


def answers_without_counts(tokens: Mapping[str, object]) -> int:
    """How many answers an account of tokens (an answer's usage, or a page's, a run's or a method's sum) holds
    whose tokens are unknown."""
    return int(tokens.get(UNCOUNTED) or 0)  # type: ignore[call-overload]


def tokens_as_kept(tokens: Mapping[str, int]) -> dict[str, int]:
    """An account of tokens as a run keeps it: when none of its answers came with counts, the zeros summed for
    them are no counts and are left out ({"uncounted": 2}, not a total of 0 beside it); else as it is."""
    if answers_without_counts(tokens) and not tokens.get("total"):
        return {UNCOUNTED: answers_without_counts(tokens)}
    return dict(tokens)


def given_up_said(count: int, places: SettingPlaces = COMMAND_LINE) -> str:
    """"2 answers given up at --timeout-s: generated, so paid for (their tokens unknown, not 0)", the time limit
    named where `places` set it."""
    return f"{counted(count, 'answer')} {given_up_at(places)} (their tokens unknown, not 0)"


def cut_off_said(count: int) -> str:
    """"2 answers cut off mid-answer: generated, so paid for (their tokens unknown, not 0)"."""
    return f"{counted(count, 'answer')} {CUT_OFF_MID_ANSWER} (their tokens unknown, not 0)"


# What a page's record says of a request sent whose answer had not been read when the record was written: awaited as
# the budget counted it (`page_loop.spending_told`), or cut short while awaited (an interrupt: `CallLog.unread`). A
# model answer is generated before it is sent, so a request sent is paid for, and one whose process was killed or
# interrupted (or whose app quit) while it was awaited leaves its tokens unknown, not 0
NEVER_READ = "sent, its answer not read when this record was written (awaited): paid for, its tokens unknown, not 0"


def never_read_said(count: int) -> str:
    """"1 request sent, its answer not read when this record was written (awaited): …", as a page's record says
    the requests it awaited as it was written (`NEVER_READ`)."""
    return f"{counted(count, 'request')} {NEVER_READ}"


def lost_with_a_worker_said(count: int) -> str:
    """"2 model requests lost with the Ray worker that made them: sent, so paid for (their tokens unknown, not 0)",
    as a page's record of them says it."""
    return (f"{counted(count, 'model request')} lost with the Ray worker that made {'it' if count == 1 else 'them'}: "
            "sent, so paid for (their tokens unknown, not 0)")


def uncounted_said(count: int) -> str:
    """"2 answers without token counts (their tokens unknown, not 0)", as a summary of tokens adds it."""
    return f"{counted(count, 'answer')} without token counts (their tokens unknown, not 0)"


# How a stop line says the answers whose token counts a mishap of their request lost: as their page's warning does
_LOSSES_SAID = {CUT_OFF_MID_ANSWER: cut_off_said, LOST_WITH_A_WORKER: lost_with_a_worker_said}


@dataclass
class Budget:
    """A per-run cap on requests and tokens, shared by every page of a run (thread-safe)."""

    max_requests: int | None = None
    max_tokens: int | None = None
    requests: int = 0
    tokens: int = 0
    uncounted: int = 0  # answers that came without token counts (their tokens are unknown)
    given_up: int = 0  # of them, answers given up at --timeout-s (generated, so paid for)
    # of the others, how many of each kind (`count_uncounted`), for the stop line to say each's own cause
    uncounted_kinds: dict[str, int] = field(default_factory=dict)
    # Called after each change of the counts (a request reserved or given back, an answer counted), by the thread
    # that made it, outside the lock and before it goes on: what keeps a record of the counts (an agent run's stored
    # cost) writes them at once, with no subclass copying this state. Where it fails (its database locked, a full
    # disk), a request is not sent (taken back, the failure raised); an answer already paid for is kept, and the
    # failure said on the log: the next change, or the end, writes the counts again.
    on_change: Callable[[], None] | None = field(default=None, repr=False, compare=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def reserve_request(self) -> None:
        with self._lock:
            spent = self.used_up()
            if spent:
                raise BudgetExceededError(spent)
            self.requests += 1
        try:
            self._changed()
        except BaseException:
            with self._lock:
                self.requests -= 1  # not sent: nothing to count, and the count nobody could record is not kept
            raise

    def release_request(self) -> None:
        """Give back a request reserved for an attempt that never reached a server (its connection refused): it
        was neither sent nor paid for, so it spends no cap and no count says it."""
        with self._lock:
            self.requests -= 1
        self._told_after_the_fact()

    def used_up(self) -> str | None:
        """Why no further request may be made (the message a stopped run gives), or None while one may."""
        return budget_used_up(self.max_requests, self.requests, self.max_tokens, self.tokens, self.uncounted,
                              self.given_up, self.uncounted_kinds)

    def add_tokens(self, count: int) -> None:
        with self._lock:
            self.tokens += count
        self._told_after_the_fact()

    def add_uncounted(self, given_up: bool = False, why: str | None = None) -> None:
        """An answer came without token counts (`why`: what it held instead, or what lost them; `count_uncounted`),
        or (`given_up`) was given up at --timeout-s: a token cap can no longer be held (`used_up` then says so, and
        why)."""
        with self._lock:
            self.uncounted += 1
            self.given_up += int(given_up)
            count_uncounted(self.uncounted_kinds, given_up, why)
        self._told_after_the_fact()

    def request_sent(self) -> None:
        """The request reserved last leaves for the server now: a limiter of requests per minute counts its minute
        from here (`shared_budget.Limiter.sent`); a run's own budget spaces no requests."""

    def counts(self) -> tuple[int, int]:
        """Requests and tokens counted so far, read together (as a shared budget gives them, in one question)."""
        with self._lock:
            return self.requests, self.tokens

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _told_after_the_fact(self) -> None:
        """`on_change` told of what happened already (an answer paid for, a request given back)."""
        _tell_after_the_fact(self._changed)


def _tell_after_the_fact(hook: Callable[[], None] | None) -> None:
    """`hook()` (None: nothing) told of what happened already (an answer paid for, a request given back, an attempt
    over): its failure must not lose the answer, nor end the call, so it is said on the log, not raised."""
    if hook is None:
        return
    try:
        hook()
    except Exception as error:  # noqa: BLE001 - whatever keeps the record failed; the counts stand
        logging.getLogger(__name__).warning("the run's spending could not be written now (%s: %s); it is "
                                            "written with the next change", type(error).__name__, error)


@dataclass
class CallSettings:
    model: str = DEFAULT_MODEL
    temperature: float | None = 1.0
    seed: int | None = 0
    timeout_s: float = 300.0
    max_attempts: int = 5
    backoff_s: float = 2.0  # first wait; doubles each retry, with jitter
    max_backoff_s: float = 60.0
    max_retry_after_s: float = MAX_RETRY_AFTER_S  # the longest Retry-After honoured; longer stops the run
    # Attempts at an address that refuses the connection (nothing listens there): a retry for a server restarting,
    # not the five a 503 gets. A session's bound, not recorded with a run.
    refused_attempts: int = 2
    json_output: bool = True
    base_url: str | None = None  # another endpoint speaking the same protocol (a proxy, a test server)


@dataclass
class CallLog:
    """What one `generate` call went through, attempt by attempt (kept with a run's pages).

    `statuses` has one entry per attempt: the HTTP status (200 for an answer, 429, 5xx...) or 0 when no HTTP
    answer came (a timeout, a dropped connection); `errors` the redacted reason of each failed attempt.
    """

    statuses: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    waited_s: float = 0.0  # backoff sleeps between attempts
    given_up: int = 0  # attempts given up at --timeout-s: answers paid for whose tokens are unknown
    cut_off: int = 0  # attempts whose 200's body the connection cut part way: paid for, their tokens unknown
    refused: int = 0  # attempts whose connection was refused: never sent, so no request (`requests_of_call`)
    unread: int = 0  # the attempt an interrupt (Ctrl+C, SIGTERM) cut short while its answer was awaited: paid for

    @property
    def attempts(self) -> int:
        return len(self.statuses)

    def as_dict(self) -> dict[str, object]:
        return {"attempts": self.attempts, "statuses": list(self.statuses), "errors": list(self.errors),
                "waited_s": round(self.waited_s, 3), **({GIVEN_UP: self.given_up} if self.given_up else {}),
                **({CUT_OFF: self.cut_off} if self.cut_off else {}),
                **({REFUSED: self.refused} if self.refused else {}),
                **({UNREAD: self.unread} if self.unread else {})}


# The key of a call's record (`CallLog.as_dict`) that counts its attempts given up at --timeout-s: paid for, their
# tokens unknown. An answered call's tokens hold them already (`Answer.usage`); a call that ended without an answer
# has only this to say them (`given_up_in_calls`).
GIVEN_UP = "given_up"
# The key of a call's record that counts its attempts cut off mid-answer (`CUT_OFF_MID_ANSWER`): paid for, their
# tokens unknown. An answered call's tokens hold them already; a call that ended without an answer has only this.
CUT_OFF = "cut_off"
# The key of a call's record that counts its attempts whose connection was refused (nothing listened at the address):
# made, but never sent to a server, so neither paid for nor counted as requests (`requests_of_call`).
REFUSED = "refused"
# The key of a call's record that counts its attempt cut short by an interrupt while its answer was awaited: sent, so
# paid for, its tokens unknown (`NEVER_READ`). Such a call ended without an answer, so only this says it.
UNREAD = "unread"


def requests_of_call(call: Mapping[str, object]) -> int:
    """The requests a call's record (`CallLog.as_dict`) says were sent, as a budget counts them: its attempts but
    those whose connection was refused."""
    return int(call.get("attempts") or 0) - int(call.get(REFUSED) or 0)  # type: ignore[call-overload]


# How `Answer.incomplete` begins for a refused or cut-off answer: what reads a stored step's error as one (the
# agent's `why_it_ended`) matches these.
INCOMPLETE_NO_CANDIDATES = "no candidates in the answer"
INCOMPLETE_UNFINISHED = "the model did not finish"


@dataclass
class Answer:
    """A 200 answer. `finish_reason` is the model's (STOP, SAFETY, MAX_TOKENS...); None with no candidate,
    and then `block_reason` says why the prompt was refused, when the server said."""

    text: str
    usage: dict[str, int]
    attempts: int
    seconds: float
    finish_reason: str | None = None
    log: CallLog = field(default_factory=CallLog)
    block_reason: str | None = None
    candidates: int = 1
    # Why the answer's own tokens are unknown, when they are: "no usageMetadata", "a usageMetadata of zeros", or one
    # of the prompt's alone (`INCOMPLETE_USAGE`), which tell a user apart where to look (a proxy that drops the block,
    # one that zeroes it, or one that drops the answer's count)
    uncounted_why: str | None = None

    @property
    def incomplete(self) -> str | None:
        """Why this answer is not a finished one (refused, cut off, empty), or None for a finished answer."""
        if self.candidates == 0:
            return INCOMPLETE_NO_CANDIDATES + (f" (prompt blocked: {self.block_reason})" if self.block_reason else "")
        if self.finish_reason not in (None, "STOP"):
            return f"{INCOMPLETE_UNFINISHED} (finishReason {self.finish_reason})"
        if not self.text.strip():
            return "the answer's text is empty"
        return None


def required_api_key(base_url: str | None = None) -> str:
    """The environment's key, or the error that says how to give one (checked before work that needs it). With
    `base_url` (another endpoint: a local server may need no key), no key is no error: `NO_KEY` is sent in its place,
    and that is said once."""
    key = api_key_from_environment()
    if key:
        choice = key_choice_said()
        if choice and not _said_key_choice:
            _said_key_choice.append(choice)
            _say_on_stderr(f"recordlens: {choice}")
        return key
    if base_url:
        if not _said_no_key:
            _said_no_key.append(base_url)
            _say_on_stderr(f"recordlens: no Gemini key set (GEMINI_API_KEY, GOOGLE_API_KEY): sending a placeholder "
                           f"key to --base-url {recorded_base_url(base_url, None)}, which must need none")
        return NO_KEY
    raise NoApiKeyError("no Gemini key: set GEMINI_API_KEY or GOOGLE_API_KEY "
                        "(the app also takes one in its settings; an endpoint of --base-url may need none)")


# How the path of a model request ends (`models/NAME:generateContent`): a request the budget reserved
GENERATE_PATH = ":generateContent"
# What is sent as the key to a --base-url endpoint when none is set (the SDK sends some key with every request).
NO_KEY = "recordlens-no-key"
_said_no_key: list[str] = []  # said once a process
_said_key_choice: list[str] = []  # said once a process


def endpoint_problem(url: str) -> str | None:
    """Why `url` cannot be an endpoint speaking Gemini's protocol (no http(s) address), or None when it can be."""
    try:
        parts = urlsplit(url)
    except ValueError as error:  # "http://[x]/": brackets that hold no IPv6 address
        return f"{url!r} is not an address that can be read ({error})"
    if parts.scheme in ("http", "https") and parts.netloc:
        return None
    return f"{url!r} is not an http:// or https:// address (for example http://127.0.0.1:8080)"


def _check(settings: CallSettings, places: SettingPlaces = COMMAND_LINE) -> None:
    """Settings the endpoint would refuse, or that would fail every call after a long wait, said at once."""
    if settings.base_url is not None and (problem := endpoint_problem(settings.base_url)):
        raise GeminiError(f"{places.endpoint} {problem}")
    if settings.temperature is not None and not 0.0 <= settings.temperature <= 2.0:
        raise GeminiError(f"--temperature {settings.temperature:g} is outside Gemini's range, 0 to 2")
    if settings.timeout_s <= 0:
        raise GeminiError("--timeout-s must be more than 0")
    if settings.max_attempts < 1:
        raise GeminiError(f"max_attempts {settings.max_attempts}: a call needs at least one attempt")


class GeminiCaller:
    """One configured client. `sleep` is injectable so tests do not wait for real; `cancel`, once set, stops the
    calls: no attempt starts after it, and a wait between attempts ends at once (the app's Cancel sets it). An
    attempt in flight is let finish: the app's job stops waiting at Cancel by itself (`run_until_cancelled`) and
    keeps that answer, which is paid for, when it comes.

    `key_origin` says where `api_key` came from (a variable of `KEY_VARIABLES`, or `KEY_IN_THE_SETTINGS`), as
    the advice about a refused key names it: a Ray driver tells its workers, whose environment may hold no key.
    Left out, it is found as `key_source` finds it, here and now. `setting_places` says where the words about its
    calls say their settings are set: the command line's options, unless the app passes its own."""

    def __init__(self, settings: CallSettings | None = None, *, api_key: str | None = None,
                 budget: Budget | None = None, sleep: Callable[[float], object] | None = None,
                 rng: random.Random | None = None, notify: Callable[[str], None] | None = None,
                 cancel: threading.Event | None = None,
                 key_origin: str | None = None, setting_places: SettingPlaces = COMMAND_LINE) -> None:
        self.settings = settings or CallSettings()
        self.setting_places = setting_places
        _check(self.settings, setting_places)
        self._api_key = api_key or required_api_key(self.settings.base_url)
        # found where the key was given, whose environment is the one it may have come from
        self.key_origin = key_origin or (None if self._api_key == NO_KEY else key_source(self._api_key))
        self.budget = budget or Budget()
        self.cancel = cancel or threading.Event()
        self._sleep = sleep or self.cancel.wait  # a wait that a cancel ends at once
        self._notify = notify or _say_on_stderr
        self._rng = rng or random.Random(0)
        # Told each time an attempt ends, whatever it met (an answer, an error status such as a 429 or a 5xx, a give-up
        # at the time limit, a refused connection), once what it cost is counted, by the thread that made it: whoever
        # keeps the requests awaited (`page_loop.spending_told`) learns that this one's answer is awaited no more,
        # which an error status, counting nothing, does not tell the budget. The one way an attempt's end is told:
        # whoever sets it calls the hook it found first and puts it back after (a Ray worker's caller has its own,
        # `ray_engine._CallerOnAWorker`); its failure is said on the log, not raised (the attempt is over).
        self.on_attempt_over: Callable[[], None] | None = None
        self._client = self._make_client()

    def _make_client(self):  # noqa: ANN202 - the SDK type is imported lazily
        from google import genai
        from google.genai import types

        options = types.HttpOptions(
            timeout=int(self.settings.timeout_s * 1000),
            # Retries are ours (budget, logging, injectable sleep): the SDK makes one attempt per call.
            retry_options=types.HttpRetryOptions(attempts=1),
            # The SDK reads a 200 holding an error object as an answer with nothing in it: it is named instead. A
            # model request is told to the budget as it leaves, not as it was reserved: the SDK's own work between
            # the two can take a second, which requests per minute must not count from.
            client_args={"event_hooks": {"request": [self._leaving], "response": [_refuse_an_error_object]}},
        )
        if self.settings.base_url:
            options.base_url = self.settings.base_url
        return genai.Client(api_key=self._api_key, http_options=options)

    def _leaving(self, request: object) -> None:
        """An HTTP client's request hook: a model request (not a countTokens) is about to leave for the server, its
        reservation made (`_attempts`): the budget is told (`Budget.request_sent`)."""
        path = str(getattr(getattr(request, "url", None), "path", ""))
        if path.endswith(GENERATE_PATH):
            # not told, the request's place in the limiter's window counts from its reservation: never the request
            with contextlib.suppress(Exception):
                self.budget.request_sent()

    def redact(self, text: str) -> str:
        return text.replace(self._api_key, KEY_MARK) if self._api_key and self._api_key != NO_KEY else text

    @property
    def recorded_base_url(self) -> str | None:
        """The endpoint as a run may record it: any credential written into --base-url replaced."""
        return recorded_base_url(self.settings.base_url, self._api_key)

    def generate(self, prompt: str, *, system: str | None = None,
                 images: list[bytes] | None = None, about: str | None = None) -> Answer:
        """Send one prompt; retry on 429, 5xx, timeouts and dropped connections with exponential backoff. `about`
        names what the call is for ("page 111") in what is said of its waits, which would otherwise name no page."""
        from google.genai import types

        config = types.GenerateContentConfig(
            temperature=self.settings.temperature,
            seed=self.settings.seed,
            system_instruction=system,
            response_mime_type="application/json" if self.settings.json_output else None,
        )
        contents: list[object] = [prompt]
        for image in images or []:
            contents.append(types.Part.from_bytes(data=image, mime_type="image/png"))
        start = time.monotonic()
        log = CallLog()
        try:
            return self._attempts(contents, config, log, start, about)
        except Exception:
            raise
        except BaseException as stop:  # Ctrl+C, SIGTERM: the attempts made so far were paid for
            carry_paid(stop, log)
            raise

    def _attempts(self, contents: list[object], config: object, log: CallLog, start: float,
                  about: str | None = None) -> Answer:
        """Attempt the request until it is answered, retrying what can be retried; what each attempt met goes to
        `log`."""
        attempt = 0
        while True:
            attempt += 1
            if self.cancel.is_set():
                raise CallCancelledError("cancelled: no further Gemini call made", log)
            try:
                self.budget.reserve_request()
            except BudgetExceededError as error:
                raise BudgetExceededError(str(error), log) from None
            try:
                response = self._within_the_timeout(lambda: self._client.models.generate_content(
                    model=self.settings.model, contents=contents, config=config))
                if _is_empty_body(response):
                    raise _EmptyBodyError("HTTP 200 with an empty body")
            except Exception as error:  # noqa: BLE001 - classified below, re-raised as GeminiError
                retryable, reason = self._classify(error)
                self._count_an_answer_not_read(error, log)
                if _connection_refused(error):  # nothing listened: the request never left, so it is no request
                    log.refused += 1
                    self.budget.release_request()
                _tell_after_the_fact(self.on_attempt_over)  # the attempt is over, its cost counted
                log.statuses.append(_status_of(error))
                log.errors.append(self.redact(reason))
                if not retryable or attempt >= self._attempts_for(error):
                    raise GeminiError(self.redact(f"Gemini call failed after {attempt} attempt(s): {reason}"
                                                  + self._tries_said(error, attempt)), log) from None
                self._wait_before_retry(attempt, error, reason, log, about)
                continue
            except BaseException as stop:  # Ctrl+C, SIGTERM: the request in flight was sent (reserved), never read
                log.statuses.append(0)
                log.unread += 1
                log.errors.append(f"interrupted ({type(stop).__name__}) while waiting for the answer")
                raise
            log.statuses.append(200)
            text = _text_of(response)
            usage = _usage_of(response, text)
            if usage.get("total"):
                self.budget.add_tokens(usage["total"])
            uncounted_why = _why_uncounted(response, usage)
            if uncounted_why:  # its cost is unknown: a token cap is not held by counting it as 0
                self.budget.add_uncounted(why=uncounted_why)
            _tell_after_the_fact(self.on_attempt_over)  # the attempt is over, its cost counted
            candidates = getattr(response, "candidates", None) or []
            return Answer(text=self.redact(text), usage=_with_given_up(usage, log), attempts=attempt,
                          seconds=time.monotonic() - start, finish_reason=_finish_reason_of(response),
                          log=log, block_reason=_block_reason_of(response), candidates=len(candidates),
                          uncounted_why=uncounted_why)

    def _count_an_answer_not_read(self, error: Exception, log: CallLog) -> None:
        """An attempt whose answer was paid for but never read whole, counted as such in `log` and the budget: one
        given up at --timeout-s (the whole request, counted as it was given up: `_give_up_the_request`; or its
        body's reads), or one whose body the connection cut part way (`_CutMidAnswerError`)."""
        if isinstance(error, _WholeRequestTimeoutError):
            log.given_up += 1
        elif isinstance(error, _CutMidAnswerError):
            log.given_up += int(error.timed_out)
            log.cut_off += int(not error.timed_out)
            self.budget.add_uncounted(given_up=error.timed_out, why=CUT_OFF_MID_ANSWER)

    def count_tokens(self, text: str, system: str | None = None) -> int:
        """The tokens of `text`, or of a whole prompt: `system` (a system instruction) and `text` (the user
        message), as `generate` would send them. The Gemini API's countTokens takes no system instruction (the SDK
        refuses one outside Vertex), so it is sent as the message's first part: the same texts, counted within
        the few tokens that frame a system instruction."""
        contents: str | list[str] = [system, text] if system else text
        response = self._within_the_timeout(
            lambda: self._client.models.count_tokens(model=self.settings.model, contents=contents))
        if response.total_tokens is None:  # an answer without the count is no count of 0
            raise GeminiError("the countTokens answer holds no totalTokens")
        return int(response.total_tokens)

    def _within_the_timeout(self, send: Callable[[], _T]) -> _T:
        """`send()`'s result, or `_WholeRequestTimeoutError` once `timeout_s` has passed without it. The HTTP
        client's own timeout bounds each read, not the request: a server that trickles its answer a byte at a time
        would hold the call for as long as it trickles. So the request runs in a thread of its own and is given up
        at the deadline (`_give_up_the_request`); an interrupt (Ctrl+C, SIGTERM) ends the wait at once, as it
        ends a request."""
        try:
            return call_within(send, timeout_s=self.settings.timeout_s, name="gemini-request")
        except DeadlinePassed:
            self._give_up_the_request()
            raise _WholeRequestTimeoutError(f"no whole answer within {self.settings.timeout_s:g} s") from None

    def _give_up_the_request(self) -> None:
        """The request in flight is given up: its client is closed, which closes its connection, so its thread
        ends now rather than when a trickling server is done (one left per timeout would pile up over a long
        run), and the next attempt gets a client of its own. The server answered it, or is answering: a model
        answer is generated before it is sent, so it is paid for, with tokens no one reads. A token cap can no
        longer be held by counting (`Budget.add_uncounted`), as for an answer without token counts."""
        self.budget.add_uncounted(given_up=True)
        abandoned, self._client = self._client, self._make_client()
        with contextlib.suppress(Exception):  # closing under a reading thread: its error is the thread's own
            abandoned.close()

    def _wait_before_retry(self, attempt: int, error: Exception, reason: str, log: CallLog,
                           about: str | None = None) -> None:
        """Sleep before the next attempt, unless that attempt cannot be made: a budget already spent (the wait
        would be for nothing) or a server asking for a wait beyond `max_retry_after_s` both end the call now."""
        spent = self.budget.used_up()
        if spent:
            raise BudgetExceededError(self.redact(f"{spent}; not waiting to retry after {as_clause(reason)}"), log)
        wanted = _asked_wait(error)
        asked, where = wanted if wanted is not None else (None, "")
        if asked is not None and asked > self.settings.max_retry_after_s:
            raise QuotaWaitError(self.redact(
                f"{as_clause(reason)}; the server asks to wait {asked:,.0f} s ({where}: a quota), more than the "
                f"{self.settings.max_retry_after_s:g} s a call waits, so wait that long"), log)
        wait = self._backoff(attempt, asked)
        if wait > WAIT_NOTICE_S:
            status = _status_of(error)
            # an error status says what it is; a 200 (a body that is not JSON, an empty one) and no answer say why
            what = f"HTTP {status}" if status and status != 200 else self.redact(reason)
            why = (f"as the server asks ({where})" if asked is not None and wait <= asked
                   else f"before attempt {attempt + 1} of {self._attempts_for(error)}")
            self._notify(f"{about + ': ' if about else ''}{what}: waiting {wait:.0f} s {why}")
        started = time.monotonic()
        try:
            self._sleep(wait)
        except BaseException:  # Ctrl+C, SIGTERM while waiting: what was waited is kept with the call
            log.waited_s += min(wait, time.monotonic() - started)
            raise
        if self.cancel.is_set():  # the wait ended early: what was waited, not what was planned
            log.waited_s += min(wait, time.monotonic() - started)
            raise CallCancelledError(self.redact(f"cancelled while waiting to retry after {as_clause(reason)}"), log)
        log.waited_s += wait

    def _attempts_for(self, error: Exception) -> int:
        """How many attempts a call makes when they meet `error`: a refused connection (nothing listens at the
        address: a wrong port, a server not started) is rarely a passing state as a 503 is, so it gets
        `refused_attempts`, not `max_attempts` (a run against a wrong --base-url ends in seconds, not minutes)."""
        if _connection_refused(error):
            return min(self.settings.refused_attempts, self.settings.max_attempts)
        return self.settings.max_attempts

    def _tries_said(self, error: Exception, attempt: int) -> str:
        """Why a call gave up before `max_attempts`, when a refused connection is why."""
        if attempt < self.settings.max_attempts and _connection_refused(error):
            return (f" (a refused connection is tried {counted(attempt, 'time')}, not {self.settings.max_attempts}: "
                    "nothing listens at that address, which waiting seldom mends)")
        return ""

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        wait = self.settings.backoff_s * (2 ** (attempt - 1))
        wait = min(self.settings.max_backoff_s, wait) * (0.5 + self._rng.random())
        return max(wait, retry_after or 0.0)

    def _classify(self, error: Exception) -> tuple[bool, str]:
        from google.genai import errors

        if isinstance(error, _EmptyBodyError | _ErrorObjectError | _WholeRequestTimeoutError):
            return True, str(error)
        if isinstance(error, _CutMidAnswerError):  # an answer came, and was paid for: asked again, as one not read
            if error.timed_out:
                return True, (f"HTTP 200 whose body stopped coming part way: no whole answer within "
                              f"{self.settings.timeout_s:g} s ({given_up_at(self.setting_places)}, its tokens "
                              "unknown)")
            return True, (f"HTTP 200 cut off mid-answer ({error.kind}: the connection closed part way through its "
                          "body; generated, so paid for, its tokens unknown)")
        if isinstance(error, ValueError) and "JSON" in type(error).__name__:
            # A 200 whose body is not JSON: a proxy's or captive portal's page, a cut connection. Transient.
            return True, f"HTTP 200 with a body that is not JSON ({str(error)[:120]})"
        if isinstance(error, errors.APIError):
            code = int(getattr(error, "code", 0) or 0)
            message = str(getattr(error, "message", "") or error)[:300]
            advice = self._what_to_check(code, message)
            if advice:  # the key or the model, not the endpoint, is what to look at first
                message = f"{as_clause(message.rstrip())}; {advice}"
            return code in RETRYABLE_STATUS, f"HTTP {code}: {message}"
        # The SDK's HTTP stack has changed between releases (httpx, httpx2, aiohttp): classify by kind, not class.
        kinds = {cls.__name__ for cls in type(error).__mro__}
        if isinstance(error, TimeoutError) or any("Timeout" in kind for kind in kinds):
            return True, f"no answer within {self.settings.timeout_s:g} s"
        if _connection_refused(error):
            return True, (f"connection problem ({type(error).__name__}): connection refused by "
                          f"{self._address_of(error)}, where nothing answers")
        if isinstance(error, ConnectionError) or kinds & {"TransportError", "NetworkError", "ConnectError"}:
            return True, f"connection problem ({type(error).__name__})"
        return False, f"{type(error).__name__}: {error}"

    def _what_to_check(self, code: int, message: str) -> str | None:
        """What an HTTP refusal points at before the endpoint does: the key (refused, or without the permission
        asked for) or the model name (unknown to the endpoint); None for the others."""
        if code == 401 or _KEY_REFUSED.search(message):
            return f"the server refuses the API key: check it first ({key_sent_said(self._api_key, self.key_origin)})"
        if code == 403:  # PERMISSION_DENIED: the API not enabled for the key's project, or a key restricted from it
            return ("the server denies permission: check the key's permissions first (the Generative Language API "
                    f"enabled for its project, the key not restricted from it; "
                    f"{key_sent_said(self._api_key, self.key_origin)})")
        if code == 404:
            return (f"the endpoint knows no model {self.settings.model!r}: check the model name first "
                    f"({self.setting_places.model}; {DEFAULT_MODEL}, for example), then the endpoint's address")
        return None

    def _address_of(self, error: Exception) -> str:
        """The host:port a failed connection was asked of: the request's own, else --base-url's, else Google's."""
        try:
            url = error.request.url  # type: ignore[attr-defined] - an httpx error's; absent elsewhere
            host, port = url.host, url.port or (443 if url.scheme == "https" else 80)
        except (AttributeError, RuntimeError):  # httpx raises RuntimeError for an error made without its request
            host = port = None
        if not host:
            parts = urlsplit(self.settings.base_url or "https://generativelanguage.googleapis.com")
            host, port = parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)
        return f"{host}:{port}" if port else str(host)


class _WholeRequestTimeoutError(TimeoutError):
    """A request not answered in full within `timeout_s` (a silent server, or one that trickles its answer)."""


class _EmptyBodyError(Exception):
    """A 200 that carries nothing at all (no candidates, no usage, no prompt feedback): a broken answer."""


class _ErrorObjectError(Exception):
    """A 200 whose body is an error object (`{"error": {...}}`, as some proxies answer), not an answer."""


class _CutMidAnswerError(Exception):
    """A 200 whose body could not be read whole: the connection cut part way (a reset, a proxy gone), or its reads
    stalled past the timeout (`timed_out`). The answer was generated before its first byte was sent, so it was paid
    for; its token counts, at the end of the body, were never read."""

    def __init__(self, error: Exception) -> None:
        kinds = {cls.__name__ for cls in type(error).__mro__}
        self.kind = type(error).__name__
        self.timed_out = isinstance(error, TimeoutError) or any("Timeout" in kind for kind in kinds)
        super().__init__(f"HTTP 200 whose body was not read whole ({self.kind})")


def _refuse_an_error_object(response: object) -> None:
    """An HTTP client's response hook: a 200 whose JSON body is an error object raises `_ErrorObjectError` naming
    it (the SDK would drop the object and leave an answer with nothing in it); one whose body cannot be read whole
    raises `_CutMidAnswerError` (the HTTP stack's own error would be taken for a request that never got an answer)."""
    if getattr(response, "status_code", None) != 200:
        return
    try:
        body = response.read()  # type: ignore[attr-defined] - read here, as a hook must; the client keeps it
    except Exception as error:  # noqa: BLE001 - any error of the HTTP stack, whose classes change between releases
        raise _CutMidAnswerError(error) from error
    if b'"error"' not in body[:200]:  # an answer's body begins with its candidates or usage
        return
    try:
        data = json.loads(body)
    except ValueError:
        return  # not JSON: said as such where the SDK reads it
    if isinstance(data, dict) and "error" in data and not data.get("candidates"):
        shown = json.dumps(data["error"], ensure_ascii=False)
        raise _ErrorObjectError(f"HTTP 200 holding an error object, not an answer: "
                                f"{shown[:300] + '…' if len(shown) > 300 else shown}")


def _is_empty_body(response: object) -> bool:
    return not (getattr(response, "candidates", None) or getattr(response, "usage_metadata", None)
                or getattr(response, "prompt_feedback", None))


def _status_of(error: Exception) -> int:
    from google.genai import errors

    if isinstance(error, errors.APIError):
        return int(getattr(error, "code", 0) or 0)
    if isinstance(error, _EmptyBodyError | _ErrorObjectError | _CutMidAnswerError) or (
            isinstance(error, ValueError) and "JSON" in type(error).__name__):
        return 200
    return 0


def _block_reason_of(response: object) -> str | None:
    feedback = getattr(response, "prompt_feedback", None)
    reason = getattr(feedback, "block_reason", None) if feedback is not None else None
    return str(getattr(reason, "value", reason)) if reason is not None else None


def _asked_wait(error: Exception) -> tuple[float, str] | None:
    """The wait the server asks for before the next attempt, and where it says so: a `Retry-After` header, else the
    `google.rpc.RetryInfo` of the error's body (`retryDelay`, as Gemini answers a spent per-minute quota: a 429
    with no header); None when it asks for none (or says it unreadably: the backoff alone decides)."""
    header = _retry_after_seconds(error)
    if header is not None:
        return header, "Retry-After"
    delay = _retry_delay_seconds(getattr(error, "details", None))
    return (delay, "RetryInfo retryDelay") if delay is not None else None


_RPC_RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo"
_DURATION = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)s\s*")  # protobuf's JSON Duration: "50s", "1.5s"


def _retry_delay_seconds(body: object) -> float | None:
    """The `retryDelay` of the `RetryInfo` among an error body's `details` (`{"error": {"details": [...]}}`), in
    seconds; None when there is none or it cannot be read."""
    error = body.get("error", body) if isinstance(body, dict) else None
    details = error.get("details") if isinstance(error, dict) else None
    for detail in details if isinstance(details, list) else []:
        if not isinstance(detail, dict) or detail.get("@type") != _RPC_RETRY_INFO:
            continue
        delay = detail.get("retryDelay")
        if isinstance(delay, str) and (read := _DURATION.fullmatch(delay)):
            return float(read.group(1))
        if isinstance(delay, dict):  # the Duration as its two fields, as some clients re-encode it
            try:
                return max(0.0, float(delay.get("seconds", 0) or 0) + float(delay.get("nanos", 0) or 0) / 1e9)
            except (TypeError, ValueError):
                return None
    return None


def _connection_refused(error: BaseException) -> bool:
    """Whether an attempt's connection was refused (nothing listens at the address): an OS refusal anywhere in the
    chain of errors the HTTP stack wrapped it in."""
    seen: BaseException | None = error
    for _ in range(10):  # a chain is a few errors deep; a loop in it is not followed for ever
        if seen is None:
            return False
        # the OS error itself, or a connect error that names it (an HTTP stack may keep only its words); never an
        # HTTP answer, whose text may speak of a refusal upstream of a proxy
        if isinstance(seen, ConnectionRefusedError) or (
                "Connect" in type(seen).__name__ and "connection refused" in str(seen).lower()):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _retry_after_seconds(error: Exception) -> float | None:
    """The wait a `Retry-After` header asks for, in either of its forms (seconds, or an HTTP date). A date is
    measured from the answer's own `Date` (the server's clock against itself: a local clock minutes off would
    otherwise turn a 20 s wait into a stop or into none), from the local clock only when the answer has none."""
    response = getattr(error, "response", None)
    headers = getattr(response, "headers", None)
    value = headers.get("retry-after") if headers is not None else None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    when = _http_date(value)
    if when is None:
        return None  # unreadable: the backoff alone decides
    now = _http_date(headers.get("date")) or datetime.now(UTC)
    return max(0.0, (when - now).total_seconds())


def _http_date(value: str | None) -> datetime | None:
    """An HTTP date header's time (UTC when it names no zone), or None when it is absent or unreadable."""
    if not value:
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when


def _say_on_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _text_of(response: object) -> str:
    """The text of an answer's first candidate (its parts' texts, thoughts left out), read as google-genai's
    `response.text` reads it but without its warnings, which name no page and go to stderr raw ("there are 2
    candidates, returning text result from the first candidate…"): what an answer holds beyond its first
    candidate's text is the caller's to say, naming its page (`Answer.candidates`)."""
    candidates = getattr(response, "candidates", None) or []
    content = getattr(candidates[0], "content", None) if candidates else None
    parts = getattr(content, "parts", None) or []
    return "".join(part.text for part in parts
                   if isinstance(getattr(part, "text", None), str) and getattr(part, "thought", None) is not True)


def _finish_reason_of(response: object) -> str | None:
    candidates = getattr(response, "candidates", None) or []
    reason = getattr(candidates[0], "finish_reason", None) if candidates else None
    return str(getattr(reason, "value", reason)) if reason is not None else None


def _usage_of(response: object, text: str) -> dict[str, int]:
    """The tokens an answer was billed: prompt, completion and total, and `thinking` when the model reports its
    thoughts (`thoughtsTokenCount`: billed as output, counted in the total, not in the completion), so that the
    gap between the total and prompt + completion is named. An answer without counts (no usage block, or one of
    zeros) is {"uncounted": 1}: its tokens are unknown, and every sum it goes into says so. An answer whose `text`
    its counts leave out (the prompt's alone, a total no larger) keeps the prompt's and is uncounted too: its
    completion is unknown, not 0."""
    metadata = getattr(response, "usage_metadata", None)
    if metadata is None:
        return {UNCOUNTED: 1}
    prompt = int(getattr(metadata, "prompt_token_count", 0) or 0)
    completion = int(getattr(metadata, "candidates_token_count", 0) or 0)
    thoughts = getattr(metadata, "thoughts_token_count", None)
    thinking = {"thinking": int(thoughts)} if thoughts is not None else {}
    total = int(getattr(metadata, "total_token_count", 0) or 0) or prompt + completion + thinking.get("thinking", 0)
    usage = {"prompt": prompt, "completion": completion, **thinking, "total": total}
    if counts_missing(usage):
        return {UNCOUNTED: 1}
    if text.strip() and not completion and not thinking.get("thinking") and total <= prompt:
        return {"prompt": prompt, "total": total, UNCOUNTED: 1}
    return usage


def _with_given_up(usage: dict[str, int], log: CallLog) -> dict[str, int]:
    """An answer's usage with its call's attempts given up at --timeout-s or cut off mid-answer before it
    (`CallLog.given_up`, `CallLog.cut_off`) among its answers without token counts: they were paid for too."""
    if not log.given_up and not log.cut_off:
        return usage
    return {**usage, UNCOUNTED: answers_without_counts(usage) + log.given_up + log.cut_off}


def given_up_in_calls(calls: list[dict[str, object]]) -> int:
    """The attempts given up at --timeout-s in calls that ended without an answer (a call's record, as a page's
    `raw` lists them: an answered call holds its `tokens`, which count them already)."""
    return sum(int(call.get(GIVEN_UP) or 0) for call in calls if "tokens" not in call)  # type: ignore[call-overload]


def _why_uncounted(response: object, usage: Mapping[str, int]) -> str | None:
    """Why an answer's own tokens are unknown (its `usage`, as `_usage_of` read it), in the words a warning of its
    page says: none at all, zeros, or the prompt's alone; None when it came with its counts."""
    if not answers_without_counts(usage):
        return None
    if getattr(response, "usage_metadata", None) is None:
        return NO_USAGE_METADATA
    if usage.get("total"):
        return INCOMPLETE_USAGE
    return ZEROED_USAGE


class TokenCounter(Protocol):
    """Counts a text's tokens, or a whole prompt's (`system` instruction and the user message `text`); None: the
    count failed (shown as n/a)."""

    def __call__(self, text: str, system: str | None = None) -> int | None: ...


def token_counter(base_url: str | None = None, model: str | None = None,
                  say: Callable[[str], None] = _say_on_stderr) -> TokenCounter | None:
    """Gemini's countTokens as a counter of texts and prompts, where a model call could be made: a key is set, or
    `base_url` names another endpoint (which is sent the placeholder key, as every call to it is:
    `required_api_key`); None otherwise. A failed count is None (shown as n/a), its reason said once through `say`,
    the key never in it."""
    if not api_key_from_environment() and not base_url:
        return None
    settings = CallSettings(base_url=base_url, max_attempts=2)
    if model:
        settings.model = model
    caller = GeminiCaller(settings)
    failed: list[str] = []

    def count(text: str, system: str | None = None) -> int | None:
        if failed:
            return None
        try:
            return caller.count_tokens(text, system)
        except Exception as error:  # noqa: BLE001 - any failure only costs the figure
            failed.append(caller.redact(f"{type(error).__name__}: {error}")[:200])
            say(f"countTokens failed ({failed[0]}); tokens shown as n/a")
            return None

    return count
