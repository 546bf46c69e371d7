"""What `extract`'s closing line and `bench` say, where they said something else before: answers without token
counts are said as such in the closing line and in bench's "Spent on model calls" table (their tokens unknown,
not 0); bench with recorded answers that cover none of the pages with ground truth names that as the reason (not
"no page with ground truth"); and bench on an unfinished synth dataset exits 1, as `score` and `labels check` do.

These need the patches /tmp/fix/readme-cli-extraction.py.patch, readme-cli-bench.py.patch and
readme-cli-evaluation.py.patch (core/cli/extraction.py, core/runs/bench.py, core/cli/evaluation.py): until they are
applied, they fail. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.page.dataset import SYNTH_MANIFEST
from tests.core.cli_runs import DEMO, run
from tests.fake_gemini import FakeGemini, raw_body

KEY = "test-key-not-real-said-uncounted"
PAGES = 4  # the demo dataset's


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def uncounted_answer() -> object:
    """A Gemini answer with no usageMetadata."""
    body = {"candidates": [{"content": {"role": "model", "parts": [{"text": '[["/body[1]/div[1]"]]'}]},
                            "finishReason": "STOP", "index": 0}]}
    return raw_body(json.dumps(body).encode(), "application/json")


def test_the_closing_line_says_answers_without_counts_not_0_tokens(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini(default=uncounted_answer()) as server:  # type: ignore[arg-type]
        code, printed, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                                 str(tmp_path / "run"), "--base-url", server.url, "-q")
    assert code == 0, err
    closing = printed.strip().splitlines()[-1]  # the closing line, a result, on stdout
    assert closing.endswith(f"{PAGES} requests, 0 tokens counted, and {PAGES} answers without token counts "
                            "(their tokens unknown, not 0)"), closing


def test_the_spent_table_says_answers_without_counts(capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini(default=uncounted_answer()) as server:  # type: ignore[arg-type]
        code, out, err = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods",
                             "gemini:flat", "--base-url", server.url, "-q", "--no-chart")
    assert code == 0, err
    spent = out[out.index("Spent on model calls"):].splitlines()
    assert spent[1].split() == ["method", "requests", "prompt", "completion", "total", "uncounted"], spent
    assert spent[2].split() == ["gemini:flat", str(PAGES), "n/a", "n/a", "n/a", str(PAGES)], spent
    assert "their tokens are unknown" in spent[3], spent


def test_bench_says_when_the_recorded_answers_cover_none_of_the_pages(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = tmp_path / "recorded" / "llm"
    answers.mkdir(parents=True)
    (answers.parent / "index.json").write_text(json.dumps({"sample1": 999}), encoding="utf-8")  # no demo page
    (answers / "sample1_flat_content.json").write_text("[]", encoding="utf-8")
    code, _, err = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods",
                       "repeats,replay", "--answers", str(answers), "-q", "--no-chart")
    assert code == 2, err
    assert f"the recorded answers in {answers} cover none of the pages with ground truth" in err, err
    assert f"({PAGES} pages: 1, 2, 3, 4)" in err, err
    assert "no page with ground truth" not in err, err


def test_bench_on_an_unfinished_synth_dataset_exits_1_as_score_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dataset = tmp_path / "synth"
    for part in ("html", "gt"):
        shutil.copytree(DEMO / part, dataset / part)
    (dataset / SYNTH_MANIFEST).write_text(json.dumps({"complete": False}), encoding="utf-8")  # a stopped synth
    code, out, err = run(capsys, "bench", "--pages", str(dataset / "html"), "--gt", str(dataset / "gt"),
                         "--methods", "repeats", "-q", "--no-chart")
    assert "Table 2" in out, out  # the figures are printed, of the pages it holds
    assert code == 1 and "an unfinished synth dataset" in err and "(exit status 1)" in err, err
