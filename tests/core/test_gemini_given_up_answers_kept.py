"""An answer given up at --timeout-s (a server that trickles it) was generated, so paid for: its page's record in
`_run/N.json` keeps it among the answers whose tokens are unknown ({"uncounted": N}, said as a warning of the
page), the closing line counts it so, and under --max-tokens the stop line names the timeout, not a missing
usageMetadata. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.llm.gemini import UNCOUNTED, Budget, CallSettings, GeminiCaller
from recordlens.core.runs.run_files import META_DIR
from tests.core.cli_runs import DEMO, run
from tests.fake_gemini import FakeGemini, answer, trickle

KEY = "test-key-not-real-given-up"
RECORDS = [["/body[1]/div[1]"], ["/body[1]/div[2]"]]
TRICKLED = trickle(json.dumps(RECORDS), 8.0)  # far past the 1 s --timeout-s


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def extract(run_dir: Path, server: FakeGemini, *options: str) -> tuple[str, ...]:
    return ("extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(run_dir), "--base-url",
            server.url, "--timeout-s", "1", "--param", "max_attempts=2", "--param", "backoff_s=0.01", *options)


def test_a_page_whose_answers_were_given_up_keeps_them_as_uncounted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=TRICKLED) as server:
        code, out, err = run(capsys, *extract(run_dir, server, "--max-requests", "2"))
    assert code == 3, err  # both requests given up on page 1, then the request cap
    page = json.loads((run_dir / META_DIR / "1.json").read_text(encoding="utf-8"))
    assert page["tokens"] == {UNCOUNTED: 2}, page
    assert any("2 answers given up at --timeout-s: generated, so paid for" in w for w in page["warnings"]), page
    assert "2 answers without token counts (their tokens unknown, not 0)" in out + err


def test_the_stop_line_under_max_tokens_names_the_timeout(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=TRICKLED) as server:
        code, out, err = run(capsys, *extract(run_dir, server, "--max-tokens", "100000"))
    assert code == 3, err
    said = out + err
    assert "token budget cannot be held (0 of 100,000 counted): 1 answer given up at --timeout-s" in said, said
    assert "no usageMetadata" not in said
    page = json.loads((run_dir / META_DIR / "1.json").read_text(encoding="utf-8"))
    assert page["tokens"] == {UNCOUNTED: 1}, page


def test_an_answer_after_one_given_up_counts_both() -> None:
    with FakeGemini([TRICKLED, answer(json.dumps(RECORDS), usage=(100, 20))]) as server:
        # 3 s: the answer given up still trips it (trickled over 8 s), and the real one, asked with a client made
        # anew, is not given up too on a loaded machine
        caller = GeminiCaller(CallSettings(base_url=server.url, timeout_s=3.0, max_attempts=2, backoff_s=0.01),
                              api_key=KEY, sleep=lambda seconds: None, notify=lambda message: None)
        answered = caller.generate("page")
    assert answered.usage == {"prompt": 100, "completion": 20, "total": 120, UNCOUNTED: 1}
    assert answered.log.as_dict()["given_up"] == 1


def test_the_stop_line_says_each_reason_of_its_own() -> None:
    budget = Budget(max_tokens=10)
    budget.add_uncounted()
    budget.add_uncounted(given_up=True)
    said = budget.used_up() or ""
    assert "1 request without token counts (no usageMetadata) and 1 answer given up at --timeout-s" in said, said
