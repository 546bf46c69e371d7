"""Advice about a refused key names where the key came from, also on a Ray worker, whose environment may hold no
key: the driver tells the worker's caller (`key_origin`) along with the key. Without Ray: the serializer the
engine registers is caught, and the caller is rebuilt from its parts as a worker rebuilds it."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable

import pytest

from recordlens.core.llm.gemini import KEY_IN_THE_SETTINGS, Budget, CallSettings, GeminiCaller, GeminiError
from recordlens.core.runs import ray_engine
from tests.fake_gemini import FakeGemini, status

KEY = "test-key-not-real-origin"
Parts = object


def caller_serializers(monkeypatch: pytest.MonkeyPatch) -> tuple[Callable[[GeminiCaller], Parts],
                                                                  Callable[[Parts], GeminiCaller]]:
    """The engine's (to parts, from parts) for a GeminiCaller, registered with a stand-in for `ray.util`."""
    registered: dict[type, tuple[Callable, Callable]] = {}
    util = types.ModuleType("ray.util")
    util.register_serializer = lambda cls, *, serializer, deserializer: registered.__setitem__(  # type: ignore[attr-defined]
        cls, (serializer, deserializer))
    ray = types.ModuleType("ray")
    ray.util = util  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ray", ray)
    monkeypatch.setitem(sys.modules, "ray.util", util)
    monkeypatch.setattr(ray_engine, "_registered", False)
    ray_engine._register_serializers()  # noqa: SLF001 - what the engine does before its first map
    return registered[GeminiCaller]


def as_on_a_worker(monkeypatch: pytest.MonkeyPatch, driver: GeminiCaller) -> GeminiCaller:
    """`driver` shipped to a worker whose environment holds no key, and rebuilt there."""
    to_parts, from_parts = caller_serializers(monkeypatch)
    with ray_engine._keys_of_callers() as keys:  # noqa: SLF001 - the engine's own shipping of keys
        parts = to_parts(driver)
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    with ray_engine._keys_for_callers(tuple(keys)):  # noqa: SLF001
        return from_parts(parts)


def refusal(caller: GeminiCaller) -> str:
    with pytest.raises(GeminiError) as caught:
        caller.generate("page")
    return str(caught.value)


def test_a_key_from_a_variable_is_named_so_on_a_worker_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    with FakeGemini(default=status(401, "API key not valid. Please pass a valid API key.")) as server:
        settings = CallSettings(base_url=server.url, max_attempts=1)
        driver = GeminiCaller(settings, budget=ray_engine._DriverBudget(Budget()))  # noqa: SLF001 - as a map ships it
        worker = as_on_a_worker(monkeypatch, driver)
        said = refusal(worker)
    assert "the key sent is GEMINI_API_KEY's" in said, said
    assert KEY_IN_THE_SETTINGS not in said and KEY not in said


def test_a_caller_told_nothing_finds_the_key_s_variable_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_API_KEY", KEY)
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    with FakeGemini(default=status(401, "API key not valid.")) as server:
        settings = CallSettings(base_url=server.url, max_attempts=1)
        assert "the key sent is GOOGLE_API_KEY's" in refusal(GeminiCaller(settings, api_key=KEY))
        assert f"the key sent is {KEY_IN_THE_SETTINGS}" in refusal(GeminiCaller(settings, api_key="another-key"))
        told = GeminiCaller(settings, api_key="another-key", key_origin="GEMINI_API_KEY")
        assert "the key sent is GEMINI_API_KEY's" in refusal(told)
