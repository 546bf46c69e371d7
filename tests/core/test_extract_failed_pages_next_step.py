"""`extract`'s closing lines after pages failed give the next step: running the same command again retries exactly
those pages (without --restart, for a --restart run). Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer, refused

DEMO = resource_path("demo", "dataset")


def test_failed_pages_end_with_the_command_that_retries_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real-next-step")
    extract = ("extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(tmp_path / "run"), "-q")
    with FakeGemini([refused("SAFETY"), answer("[]"), refused("MAX_TOKENS"), answer("[]")]) as server:
        code, _, err = run(capsys, *extract, "--base-url", server.url)
    last = err.strip().splitlines()[-1]
    assert code == 1 and last.startswith("recordlens: 2 pages failed (why is said above"), err
    assert last.endswith(": run the same command again to retry exactly those pages; until then `recordlens "
                         "score` and `bench` count them as empty predictions"), err
    with FakeGemini([refused("SAFETY"), answer("[]"), answer("[]"), answer("[]")]) as server:
        code, _, err = run(capsys, *extract, "--base-url", server.url, "--restart")
    assert code == 1 and "1 page failed" in err and "without --restart to retry exactly those pages" in err, err
