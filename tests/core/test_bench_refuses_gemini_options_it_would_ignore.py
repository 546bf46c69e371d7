"""`bench` refuses Gemini's options when no Gemini method runs, as `extract` refuses them for another method, and
`--model FILE` (a selector model, as `extract --model MODEL` takes one) is said to be Gemini's model name there:
before, `bench --methods selector --model my.json` measured the shipped selector, exit 0, without a word."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.cli_runs import DEMO, run

BENCH = ("bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "-q")


@pytest.fixture(autouse=True)
def _no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)


@pytest.mark.parametrize("model", ["my.json", "model.json.gz", "a-file-of-any-name"])
def test_a_model_file_given_as_bench_s_model_is_refused_with_the_option_it_belongs_to(
        model: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    if model == "a-file-of-any-name":
        (tmp_path / model).write_text("{}", encoding="utf-8")
    code, out, err = run(capsys, *BENCH, "--methods", "selector", "--model", model, "--chart", "chart.png")
    assert code == 2 and out == "" and not (tmp_path / "chart.png").exists()
    assert err == (f"recordlens: error: --model {model}: --model is the Gemini model name; the selector's model file "
                   "is --selector-model\n")


@pytest.mark.parametrize(("options", "said"), [
    (("--temperature", "0.3"), "--temperature is"),
    (("--max-requests", "3", "--max-tokens", "5"), "--max-requests, --max-tokens are"),
    (("--model", "gemini-2.5-flash"), "--model is"),
    (("--timeout-s", "9", "--prompt-file", "p.txt"), "--timeout-s, --prompt-file are"),
])
def test_gemini_options_without_a_gemini_method_are_refused(options: tuple[str, ...], said: str, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *BENCH, "--methods", "mdr,repeats", *options, "--chart", str(tmp_path / "c.png"))
    assert code == 2 and out == "" and not (tmp_path / "c.png").exists()
    assert err.startswith(f"recordlens: error: {said} for the gemini methods, and --methods has none (mdr, repeats)")


def test_count_tokens_takes_the_model_it_counts_with_and_nothing_else(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, *BENCH, "--methods", "repeats", "--count-tokens", "--model", "gemini-2.5-flash",
                       "--no-chart")
    assert code == 0 and "tokens shown as n/a" in err  # no key: counted nowhere, said
    code, _, err = run(capsys, *BENCH, "--methods", "repeats", "--count-tokens", "--temperature", "0.3", "--no-chart")
    assert code == 2 and "--temperature is for the gemini methods" in err


def test_extract_with_gemini_refuses_a_model_file_too(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real-model-file")
    code, _, err = run(capsys, "extract", "--method", "gemini", "--model", "my.json", "--pages", str(DEMO / "html"),
                       "--out", str(tmp_path / "run"), "--base-url", "http://127.0.0.1:9", "-q")
    assert code == 2 and not (tmp_path / "run").exists()
    assert err == ("recordlens: error: --model my.json: --model is the Gemini model name; the selector's model file "
                   "is given with --method selector\n")
