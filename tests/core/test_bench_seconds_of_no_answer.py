"""`bench`'s Table 2 says a Gemini method that got no answer on any page (each refused) has no seconds per page:
"n/a", as its other figures and the token columns say a figure it has none of, never `nan`; `--json` has null."""

from __future__ import annotations

import json

import pytest

from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, refused

DEMO = resource_path("demo", "dataset")


def test_a_method_that_failed_on_every_page_has_no_seconds_per_page(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real-135")
    with FakeGemini(default=refused("SAFETY")) as server:
        bench = ("bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods", "repeats,gemini:flat",
                 "--base-url", server.url, "--no-chart", "-q")
        code, out, _ = run(capsys, *bench)
        assert code == 1, out  # pages failed
        row = next(line for line in out.splitlines() if line.startswith("gemini "))
        assert "nan" not in row and row.split()[7:9] == ["n/a", "4"], row
        code, out, _ = run(capsys, *bench, "--json")
    gemini = next(r for r in json.loads(out)["table2"] if r["method"] == "gemini")
    assert gemini["seconds_per_page"] is None and gemini["failed_pages"] == 4
