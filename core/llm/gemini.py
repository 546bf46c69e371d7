"""Calling Gemini: the key, one request with retries and backoff, a budget, token usage, token counts.

Everything that talks to Gemini (the LLM extractor, token counts, the web agent) goes through `GeminiCaller`,
so that retry, budget and secrecy rules live in one place. The key comes from the caller (the app's settings)
or from `GEMINI_API_KEY` / `GOOGLE_API_KEY`; it is never written to a project and never appears in a message:
`redact` scrubs it from any text that leaves this module.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import RecordLensError

KEY_VARIABLES = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
DEFAULT_MODEL = "gemini-2.5-pro"
RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})


class GeminiError(RecordLensError):
    """A call failed for good (after retries, or with an error retrying cannot fix)."""


class NoApiKeyError(GeminiError):
    pass


class BudgetExceededError(GeminiError):
    pass


def api_key_from_environment() -> str | None:
    for name in KEY_VARIABLES:
        value = os.environ.get(name, "").strip()
        if value:
            return value
    return None


@dataclass
class Budget:
    """A per-run cap on requests and tokens, shared by every page of a run (thread-safe)."""

    max_requests: int | None = None
    max_tokens: int | None = None
    requests: int = 0
    tokens: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def reserve_request(self) -> None:
        with self._lock:
            if self.max_requests is not None and self.requests >= self.max_requests:
                raise BudgetExceededError(f"request budget used up ({self.requests} of {self.max_requests})")
            if self.max_tokens is not None and self.tokens >= self.max_tokens:
                raise BudgetExceededError(f"token budget used up ({self.tokens:,} of {self.max_tokens:,})")
            self.requests += 1

    def add_tokens(self, count: int) -> None:
        with self._lock:
            self.tokens += count


@dataclass
class CallSettings:
    model: str = DEFAULT_MODEL
    temperature: float | None = 1.0
    seed: int | None = 0
    timeout_s: float = 300.0
    max_attempts: int = 5
    backoff_s: float = 2.0  # first wait; doubles each retry, with jitter
    max_backoff_s: float = 60.0
    json_output: bool = True
    base_url: str | None = None  # another endpoint speaking the same protocol (a proxy, a test server)


@dataclass
class Answer:
    text: str
    usage: dict[str, int]
    attempts: int
    seconds: float
    finish_reason: str | None = None


class GeminiCaller:
    """One configured client. `sleep` is injectable so tests (and cancel buttons) do not wait for real."""

    def __init__(self, settings: CallSettings | None = None, *, api_key: str | None = None,
                 budget: Budget | None = None, sleep: Callable[[float], None] = time.sleep,
                 rng: random.Random | None = None) -> None:
        self.settings = settings or CallSettings()
        self._api_key = api_key or api_key_from_environment()
        if not self._api_key:
            raise NoApiKeyError("no Gemini key: set GEMINI_API_KEY or GOOGLE_API_KEY "
                                "(the app also takes one in its settings)")
        self.budget = budget or Budget()
        self._sleep = sleep
        self._rng = rng or random.Random(0)
        self._client = self._make_client()

    def _make_client(self):  # noqa: ANN202 - the SDK type is imported lazily
        from google import genai
        from google.genai import types

        options = types.HttpOptions(
            timeout=int(self.settings.timeout_s * 1000),
            # Retries are ours (budget, logging, injectable sleep): the SDK makes one attempt per call.
            retry_options=types.HttpRetryOptions(attempts=1),
        )
        if self.settings.base_url:
            options.base_url = self.settings.base_url
        return genai.Client(api_key=self._api_key, http_options=options)

    def redact(self, text: str) -> str:
        return text.replace(self._api_key, "[key]") if self._api_key else text

    def generate(self, prompt: str, *, system: str | None = None,
                 images: list[bytes] | None = None) -> Answer:
        """Send one prompt; retry on 429, 5xx, timeouts and dropped connections with exponential backoff."""
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
        attempt = 0
        while True:
            attempt += 1
            self.budget.reserve_request()
            try:
                response = self._client.models.generate_content(
                    model=self.settings.model, contents=contents, config=config)
            except Exception as error:  # noqa: BLE001 - classified below, re-raised as GeminiError
                retryable, reason = self._classify(error)
                if not retryable or attempt >= self.settings.max_attempts:
                    raise GeminiError(self.redact(f"Gemini call failed after {attempt} attempt(s): {reason}")) from None
                self._sleep(self._backoff(attempt, error))
                continue
            usage = _usage_of(response)
            self.budget.add_tokens(usage.get("total", 0))
            return Answer(text=_text_of(response), usage=usage, attempts=attempt,
                          seconds=time.monotonic() - start, finish_reason=_finish_reason_of(response))

    def count_tokens(self, text: str) -> int:
        response = self._client.models.count_tokens(model=self.settings.model, contents=text)
        return int(response.total_tokens or 0)

    def _backoff(self, attempt: int, error: Exception) -> float:
        retry_after = _retry_after_seconds(error)
        wait = self.settings.backoff_s * (2 ** (attempt - 1))
        wait = min(self.settings.max_backoff_s, wait) * (0.5 + self._rng.random())
        return max(wait, retry_after or 0.0)

    def _classify(self, error: Exception) -> tuple[bool, str]:
        from google.genai import errors

        if isinstance(error, errors.APIError):
            code = int(getattr(error, "code", 0) or 0)
            message = str(getattr(error, "message", "") or error)[:300]
            return code in RETRYABLE_STATUS, f"HTTP {code}: {message}"
        # The SDK's HTTP stack has changed between releases (httpx, httpx2, aiohttp): classify by kind, not class.
        kinds = {cls.__name__ for cls in type(error).__mro__}
        if isinstance(error, TimeoutError) or any("Timeout" in kind for kind in kinds):
            return True, f"no answer within {self.settings.timeout_s:g} s"
        if isinstance(error, ConnectionError) or kinds & {"TransportError", "NetworkError", "ConnectError"}:
            return True, f"connection problem ({type(error).__name__})"
        return False, f"{type(error).__name__}: {error}"


def _retry_after_seconds(error: Exception) -> float | None:
    response = getattr(error, "response", None)
    headers = getattr(response, "headers", None)
    value = headers.get("retry-after") if headers is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _text_of(response: object) -> str:
    try:
        text = response.text  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - a blocked or empty candidate raises in some SDK versions
        text = None
    return text or ""


def _finish_reason_of(response: object) -> str | None:
    candidates = getattr(response, "candidates", None) or []
    reason = getattr(candidates[0], "finish_reason", None) if candidates else None
    return str(getattr(reason, "value", reason)) if reason is not None else None


def _usage_of(response: object) -> dict[str, int]:
    metadata = getattr(response, "usage_metadata", None)
    if metadata is None:
        return {}
    prompt = int(getattr(metadata, "prompt_token_count", 0) or 0)
    completion = int(getattr(metadata, "candidates_token_count", 0) or 0)
    total = int(getattr(metadata, "total_token_count", 0) or 0) or prompt + completion
    return {"prompt": prompt, "completion": completion, "total": total}
