"""`inspect` counts a page's tokens with the one counter `bench --count-tokens` uses (`llm.gemini.token_counter`):
at an endpoint of --base-url too when no key is set (sent the placeholder key, as every call to it is), not only
with a key. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json

import pytest

from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini

DEMO = resource_path("demo", "dataset")


def test_inspect_counts_tokens_at_a_base_url_without_a_key(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    with FakeGemini() as server:
        code, out, err = run(capsys, "inspect", str(DEMO / "html" / "1.html"), "--json", "--base-url", server.url)
    tokens = json.loads(out)["tokens"]
    assert code == 0, err
    assert all(isinstance(tokens[f], int) and tokens[f] > 0 for f in ("flat", "slim", "outline")), tokens
    assert {r.path.rsplit(":", 1)[1] for r in server.requests} == {"countTokens"}
