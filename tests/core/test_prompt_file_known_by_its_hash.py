"""A run made with `--prompt-file` is the same run whatever path gives the file: the prompt is known by its SHA-256
(`run_identity`), so the same bytes given by another spelling of the path, from another directory, or as a copy
under another name resume it (said, and its source recorded as given now), and `runs --add` takes the folder for
the run stored from it. A changed text is still refused, naming both files and their hashes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from recordlens.core.command_hints import hint_path
from recordlens.core.runs.run_files import identity_differences, run_identity
from tests.core.cli_runs import DEMO, run
from tests.fake_gemini import FakeGemini, answer

KEY = "test-key-not-real-654"
PROMPT = b"Find the records and answer with a JSON list of lists of XPaths.\n\n{input}\n"


def _extract(capsys: pytest.CaptureFixture[str], run_dir: Path | str, prompt: Path | str, server: FakeGemini,
             *more: str) -> tuple[int, str]:
    code, out, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                         str(run_dir), "--base-url", server.url, "--prompt-file", str(prompt), "-q", *more)
    return code, out + err  # what it said: its closing line on stdout, the rest on stderr


def test_the_same_prompt_file_by_another_path_resumes_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    (tmp_path / "R").mkdir()
    prompt = tmp_path / "R" / "prompt.txt"
    prompt.write_bytes(PROMPT)
    run_dir = tmp_path / "R" / "f2"
    with FakeGemini(default=answer("[]")) as server:
        monkeypatch.chdir(tmp_path)
        assert _extract(capsys, "R/f2", "R/prompt.txt", server, "--max-requests", "1")[0] == 3  # page 1 only

        code, err = _extract(capsys, run_dir, prompt, server, "--max-requests", "1")  # the absolute path
        assert code == 3, err
        assert (f"the prompt file {prompt} is the run's prompt, recorded as R/prompt.txt (the same SHA-256, ") in err

        monkeypatch.chdir(tmp_path / "R")  # from another directory
        assert _extract(capsys, "f2", "prompt.txt", server, "--max-requests", "1")[0] == 3, err

        copy = tmp_path / "copy-of-the-prompt.md"  # the same bytes under another name
        copy.write_bytes(PROMPT)
        code, err = _extract(capsys, run_dir, copy, server)
        assert code == 0 and "1 extracted, 3 already there" in err, err
        assert len(server.requests) == 4
    parameters = json.loads((run_dir / "_run" / "run.json").read_text(encoding="utf-8"))["parameters"]
    assert parameters["prompt"] == str(copy)  # the source as given now, for people


def test_a_changed_prompt_is_still_refused_naming_both_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    first, second = tmp_path / "p1.txt", tmp_path / "p2.txt"
    first.write_bytes(PROMPT)
    second.write_bytes(PROMPT.replace(b"records", b"items"))
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        assert _extract(capsys, run_dir, first, server, "--max-requests", "1")[0] == 3
        held = sorted(os.listdir(run_dir))
        code, err = _extract(capsys, run_dir, second, server)
        assert len(server.requests) == 1
    assert code == 2, err
    described = json.loads((run_dir / "_run" / "run.json").read_text(encoding="utf-8"))["parameters"]
    assert (f"prompt: {hint_path(first)} (SHA-256 {described['prompt_sha256']}) -> {hint_path(second)} (SHA-256 "
            ) in err, err
    assert "would mix two methods' records" in err and sorted(os.listdir(run_dir)) == held


def test_a_run_is_known_by_its_prompt_hash_not_by_its_path() -> None:
    made = {"method": "gemini", "version": "1", "parameters": {"prompt": "R/p.txt", "prompt_sha256": "a" * 64}}
    elsewhere = {**made, "parameters": {"prompt": "/abs/R/p.txt", "prompt_sha256": "a" * 64}}
    other = {**made, "parameters": {"prompt": "R/p.txt", "prompt_sha256": "b" * 64}}
    assert run_identity(made) == run_identity(elsewhere) and identity_differences(made, elsewhere) == []
    assert identity_differences(made, other) == [f"prompt: R/p.txt (SHA-256 {'a' * 64}) -> R/p.txt "
                                                 f"(SHA-256 {'b' * 64})"]  # each file as a hint names it
    unhashed = {**made, "parameters": {"prompt": "R/p.txt"}}  # no hash recorded: its source is all that says it
    assert identity_differences(unhashed, {**made, "parameters": {"prompt": "R/q.txt"}}) == [
        "prompt: R/p.txt -> R/q.txt"]


def test_seeds_resumed_with_the_prompt_file_by_another_path_are_not_said_to_mix_methods(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    prompt = tmp_path / "prompt.txt"
    prompt.write_bytes(PROMPT)
    monkeypatch.chdir(tmp_path)
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        assert _extract(capsys, run_dir, "prompt.txt", server, "--seeds", "2", "--max-requests", "6")[0] == 3
        assert _extract(capsys, run_dir, prompt, server, "--seeds", "2")[0] == 0  # seed 1 resumed, absolute path
    sources = {json.loads((run_dir / f"seed-{s}" / "_run" / "run.json").read_text())["parameters"]["prompt"]
               for s in (0, 1)}
    assert sources == {"prompt.txt", str(prompt)}
    _, out, err = run(capsys, "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages",
                      str(DEMO / "html"), "-q")
    assert "2 seeds" in out and "mixes them" not in err, err
