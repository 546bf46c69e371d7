"""The Gemini client: the key, one request with retries and backoff, a budget, token usage and counts.
google-genai itself is imported only when a request is made."""

from .endpoint import KEY_MARK, USERINFO_MARK, holds_credential, holds_key_mark, without_credential
from .gemini import (
    DEFAULT_MODEL,
    Answer,
    Budget,
    BudgetExceededError,
    CallLog,
    CallSettings,
    GeminiCaller,
    GeminiError,
    NoApiKeyError,
    api_key_from_environment,
    endpoint_problem,
    key_choice_said,
    key_variable_used,
    required_api_key,
)

__all__ = [
    "DEFAULT_MODEL", "Answer", "Budget", "BudgetExceededError", "CallLog", "CallSettings", "GeminiCaller",
    "GeminiError", "KEY_MARK", "NoApiKeyError", "USERINFO_MARK", "api_key_from_environment", "endpoint_problem",
    "holds_credential", "holds_key_mark", "key_choice_said", "key_variable_used", "required_api_key",
    "without_credential",
]
