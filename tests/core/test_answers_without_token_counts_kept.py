"""An answer without token counts (no usageMetadata, as some proxies answer) has unknown tokens, not 0: its page's
`_run/N.json`, a run's summed cost and `bench --json`'s `spent` count it as an answer without counts
(`uncounted`), and a run written before still reads, its 0s of such answers found by its calls. Also: synth
refuses `--at-least-one` with `--transforms none` (nothing to choose from) at once, rather than say an empty list
on every page. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.llm.gemini import UNCOUNTED, tokens_as_kept
from recordlens.core.runs.run_files import META_DIR, paid_tokens, read_page_costs, summed_cost
from recordlens.core.synth.pipeline import SynthError, SynthOptions
from tests.core.cli_runs import DEMO, run
from tests.core.cli_runs import gemini_extract as extract
from tests.fake_gemini import FakeGemini, answer, raw_body

KEY = "test-key-not-real-kept-uncounted"
RECORDS = [["/body[1]/div[1]"], ["/body[1]/div[2]"]]
PAGES = 4  # the demo dataset's


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def without_usage(text: str) -> bytes:
    """A Gemini answer of `text` with no usageMetadata."""
    return json.dumps({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                                       "finishReason": "STOP", "index": 0}]}).encode()


UNCOUNTED_ANSWER = raw_body(without_usage(json.dumps(RECORDS)), "application/json")



def test_a_page_answered_without_counts_keeps_its_tokens_unknown_not_0(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=UNCOUNTED_ANSWER) as server:
        code, _, err = run(capsys, *extract(run_dir, server))
    assert code == 0, err
    page = json.loads((run_dir / META_DIR / "1.json").read_text(encoding="utf-8"))
    assert page["tokens"] == {UNCOUNTED: 1}  # no "total": 0 beside it
    assert page["raw"]["calls"][0]["tokens"] == {UNCOUNTED: 1}
    assert summed_cost(read_page_costs(run_dir).values())["tokens"] == {UNCOUNTED: PAGES}


def test_counted_answers_are_kept_as_before(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer(json.dumps(RECORDS), usage=(100, 20))) as server:
        code, _, err = run(capsys, *extract(run_dir, server))
    assert code == 0, err
    tokens = {"prompt": 100, "completion": 20, "total": 120}
    assert json.loads((run_dir / META_DIR / "1.json").read_text(encoding="utf-8"))["tokens"] == tokens
    assert summed_cost(read_page_costs(run_dir).values())["tokens"] == {k: PAGES * v for k, v in tokens.items()}


def test_a_page_with_counted_and_uncounted_answers_keeps_both() -> None:
    assert tokens_as_kept({"prompt": 0, "completion": 0, "total": 0, UNCOUNTED: 2}) == {UNCOUNTED: 2}
    mixed = {"prompt": 100, "completion": 20, "total": 120, UNCOUNTED: 1}
    assert tokens_as_kept(mixed) == mixed
    assert tokens_as_kept({"prompt": 0, "completion": 0, "total": 0}) == {"prompt": 0, "completion": 0, "total": 0}


def test_a_record_written_before_reads_its_answers_without_counts_from_its_calls() -> None:
    # as a run of an earlier RecordLens wrote them: 0s for the page, {} for an answer without counts, no
    # "tokens" at all for a call that got no answer (not paid for as an answer)
    old = {"status": "done", "tokens": {"prompt": 0, "completion": 0, "total": 0},
           "raw": {"calls": [{"attempts": 3, "statuses": [500, 500, 500], "error": "HTTP 500"},
                             {"attempts": 1, "statuses": [200], "tokens": {}}]}}
    mixed = {"status": "done", "tokens": {"prompt": 100, "completion": 20, "total": 120},
             "raw": {"calls": [{"attempts": 1, "tokens": {}},
                               {"attempts": 1, "tokens": {"prompt": 100, "completion": 20, "total": 120}}]},
             "earlier": [old]}
    assert paid_tokens(old) == {UNCOUNTED: 1}
    assert paid_tokens(mixed) == {"prompt": 100, "completion": 20, "total": 120, UNCOUNTED: 2}
    counted = {"status": "done", "tokens": {"prompt": 100, "completion": 20, "total": 120},
               "raw": {"calls": [{"attempts": 1, "tokens": {"prompt": 100, "completion": 20, "total": 120}}]}}
    assert summed_cost([counted])["tokens"] == {"prompt": 100, "completion": 20, "total": 120}  # nothing added


def test_bench_json_spent_counts_answers_without_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini(default=UNCOUNTED_ANSWER) as server:
        code, out, err = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods",
                             "gemini:flat", "--base-url", server.url, "-q", "--no-chart", "--json", "-")
    assert code == 0, err
    report = json.loads(out)
    assert report["spent"]["tokens"] == {UNCOUNTED: PAGES}, report["spent"]
    assert report["table2"][0]["tokens"] == {UNCOUNTED: PAGES}


# synth: --at-least-one with --transforms none


def test_at_least_one_with_no_transformation_is_refused_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SynthError, match="--at-least-one has nothing to choose from"):
        SynthOptions(transforms=(), at_least_one=True)
    out = tmp_path / "synth"
    code, _, err = run(capsys, "synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out", str(out),
                       "--transforms", "none", "--variants", "1", "--at-least-one", "-q")
    assert code == 2 and "--transforms none selects no transformation" in err, err
    assert "()" not in err and not out.exists()  # refused before any work
    SynthOptions(transforms=(), at_least_one=False)  # each alone is fine
    SynthOptions(transforms=("wrap_records",), at_least_one=True)
