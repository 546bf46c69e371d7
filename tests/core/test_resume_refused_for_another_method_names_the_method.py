"""`extract` into a folder that holds a run of another method is refused naming the two methods and what to do
(another --out, or the run's own method to resume it), not every parameter by which two methods differ, which
buried the one difference that matters under fifteen others. A run of the same method with other parameters is
still refused naming each of them, and another model (a selector's model file, a Gemini model) is named first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.extract.selector import DEFAULT_MODEL
from recordlens.core.extract.selector_model import SelectorModel
from tests.core.cli_runs import DEMO, folder_files, run
from tests.fake_gemini import FakeGemini, answer


def _extract(capsys: pytest.CaptureFixture[str], out: Path, *more: str) -> tuple[int, str]:
    code, said, err = run(capsys, "extract", "--pages", str(DEMO / "html"), "--out", str(out), "-q", *more)
    return code, said + err


def test_a_run_of_another_method_is_refused_naming_the_method_alone_and_the_way_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rep"
    assert _extract(capsys, out, "--method", "repeats")[0] == 0
    held = folder_files(out)
    code, said = _extract(capsys, out, "--method", "mdr")
    assert code == 2
    assert said == (f"recordlens: error: {out} holds a run of repeats, not mdr: resuming it with mdr would mix two "
                    "methods' records: choose another --out, or give --method repeats to resume it, or --restart to "
                    "extract every page again with mdr\n"), said
    assert folder_files(out) == held  # nothing touched
    code, said = _extract(capsys, out, "--method", "repeats")  # the way on it names
    assert code == 0 and "0 extracted, 4 already there" in said, said


def test_a_run_of_the_same_method_with_other_parameters_is_refused_naming_each(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mdr"
    assert _extract(capsys, out, "--method", "mdr")[0] == 0
    code, said = _extract(capsys, out, "--method", "mdr", "--param", "t=0.5", "--param", "k=8")
    assert code == 2
    assert (f"{out} holds a run of mdr made with other settings (k: 10 -> 8; t: 0.3 -> 0.5); resuming it would mix "
            "two methods' records: choose another --out, or --restart to extract every page again") in said, said


def test_another_model_is_the_first_difference_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "other.json"  # the shipped model with another threshold: another file, digest, threshold
    model.write_text(json.dumps({**json.loads(SelectorModel.load(DEFAULT_MODEL).to_json()), "threshold": 0.9}),
                     encoding="utf-8")
    selected = tmp_path / "selector"
    assert _extract(capsys, selected)[0] == 0
    code, said = _extract(capsys, selected, "--model", str(model))
    assert code == 2 and f"{selected} holds a run of selector made with other settings (model: 'default' -> {model};" \
        in said, said
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real-resume")
    asked = tmp_path / "gemini"
    with FakeGemini(default=answer("[]")) as server:
        assert _extract(capsys, asked, "--method", "gemini", "--base-url", server.url)[0] == 0
        code, said = _extract(capsys, asked, "--method", "gemini", "--base-url", server.url,
                              "--model", "gemini-2.5-flash")
    assert code == 2 and (f"{asked} holds a run of gemini made with other settings (model: 'gemini-2.5-pro' -> "
                          "'gemini-2.5-flash'); ") in said, said
